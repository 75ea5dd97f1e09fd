/**
 * What a snapshot costs (docs/performance.md, "Backups"; the targets of docs/deployment.md):
 *
 * 1. A SQLite store of BENCH_BACKUP_USERS users, loaded with `user-service import`.
 * 2. The service on it, taking creates at BENCH_BACKUP_RATE per second (an open-loop load,
 *    paced-load.ts) in windows of BENCH_BACKUP_WINDOW_S, BENCH_BACKUP_ROUNDS times each way,
 *    alternating: with nothing else running, while `user-service backup` runs again and
 *    again, and with the service's own scheduled snapshots every second (BACKUP_DIR): the
 *    creates' p50 and p99 in each window, and the medians of the p99s.
 * 3. The snapshot's duration against a copy of the same file (copyFile, then fsync) on the
 *    same disk, with the service idle; then `restore` and `verify` of that snapshot.
 *
 *   npm run bench:backup   (BENCH_BACKUP_USERS, default 100000; BENCH_BACKUP_RATE, default 200;
 *                           BENCH_BACKUP_WINDOW_S, default 20; BENCH_BACKUP_ROUNDS, default 3)
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fsyncPath } from '../src/store/snapshot-files.js';
import { pacedLoad, type PacedResult } from './paced-load.js';
import { freePort, killAll, runNode, startServer } from './processes.js';

const USERS = Number(process.env.BENCH_BACKUP_USERS ?? 100_000);
const RATE = Number(process.env.BENCH_BACKUP_RATE ?? 200);
const WINDOW_S = Number(process.env.BENCH_BACKUP_WINDOW_S ?? 20);
const ROUNDS = Number(process.env.BENCH_BACKUP_ROUNDS ?? 3);
const ROOT = process.cwd();
const CLI = join(ROOT, 'dist/src/cli/main.js');

const dir = mkdtempSync(join(tmpdir(), 'bench-backup-'));
const live = join(dir, 'live.db');
const env = { PATH: process.env.PATH ?? '', DATABASE_URL: `sqlite:${live}`, LOG_LEVEL: 'warn' };

/** Runs a CLI command to its end; throws on a non-zero exit. Returns its seconds. */
async function cli(args: string[], log: string): Promise<number> {
  const run = await runNode([CLI, ...args], env, dir, join(dir, log));
  if (run.code !== 0) throw new Error(`user-service ${args[0]} exited ${run.code}: see ${join(dir, log)}`);
  return run.seconds;
}

const seconds = (since: number) => (performance.now() - since) / 1000;
const ms = (result: PacedResult) => `p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms (${result.ok} created, ${result.failed} failed)`;

try {
  const seed = join(dir, 'seed.jsonl');
  writeFileSync(
    seed,
    Array.from({ length: USERS }, (_, i) => `${JSON.stringify({ username: `user${i}`, email_address: `user${i}@example.com`, display_name: `User ${i}`, legacy_ids: [`crm:${i}`], attributes: { team: `t${i % 50}` } })}\n`).join(''),
  );
  const imported = await cli(['import', seed], 'import.log');
  console.log(`seeded ${USERS.toLocaleString('en')} users with user-service import in ${imported.toFixed(1)} s`);

  const scheduled = join(dir, 'scheduled');
  mkdirSync(scheduled);
  /** The service as npm start runs it; with `schedule`, snapshotting into `scheduled` every second. */
  const startService = async (schedule: boolean) =>
    startServer(
      {
        name: 'service',
        args: [join(ROOT, 'dist/bundle/server.mjs')],
        env: { ...env, HOST: '127.0.0.1', OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0', ...(schedule ? { BACKUP_DIR: scheduled, BACKUP_INTERVAL_S: '1', BACKUP_KEEP: '2' } : {}) },
        cwd: dir,
        logPath: join(dir, 'service.log'),
        readyPath: '/readyz',
      },
      await freePort(),
    );
  let server = await startService(false);
  let n = 0;
  const creates = () =>
    pacedLoad({
      baseUrl: server.baseUrl,
      headers: {},
      rate: RATE,
      durationS: WINDOW_S,
      connections: 16,
      request: () => {
        const i = n++;
        return { method: 'POST', path: '/users', body: JSON.stringify({ username: `bench${i}`, email_address: `bench${i}@example.com` }) };
      },
    });
  // Windows alternate, so a machine that gets busier or quieter meanwhile disturbs both sides alike.
  const p99 = { quiet: [] as number[], during: [] as number[], scheduled: [] as number[] };
  for (let round = 1; round <= ROUNDS; round++) {
    const quiet = await creates();
    p99.quiet.push(quiet.p99);
    console.log(`round ${round}: creates at ${RATE}/s, no backup: ${ms(quiet)}`);
    let loading = true;
    const during = creates().finally(() => (loading = false));
    let runs = 0;
    for (; loading; runs++) await cli(['backup', '--to', join(dir, `during-${round}-${runs}.db`)], 'backup-during.log');
    const result = await during;
    p99.during.push(result.p99);
    console.log(`round ${round}: creates at ${RATE}/s, during ${runs} backups back to back: ${ms(result)}`);
    for (let i = 0; i < runs; i++) {
      for (const suffix of ['', '.manifest.json']) rmSync(join(dir, `during-${round}-${i}.db${suffix}`), { force: true });
    }
    await server.stop();
    server = await startService(true);
    const inService = await creates();
    p99.scheduled.push(inService.p99);
    console.log(`round ${round}: creates at ${RATE}/s, with the service's own snapshots every second (BACKUP_INTERVAL_S=1): ${ms(inService)}`);
    await server.stop();
    server = await startService(false);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const rise = (values: number[]) => (median(values) - median(p99.quiet)).toFixed(1);
  console.log(
    `creates' p99, median of ${ROUNDS} rounds: ${median(p99.quiet).toFixed(1)} ms without a backup, ${median(p99.during).toFixed(1)} ms during user-service backup (${rise(p99.during)} ms), ` +
      `${median(p99.scheduled).toFixed(1)} ms with scheduled snapshots (${rise(p99.scheduled)} ms)`,
  );
  await server.stop();

  const size = statSync(live).size;
  let since = performance.now();
  copyFileSync(live, join(dir, 'copy.db'));
  fsyncPath(join(dir, 'copy.db'));
  const copy = seconds(since);
  since = performance.now();
  const snapshot = join(dir, 'idle.db');
  await cli(['backup', '--to', snapshot], 'backup.log');
  const backup = seconds(since);
  const manifest = JSON.parse(readFileSync(`${snapshot}.manifest.json`, 'utf8')) as { started_at: string; finished_at: string };
  const copying = (Date.parse(manifest.finished_at) - Date.parse(manifest.started_at)) / 1000;
  console.log(
    `store file ${(size / 2 ** 20).toFixed(0)} MiB: file copy + fsync ${copy.toFixed(2)} s; user-service backup ${backup.toFixed(2)} s as a process (${(backup / copy).toFixed(2)}x the copy), ` +
      `of which ${copying.toFixed(2)} s from its read to its manifest (copy, sync, SHA-256: ${(copying / copy).toFixed(2)}x)`,
  );
  const restore = await cli(['restore', snapshot, '--to', join(dir, 'restored.db')], 'restore.log');
  const verify = await cli(['verify', snapshot], 'verify.log');
  console.log(`user-service restore ${restore.toFixed(1)} s; user-service verify ${verify.toFixed(1)} s`);
} finally {
  killAll();
  rmSync(dir, { recursive: true, force: true });
}
