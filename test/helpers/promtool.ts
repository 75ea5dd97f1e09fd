/**
 * Prometheus's own linter, `promtool check metrics` (Debian's `prometheus` package).
 * Missing promtool skips the tests that need it with the reason, except in CI, where
 * it is an error (.ci/run installs the package).
 */
import { execFileSync } from 'node:child_process';
import { runProcess, type ProcessResult } from './run-process.js';

function promtoolPath(): string | undefined {
  try {
    return execFileSync('sh', ['-c', 'command -v promtool'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

const PROMTOOL = promtoolPath();

export const promtoolSkip = PROMTOOL === undefined ? 'promtool is not installed (apt-get install prometheus)' : undefined;
if (promtoolSkip && process.env.CI === 'true') throw new Error(`CI requires promtool: ${promtoolSkip}`);

/** `promtool check metrics` on an exposition: exit code 0 and no output when it lints clean. */
export function checkMetrics(exposition: string): Promise<ProcessResult> {
  return promtool(['check', 'metrics'], process.cwd(), exposition);
}

/** promtool with `args`, run in `cwd` (where the files it names are). */
export function promtool(args: string[], cwd: string, input?: string): Promise<ProcessResult> {
  return runProcess(PROMTOOL ?? 'promtool', args, { cwd, env: { PATH: process.env.PATH }, input });
}
