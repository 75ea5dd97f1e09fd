/**
 * Search against the stack's limit (issue 35, point 3). On a SQLite directory of BENCH_USERS
 * seeded people (default 50,000 here), wrk (1 thread, BENCH_WRK_CONNECTIONS connections,
 * default 50) sends `GET /users?q=<3–4 letter family-name prefix>&limit=20` (surname-prefixes.ts,
 * the same file of paths to both) to the service as `npm start` runs it (the bundle, production
 * defaults, API-key authentication on) and to the raw search server
 * (bench/baselines/raw-search-server.ts: node:http + better-sqlite3, the same word index and
 * database file), in alternating rounds of one run (each service round followed by a raw round); it prints each side's requests/s, p99 and
 * server CPU µs per request (all threads of the process), and the ratio.
 *
 *   npm run bench:search-raw     (BENCH_USERS, BENCH_DURATION_S, BENCH_ROUNDS, BENCH_WARMUP_S, BENCH_WRK_CONNECTIONS as for npm run bench)
 *
 * BENCH_SEARCH_RAW_DB=<file> measures on a database seeded before (kept with BENCH_SEARCH_RAW_KEEP=1: the run prints where).
 * BENCH_SEARCH_RAW_BEFORE=<folder> also measures the bundle of another build (the folder holding its dist/bundle, e.g. a
 * worktree of an earlier commit, built) against the same raw server in the same run, the builds taking turns within each
 * round (this build, raw, the other build, raw): a change is kept when it moves the ratio.
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
import { SURNAME_SHAPE } from './surname-prefixes.js';
import { runWrk } from './wrk-load.js';

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
  const file = join(runDir, 'wrk-search-raw.paths');
  const paths = SURNAME_SHAPE.paths(options.users);
  writeFileSync(file, paths.map((path) => `${path}\n`).join(''));
  const load = loadavg().map((n) => n.toFixed(2)).join(', ');
  const raw = await startRawSearch(runDir, db);
  const builds = [{ name: 'this build', root: options.root }, ...(before ? [{ name: `the build in ${before}`, root: before }] : [])];
  const rows: string[] = [];
  const services: RunningServer[] = [];
  try {
    for (const [i, build] of builds.entries()) services.push(await startService({ ...options, root: build.root }, runDir, db, credentials, { name: `service-sqlite-${i}` }));
    // Each round measures every build, each followed by the raw server, so a change of load on the shared machine
    // falls on every build alike (round by round, not half by half); each build's ratio is against its own raw rounds.
    const spec = { script: join(options.root, 'bench/wrk/reads.lua'), pathsFile: file, connections: options.wrkConnections, headers: credentials.headers, logPath: join(runDir, 'wrk-sqlite.log'), cwd: runDir };
    const measure = (server: RunningServer, durationS: number) => runWrk(server, { ...spec, durationS });
    if (options.warmupS > 0) for (const server of [...services, raw]) await measure(server, options.warmupS);
    const rounds = builds.map(() => ({ service: [] as Measurement[], raw: [] as Measurement[] }));
    for (let round = 0; round < options.rounds; round++) {
      for (const [i, service] of services.entries()) {
        const side = rounds[i] as (typeof rounds)[number];
        side.service.push(await measure(service, options.durationS));
        side.raw.push(await measure(raw, options.durationS));
        const [s, b] = [side.service.at(-1) as Measurement, side.raw.at(-1) as Measurement];
        console.log(`  round ${round + 1}, ${(builds[i] as (typeof builds)[number]).name}: service ${s.rps.toFixed(0)} /s (p99 ${s.p99.toFixed(1)} ms, cpu ${s.serverCpu.toFixed(2)}), raw ${b.rps.toFixed(0)} /s (p99 ${b.p99.toFixed(1)} ms, cpu ${b.serverCpu.toFixed(2)}), ratio ${(s.rps / b.rps).toFixed(2)}`);
      }
    }
    for (const [i, build] of builds.entries()) {
      const { service: s, raw: b } = rounds[i] as (typeof rounds)[number];
      rows.push(`| ${build.name} | ${Math.round(rps(s)).toLocaleString('en')} | ${Math.round(rps(b)).toLocaleString('en')} | **${(rps(s) / rps(b)).toFixed(2)}** | ${p99(s).toFixed(1)} | ${p99(b).toFixed(1)} | ${Math.round(cpuUs(s)).toLocaleString('en')} | ${Math.round(cpuUs(b)).toLocaleString('en')} |`);
    }
  } finally {
    for (const service of services) await service.stop();
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
