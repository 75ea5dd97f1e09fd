/**
 * `npm start` as a supervisor runs it: SIGTERM to the process `npm start`
 * started stops the service (its script `exec`s node, so npm's forwarded signal
 * reaches the service itself, not a shell in between), frees the port, and
 * leaves no node process behind. A real npm, a real service, a real port.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { REPO_ROOT } from './helpers/child-server.js';
import { freePort } from './helpers/private-postgres.js';

/** Pids of the live processes whose parent is `pid` (from /proc). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        // Fields after the parenthesised command: state, then the parent's pid.
        const [state, ppid] = readFileSync(`/proc/${name}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
        return Number(ppid) === pid && state !== 'Z' ? [Number(name)] : [];
      } catch {
        return []; // the process ended while being read
      }
    });
}

/** `pid`'s children, their children, and so on. */
function descendantsOf(pid: number): number[] {
  return childrenOf(pid).flatMap((child) => [child, ...descendantsOf(child)]);
}

function alive(pid: number): boolean {
  if (!existsSync(`/proc/${pid}`)) return false;
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ')[0] !== 'Z';
  } catch {
    return false;
  }
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Resolves once `output()` matches, or rejects when the process exits first. */
function waitFor(child: ChildProcess, output: () => string, pattern: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (pattern.test(output())) {
        cleanup();
        resolve();
      }
    };
    const exited = () => {
      cleanup();
      reject(new Error(`npm start exited before ${pattern}: ${output()}`));
    };
    const cleanup = () => {
      child.stdout?.off('data', check);
      child.off('exit', exited);
    };
    child.stdout?.on('data', check);
    child.once('exit', exited);
    check();
  });
}

describe('npm start', () => {
  const started: number[] = [];
  const pipes: NodeJS.ReadableStream[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'user-service-npm-start-'));
  after(() => {
    // Whatever a failed assertion left running: this test's processes only, by pid.
    for (const pid of started) if (alive(pid)) process.kill(pid, 'SIGKILL');
    // A process that outlived npm would hold these open and keep the test running.
    for (const pipe of pipes) (pipe as unknown as { destroy(): void }).destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('SIGTERM to the npm process stops the service: the port is freed and no node process survives', async () => {
    const port = await freePort();
    const npm = spawn('npm', ['start'], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dir, PORT: String(port), DATABASE_URL: `sqlite:${join(dir, 'users.db')}`, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(npm.pid!);
    pipes.push(npm.stdout, npm.stderr);
    let output = '';
    npm.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    npm.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => npm.once('exit', (code, signal) => resolve({ code, signal })));

    await waitFor(npm, () => output, /Server listening at/);
    started.push(...descendantsOf(npm.pid!));
    const service = childrenOf(npm.pid!);
    assert.equal(service.length, 1, `npm start runs one process, the service: ${output}`);
    assert.match(readFileSync(`/proc/${service[0]}/cmdline`, 'utf8'), /node\0.*dist\/bundle\/server\.mjs/, 'the process is node itself, not a shell');
    assert.equal(await portIsFree(port), false, 'the service listens');

    npm.kill('SIGTERM');
    await exit;
    assert.equal(alive(service[0]!), false, `the service (pid ${service[0]}) still runs: ${output}`);
    assert.deepEqual(childrenOf(npm.pid!), []);
    assert.equal(await portIsFree(port), true, 'the port is free');
    assert.match(output, /stopping: finishing requests in flight/, 'the service stopped gracefully');
  });
});
