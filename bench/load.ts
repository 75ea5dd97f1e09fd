/**
 * One measured run of autocannon against one server: a fixed number of
 * keep-alive connections for a fixed time. Latency is recorded here from each
 * response's own duration in microseconds (autocannon's built-in histogram
 * keeps whole milliseconds only, too coarse for sub-millisecond reads).
 */
import autocannon from 'autocannon';
import { createHistogram } from 'node:perf_hooks';
import type { RunningServer } from './processes.js';

export interface LoadSpec {
  requests: autocannon.Request[];
  connections: number;
  durationS: number;
  /** Sent with every request (the bearer token). */
  headers: Record<string, string>;
}

export interface Measurement {
  /** 2xx responses per second. */
  rps: number;
  /** Latency percentiles of 2xx responses, in milliseconds. */
  p50: number;
  p90: number;
  p99: number;
  ok: number;
  /** Responses that were not 2xx, by status. */
  failures: Record<string, number>;
  /** Connection errors and timeouts. */
  errors: number;
  seconds: number;
  /** CPU seconds per second of the server under test (1.0 = one core busy). */
  serverCpu: number;
  /** CPU seconds per second of this process (the load generator). */
  clientCpu: number;
}

export async function runLoad(server: RunningServer, spec: LoadSpec): Promise<Measurement> {
  const histogram = createHistogram();
  const failures: Record<string, number> = {};
  let ok = 0;
  const serverCpuBefore = server.cpuSeconds();
  const clientCpuBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  let instance!: autocannon.Instance;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    // The callback form returns the instance, whose 'response' events carry each duration.
    instance = autocannon(
      { url: server.baseUrl, connections: spec.connections, duration: spec.durationS, headers: spec.headers, requests: spec.requests, timeout: 30 },
      (error: unknown, result: autocannon.Result) => (error ? reject(error) : resolve(result)),
    );
  });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode >= 200 && statusCode < 300) {
      ok++;
      histogram.record(Math.max(1, Math.round(responseTime * 1000)));
    } else {
      failures[statusCode] = (failures[statusCode] ?? 0) + 1;
    }
  });
  const result = await done;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const clientCpu = process.cpuUsage(clientCpuBefore);
  const ms = (p: number) => (ok === 0 ? 0 : histogram.percentile(p) / 1000);
  return {
    rps: ok / seconds,
    p50: ms(50),
    p90: ms(90),
    p99: ms(99),
    ok,
    failures,
    errors: result.errors + result.timeouts,
    seconds,
    serverCpu: (server.cpuSeconds() - serverCpuBefore) / seconds,
    clientCpu: (clientCpu.user + clientCpu.system) / 1e6 / seconds,
  };
}
