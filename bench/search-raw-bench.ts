/**
 * Search against the stack's limit (issue 35, point 3). On a SQLite directory of BENCH_USERS
 * seeded people (default 50,000 here), wrk (1 thread, BENCH_WRK_CONNECTIONS connections,
 * default 50) sends `GET /users?q=<3–4 letter family-name prefix>&limit=20` (surname-prefixes.ts,
 * the same file of paths to both) to the service as `npm start` runs it (the bundle, production
 * defaults, API-key authentication on) and to the raw search server
 * (bench/baselines/raw-search-server.ts: node:http + better-sqlite3, the same word index and
 * database file), in alternating rounds of one run; it prints each side's requests/s, p99 and
 * server CPU µs per request (all threads of the process), and the ratio.
 *
 *   npm run bench:search-raw     (BENCH_USERS, BENCH_DURATION_S, BENCH_ROUNDS, BENCH_WARMUP_S, BENCH_WRK_CONNECTIONS as for npm run bench)
 *
 * BENCH_SEARCH_RAW_DB=<file> measures on a database seeded before (kept with BENCH_SEARCH_RAW_KEEP=1: the run prints where).
 * BENCH_SEARCH_RAW_BEFORE=<folder> also measures the bundle of another build (the folder holding its dist/bundle, e.g. a
 * worktree of an earlier commit, built) against the same raw server in the same run, after this build's rounds: a change
 * is kept when it moves the ratio.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { loadBenchOptions } from './bench-options.js';
import type { Measurement } from './load.js';
import { freePort, killAll, startServer, type RunningServer } from './processes.js';
import { median } from './results.js';
import { seededDatabase } from './seeded-database.js';
import { makeCredentials, startService, type Database } from './servers.js';
import type { StoreRunContext } from './store-run.js';
import { SURNAME_SHAPE } from './surname-prefixes.js';
import { alternateWrk } from './wrk-run.js';

process.env.BENCH_USERS ||= '50000';
const options = loadBenchOptions(process.cwd());
const reuse = process.env.BENCH_SEARCH_RAW_DB;
const keep = process.env.BENCH_SEARCH_RAW_KEEP === '1';
const before = process.env.BENCH_SEARCH_RAW_BEFORE;

function startRawSearch(runDir: string, db: Database): Promise<RunningServer> {
  return freePort().then((port) =>
    startServer(
      {
        name: 'raw-search',
        args: [join(options.root, 'dist/bench/baselines/raw-search-server.js')],
        env: { DATABASE: db.location },
        cwd: runDir,
        logPath: join(runDir, 'raw-search.log'),
        readyPath: '/readyz',
      },
      port,
    ),
  );
}

/** Medians over the rounds: one round in a few is taken by another program's burst on a shared machine. */
const medianOf = (rounds: readonly Measurement[], of: (m: Measurement) => number) => median(rounds.map(of));
const rps = (rounds: readonly Measurement[]) => medianOf(rounds, (m) => m.rps);
const p99 = (rounds: readonly Measurement[]) => medianOf(rounds, (m) => m.p99);
const cpuUs = (rounds: readonly Measurement[]) => medianOf(rounds, (m) => (m.rps === 0 ? 0 : (m.serverCpu / m.rps) * 1e6));

mkdirSync(options.outDir, { recursive: true });
const runDir = mkdtempSync(join(options.outDir, 'search-raw-'));
try {
  const db: Database = reuse ? { store: 'sqlite', location: reuse } : await seededDatabase(options, 'sqlite', runDir, 'search-raw');
  const credentials = makeCredentials(runDir);
  const context: StoreRunContext = { options, runDir, credentials, cleanups: [] };
  const file = join(runDir, 'wrk-search-raw.paths');
  const paths = SURNAME_SHAPE.paths(options.users);
  writeFileSync(file, paths.map((path) => `${path}\n`).join(''));
  const load = loadavg().map((n) => n.toFixed(2)).join(', ');
  const raw = await startRawSearch(runDir, db);
  const builds = [{ name: 'this build', root: options.root }, ...(before ? [{ name: `the build in ${before}`, root: before }] : [])];
  const rows: string[] = [];
  try {
    for (const build of builds) {
      const service = await startService({ ...options, root: build.root }, runDir, db, credentials, { name: 'service-sqlite' });
      try {
        const { rounds } = await alternateWrk(service, raw, { file, count: paths.length }, `[sqlite] q=<surname prefix>, ${build.name}`, 'sqlite', context);
        const [s, b] = [rounds.service, rounds.baseline];
        rows.push(`| ${build.name} | ${Math.round(rps(s)).toLocaleString('en')} | ${Math.round(rps(b)).toLocaleString('en')} | **${(rps(s) / rps(b)).toFixed(2)}** | ${p99(s).toFixed(1)} | ${p99(b).toFixed(1)} | ${Math.round(cpuUs(s)).toLocaleString('en')} | ${Math.round(cpuUs(b)).toLocaleString('en')} |`);
      } finally {
        await service.stop();
      }
    }
  } finally {
    await raw.stop();
  }
  console.log(`\n${options.users.toLocaleString('en')} users, ${SURNAME_SHAPE.title}, wrk -t1 -c${options.wrkConnections}, ${options.rounds} rounds of ${options.durationS} s per side after ${options.warmupS} s warm-ups, alternating; load average at the start ${load}, at the end ${loadavg().map((n) => n.toFixed(2)).join(', ')}; medians of the rounds:\n`);
  console.log('| service | service req/s | raw req/s | ratio | service p99 ms | raw p99 ms | service CPU µs/req | raw CPU µs/req |');
  console.log('|---|--:|--:|--:|--:|--:|--:|--:|');
  console.log(rows.join('\n'));
  if (keep && !reuse) console.log(`\nkept ${db.location}`);
} catch (error) {
  killAll();
  throw error;
} finally {
  if (!keep) rmSync(runDir, { recursive: true, force: true });
}
