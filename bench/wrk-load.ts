/**
 * One measured run of wrk (a load generator written in C) against one server:
 * one thread, a fixed number of keep-alive connections for whole seconds, each
 * request a GET of the next path from a file (bench/wrk/reads.lua). It returns
 * what runLoad returns for autocannon, from what wrk counts without parsing
 * responses (a Lua response() hook would make it parse every one), hence:
 * - `ok` counts every response with a status below 400 (wrk's status errors are
 *   the others); the reads by key send no If-None-Match, so never get a 3xx;
 * - failures are not known by status: they are counted under `4xx/5xx`;
 * - the latency percentiles are of all responses, not of the 2xx ones only;
 * - `clientCpu` is wrk's own CPU time (read by the script from /proc/self/stat),
 *   without its start-up, where it reads the file and formats every request.
 */
import { accessSync, appendFileSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Measurement } from './load.js';
import { CLOCK_TICKS, runCommand, type RunningServer } from './processes.js';

export const WRK_THREADS = 1;

export interface WrkSpec {
  /** The Lua script, bench/wrk/reads.lua. */
  script: string;
  /** Request paths, one a line; wrk cycles through them. */
  pathsFile: string;
  connections: number;
  /** Rounded by wrkSeconds(). */
  durationS: number;
  /** Sent with every request (the bearer token). */
  headers: Record<string, string>;
  /** Where wrk's own output goes (its stderr, then its text summary). */
  logPath: string;
  cwd: string;
}

/** The line reads.lua's done() prints. Durations and latencies in µs, CPU in clock ticks. */
interface WrkReport {
  duration_us: number;
  requests: number;
  status_errors: number;
  connect_errors: number;
  read_errors: number;
  write_errors: number;
  timeouts: number;
  p50_us: number;
  p90_us: number;
  p99_us: number;
  cpu_ticks: number;
}

const RESULT_PREFIX = 'wrk-result ';

/** wrk takes whole seconds only (`-d1.5` is refused): the duration it is given. */
export function wrkSeconds(durationS: number): number {
  return Math.max(1, Math.round(durationS));
}

let wrkPath: string | undefined;

/** The wrk program on PATH; throws, saying what to do, when there is none. */
export function findWrk(): string {
  if (wrkPath !== undefined) return wrkPath;
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(delimiter)) {
    const candidate = join(dir, 'wrk');
    try {
      accessSync(candidate, constants.X_OK);
      return (wrkPath = candidate);
    } catch {
      // Not in this folder.
    }
  }
  throw new Error('BENCH_WRK=1 (the default) and BENCH_FEATURES=1 measure reads with wrk, but there is no wrk on PATH: install it (apt-get install wrk), or set BENCH_WRK=0 and leave BENCH_FEATURES at 0');
}

export async function runWrk(server: RunningServer, spec: WrkSpec): Promise<Measurement> {
  const args = ['-t', String(WRK_THREADS), '-c', String(spec.connections), '-d', `${wrkSeconds(spec.durationS)}s`, '--latency',
    '-s', spec.script, server.baseUrl, '--', spec.pathsFile];
  // Through the environment, not `-H`: the command line of a process is readable by every user.
  const env = { WRK_HEADERS: Object.entries(spec.headers).map(([name, value]) => `${name}: ${value}`).join('\n') };
  const serverCpuBefore = server.cpuSeconds();
  const run = await runCommand(findWrk(), args, env, spec.cwd, spec.logPath);
  const serverCpu = server.cpuSeconds() - serverCpuBefore;
  appendFileSync(spec.logPath, run.stdout);
  const line = run.stdout.split('\n').find((l) => l.startsWith(RESULT_PREFIX));
  if (run.code !== 0 || line === undefined) throw new Error(`wrk against ${server.name} exited with ${run.code} and no result line; see ${spec.logPath}`);
  const r = JSON.parse(line.slice(RESULT_PREFIX.length)) as WrkReport;
  // wrk's own measured time, over which it counted the responses (start-up and connecting are outside it).
  const seconds = r.duration_us / 1e6;
  // wrk counts only complete responses as requests; socket errors and timeouts are outside them.
  const ok = r.requests - r.status_errors;
  return {
    rps: ok / seconds,
    p50: r.p50_us / 1000,
    p90: r.p90_us / 1000,
    p99: r.p99_us / 1000,
    ok,
    failures: r.status_errors > 0 ? { '4xx/5xx': r.status_errors } : {},
    errors: r.connect_errors + r.read_errors + r.write_errors + r.timeouts,
    seconds,
    serverCpu: serverCpu / seconds,
    clientCpu: r.cpu_ticks / CLOCK_TICKS / seconds,
  };
}
