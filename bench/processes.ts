/**
 * Child processes of a run (the service and the baseline servers, and commands
 * such as an import): servers are started on a free port, waited for until
 * their readiness path answers 200, measured from /proc (peak RSS, CPU time),
 * and stopped with SIGTERM; commands run to their end. Every child is tracked,
 * so a failing run still stops each one it started, by pid.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';

/** Linux clock ticks per second for /proc/<pid>/stat (USER_HZ is 100 on every mainstream kernel). */
export const CLOCK_TICKS = 100;
/** How long a server may take to answer its readiness path (BENCH_READY_TIMEOUT_S, default 60): longer on a machine others load. */
const READY_TIMEOUT_MS = Number(process.env.BENCH_READY_TIMEOUT_S ?? '60') * 1000;

export interface ServerSpec {
  name: string;
  /** Arguments to `node`: flags, then the script and its arguments. */
  args: string[];
  /** The child's whole environment (nothing is inherited beyond PATH and HOME; PORT is added). */
  env: Record<string, string>;
  cwd: string;
  /** Where stdout and stderr go: a file, or /dev/null. */
  logPath: string;
  /** The path polled for the first 200. */
  readyPath: string;
}

export interface RunningServer {
  name: string;
  pid: number;
  baseUrl: string;
  /** Milliseconds from spawn to the first 200 on the readiness path. */
  readyMs: number;
  /** Highest resident set size so far (VmHWM), in bytes. */
  peakRssBytes(): number;
  /** User + system CPU seconds used so far. */
  cpuSeconds(): number;
  /** SIGTERM, then waits for the exit (SIGKILL after 15 s); resolves with the exit code. */
  stop(): Promise<number | null>;
}

const running = new Set<ChildProcess>();

/** Stops every child still running: for a run that failed or was interrupted. */
export function killAll(): void {
  for (const child of running) if (child.pid !== undefined && child.exitCode === null) process.kill(child.pid, 'SIGKILL');
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function status(url: string): Promise<number> {
  return new Promise((resolve) => {
    const request = get(url, { agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', () => resolve(0));
    request.setTimeout(1000, () => request.destroy());
  });
}

function procField(pid: number, file: string): string {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return '';
  }
}

/** Highest resident set size so far (VmHWM) of a live process, in bytes; 0 once it has ended. */
function peakRss(pid: number): number {
  return Number(/VmHWM:\s+(\d+) kB/.exec(procField(pid, 'status'))?.[1] ?? 0) * 1024;
}

export interface CommandRun {
  code: number | null;
  /** Spawn to exit. */
  seconds: number;
  /** Peak RSS, sampled every 50 ms until the process ended (so a peak in its last 50 ms can be missed). */
  peakRssBytes: number;
  stdout: string;
}

/** Runs `node <args>` to its end, tracked like the servers (killAll stops it); stderr goes to `logPath`. */
export async function runNode(args: string[], env: Record<string, string>, cwd: string, logPath: string): Promise<CommandRun> {
  return runCommand(process.execPath, args, env, cwd, logPath);
}

/** Runs the program `file` with `args` to its end, as runNode does. */
export async function runCommand(file: string, args: string[], env: Record<string, string>, cwd: string, logPath: string): Promise<CommandRun> {
  const log = openSync(logPath, 'a');
  const started = process.hrtime.bigint();
  const child = spawn(file, args, {
    cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', log],
  });
  closeSync(log);
  running.add(child);
  let stdout = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, peakRss(child.pid as number))), 50);
  const code = await new Promise<number | null>((resolve) => child.once('close', (exitCode) => resolve(exitCode)));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  clearInterval(sampler);
  running.delete(child);
  return { code, seconds, peakRssBytes: peak, stdout };
}

export async function startServer(spec: ServerSpec, port: number): Promise<RunningServer> {
  const out = openSync(spec.logPath, 'a');
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, spec.args, {
    cwd: spec.cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...spec.env, PORT: String(port) },
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  running.add(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => {
    running.delete(child);
    resolve(code);
  }));
  const baseUrl = `http://127.0.0.1:${port}`;
  let readyMs = 0;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${spec.name} exited with ${child.exitCode} before it was ready; see ${spec.logPath}`);
    if ((await status(baseUrl + spec.readyPath)) === 200) {
      readyMs = Number(process.hrtime.bigint() - started) / 1e6;
      break;
    }
    if (Number(process.hrtime.bigint() - started) / 1e6 > READY_TIMEOUT_MS) {
      child.kill('SIGKILL');
      throw new Error(`${spec.name} was not ready within ${READY_TIMEOUT_MS} ms; see ${spec.logPath}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const pid = child.pid as number;
  return {
    name: spec.name,
    pid,
    baseUrl,
    readyMs,
    peakRssBytes: () => peakRss(pid),
    cpuSeconds: () => {
      // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
      const fields = procField(pid, 'stat').replace(/^.*\) /, '').split(' ');
      return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / CLOCK_TICKS;
    },
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
