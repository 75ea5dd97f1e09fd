/**
 * An open-loop load at a steady rate: requests leave on schedule, `rate` per
 * second spread evenly, whether or not earlier ones were answered, over a pool
 * of keep-alive connections. Used where a target names a rate ("at 1,000
 * writes/s").
 *
 * Why not autocannon's `overallRate`: autocannon lets each connection send its
 * share of the second as fast as it can, then pause until the next second, so
 * the connections together send a burst at full speed at the start of every
 * second and nothing for the rest of it. What that measures is the service
 * saturated for part of each second, not the rate asked for.
 *
 * Latency is measured from the moment a request was due, so a service that
 * falls behind pays for the requests waiting for a connection too.
 */
import http from 'node:http';
import { createHistogram } from 'node:perf_hooks';

/** One request; its body is sent as application/json. */
export interface PacedRequest {
  method: string;
  path: string;
  body: string;
}

export interface PacedSpec {
  baseUrl: string;
  /** Sent with every request (the bearer token). */
  headers: Record<string, string>;
  /** Requests per second. */
  rate: number;
  durationS: number;
  /** Keep-alive connections at most; requests due while all are busy wait for one. */
  connections: number;
  /** The n-th request (from 0). */
  request: (n: number) => PacedRequest;
}

export interface PacedResult {
  sent: number;
  /** 2xx answers. */
  ok: number;
  /** Answers that were not 2xx, and connection errors. */
  failed: number;
  /** From the moment each 2xx request was due to its answer, in ms. */
  p50: number;
  p99: number;
}

/** Resolves once every request sent was answered (or failed). */
export async function pacedLoad(spec: PacedSpec): Promise<PacedResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: spec.connections });
  const url = new URL(spec.baseUrl);
  const latency = createHistogram();
  let ok = 0;
  let failed = 0;
  const answers: Promise<void>[] = [];

  const send = (n: number, due: number) =>
    new Promise<void>((resolve) => {
      const { method, path, body } = spec.request(n);
      const request = http.request(
        { host: url.hostname, port: url.port, path, method, agent, headers: { ...spec.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (response) => {
          response.resume();
          response.on('end', () => {
            if (response.statusCode !== undefined && response.statusCode >= 200 && response.statusCode < 300) {
              ok++;
              latency.record(Math.max(1, Math.round((performance.now() - due) * 1000)));
            } else failed++;
            resolve();
          });
        },
      );
      request.on('error', () => {
        failed++;
        resolve();
      });
      request.end(body);
    });

  const started = performance.now();
  const total = Math.round(spec.rate * spec.durationS);
  let sent = 0;
  while (sent < total) {
    const elapsed = performance.now() - started;
    // Every request due by now leaves now, stamped with the moment it was due.
    for (let due = Math.min(total, Math.floor((elapsed / 1000) * spec.rate)); sent < due; sent++) answers.push(send(sent, started + (sent * 1000) / spec.rate));
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(answers);
  agent.destroy();
  const ms = (p: number) => (ok > 0 ? latency.percentile(p) / 1000 : Number.NaN);
  return { sent, ok, failed, p50: ms(50), p99: ms(99) };
}
