/**
 * Runs the built service as production runs it (`node dist/bundle/server.mjs`, the
 * bundle `npm start` runs) as a real child process, for
 * tests of what only a process shows: exit codes, signals, stderr, crash recovery.
 *
 * The child gets a clean environment (PATH and a few OS variables, PORT=0,
 * LOG_LEVEL=info, then the caller's values; `undefined` removes a variable), so
 * settings of the shell that runs the tests never leak into it. The port is learnt
 * from the pino line `Server listening at http://HOST:PORT` on stdout.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clientFor, fetchDocument, type TestClient } from './http-client.js';
import { forgetDocument, primeDocument } from './openapi-validator.js';

/** The repository root: the nearest folder above this file holding package.json (works from test/ and dist/test/). */
export const REPO_ROOT = (() => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
  return dir;
})();

export const SERVER_ENTRY = join(REPO_ROOT, 'dist', 'bundle', 'server.mjs');

export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ChildServerOptions {
  /** Added to the clean base environment; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  /** Working directory of the child (default: the repository root). */
  cwd?: string;
}

export interface ChildServer {
  readonly process: ChildProcess;
  readonly pid: number;
  /** Everything the child wrote so far. */
  stdout(): string;
  stderr(): string;
  /** The stdout lines that are JSON log records. */
  logs(): Array<Record<string, unknown>>;
  /** Resolves with the port once the listening line appears; rejects (with the output) on exit or timeout. */
  waitForListening(timeoutMs?: number): Promise<number>;
  /** Resolves when a log record satisfies `match`; rejects on exit or timeout. */
  waitForLog(match: (record: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  kill(signal?: NodeJS.Signals): void;
  /** Resolves once the child has exited and its output is complete; rejects (with the output) on timeout. */
  waitForExit(timeoutMs?: number): Promise<ChildExit>;
  /** SIGKILLs the child if it still runs and waits for it. Safe to call twice. */
  dispose(): Promise<void>;
  /** Describes the child's state and output, for assertion messages. */
  describe(): string;
}

export interface StartedChildServer extends ChildServer, TestClient {
  port: number;
}

const BASE_ENV_NAMES = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'SYSTEMROOT'];
const LISTENING = /^Server listening at https?:\/\/\S+:(\d+)$/;

export function spawnChildServer(options: ChildServerOptions = {}): ChildServer {
  const env: Record<string, string> = {};
  for (const name of BASE_ENV_NAMES) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  // Load shedding is off unless a test turns it on: a busy CI machine must not shed test traffic.
  for (const [name, value] of Object.entries({ PORT: '0', LOG_LEVEL: 'info', OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0', ...options.env })) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  const child = spawn(process.execPath, [SERVER_ENTRY], { cwd: options.cwd ?? REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let exit: ChildExit | undefined;
  let spawnError: Error | undefined;
  const waiters = new Set<() => void>();
  const notify = () => waiters.forEach((waiter) => waiter());
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => ((out += chunk), notify()));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => ((err += chunk), notify()));
  child.on('error', (error) => ((spawnError = error), notify()));
  child.on('close', (code, signal) => ((exit = { code, signal }), notify()));

  const logs = () =>
    out.split('\n').flatMap((line) => {
      try {
        const record: unknown = JSON.parse(line);
        return record !== null && typeof record === 'object' ? [record as Record<string, unknown>] : [];
      } catch {
        return [];
      }
    });

  const describe = () =>
    `pid ${child.pid}, ${exit ? `exited with code ${exit.code}, signal ${exit.signal}` : 'still running'}` +
    `${spawnError ? `, spawn error: ${spawnError.message}` : ''}\n--- stderr ---\n${err}--- stdout ---\n${out}--- end ---`;

  /** Polls `probe` on every output or exit event until it yields a value, the child dies, or time runs out. */
  function until<T>(what: string, probe: () => T | undefined, timeoutMs: number, failOnExit: boolean): Promise<T> {
    return new Promise((resolve, reject) => {
      const finish = (fn: () => void) => {
        clearTimeout(timer);
        waiters.delete(check);
        fn();
      };
      const check = () => {
        const value = probe();
        if (value !== undefined) return finish(() => resolve(value));
        if (spawnError || (failOnExit && exit)) finish(() => reject(new Error(`child server ended before ${what}: ${describe()}`)));
      };
      const timer = setTimeout(() => finish(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}: ${describe()}`))), timeoutMs);
      waiters.add(check);
      check();
    });
  }

  const handle: ChildServer = {
    process: child,
    pid: child.pid ?? -1,
    stdout: () => out,
    stderr: () => err,
    logs,
    describe,
    waitForLog: (match, timeoutMs = 10_000) => until('a matching log line', () => logs().find(match), timeoutMs, true),
    waitForListening(timeoutMs = 10_000) {
      return until(
        'the listening log line',
        () => {
          for (const record of logs()) {
            const port = LISTENING.exec(String(record.msg ?? ''))?.[1];
            if (port !== undefined) return Number(port);
          }
          return undefined;
        },
        timeoutMs,
        true,
      );
    },
    kill(signal = 'SIGTERM') {
      if (exit === undefined) child.kill(signal);
    },
    waitForExit: (timeoutMs = 10_000) => until('exit', () => exit, timeoutMs, false),
    async dispose() {
      if (exit !== undefined || spawnError) return;
      child.kill('SIGKILL');
      await until('exit after SIGKILL', () => exit, 10_000, false);
    },
  };
  return handle;
}

/** Spawns the service and waits until it listens; a child that never does is killed and the error carries its output. */
export async function startChildServer(options: ChildServerOptions = {}, timeoutMs = 15_000): Promise<StartedChildServer> {
  const handle = spawnChildServer(options);
  let port: number;
  try {
    port = await handle.waitForListening(timeoutMs);
  } catch (error) {
    await handle.dispose();
    throw error;
  }
  const baseUrl = `http://127.0.0.1:${port}`;
  await primeDocument(baseUrl, await fetchDocument(baseUrl));
  handle.process.once('exit', () => forgetDocument(baseUrl));
  return Object.assign(handle, { port }, clientFor(baseUrl));
}
