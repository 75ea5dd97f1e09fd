/** Runs the built CLI (`dist/src/cli/main.js`) as a real process. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../helpers/child-server.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface StartedCli {
  child: ReturnType<typeof spawn>;
  /** What the process has written so far. */
  output(): { stdout: string; stderr: string };
  /** Resolves when it has exited and its output is read (rejects when it could not be started). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts the built CLI and leaves it running: for a test that signals it or feeds its input. */
export function startCli(args: string[], env: Record<string, string> = {}): StartedCli {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'dist', 'src', 'cli', 'main.js'), ...args], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal }));
  });
  return { child, output: () => ({ stdout, stderr }), exited };
}

/** Runs the CLI to its end (killed after `timeoutMs`): its exit code and output. */
export async function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 120_000): Promise<CliResult> {
  const started = startCli(args, env);
  const timer = setTimeout(() => started.child.kill('SIGKILL'), timeoutMs);
  try {
    const { code } = await started.exited;
    return { code, ...started.output() };
  } finally {
    clearTimeout(timer);
  }
}
