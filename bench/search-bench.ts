/**
 * `node dist/bench/search-bench.js` (after `npm run build`): the search of GET /users on a directory of BENCH_USERS
 * seeded people (seed-names.ts), one store after the other. For each shape of
 * search-shapes.ts, against one service process as production runs it:
 *
 * 1. what it finds: its Total-Count (count=true) and the size of its first page;
 * 2. latency at one connection: BENCH_SEARCH_REQUESTS (default 1,000) requests one
 *    after the other after 50 unmeasured ones (one-connection.ts), p50 and p99, for at
 *    most BENCH_SEARCH_SECONDS (default 60) per shape;
 * 3. throughput at BENCH_WRK_CONNECTIONS (50) connections with wrk, in rounds that
 *    alternate with the lookup by key (GET /users/username:… of random users) on the
 *    same process, BENCH_DURATION_S per round, BENCH_ROUNDS rounds each after a
 *    BENCH_WARMUP_S warm-up (alternate.ts): the ratio is the shape's req/s over the
 *    lookup's in the same rounds.
 *
 *   BENCH_USERS=1000000 node dist/bench/search-bench.js   (after npm run build; BENCH_STORES, BENCH_SEARCH_SHAPES=q-rare,count-broad to select;
 *                                                  BENCH_SEARCH_KEEP=1 keeps the databases and prints where they are;
 *                                                  BENCH_SEARCH_SQLITE=FILE, BENCH_SEARCH_POSTGRES=URL measure such a kept
 *                                                  database again instead of seeding one)
 *
 * It writes bench/.out/<run>/search-results.json and search-report.md, and the
 * section "Search at N users" of docs/performance.md (BENCH_DOCS=0: not).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { alternateWith } from './alternate.js';
import { loadBenchOptions, type StoreKind } from './bench-options.js';
import { writeSearchDocs } from './docs-writer.js';
import { describeMachine, loadAverage } from './machine.js';
import { fetchOnce, measureOneConnection } from './one-connection.js';
import { forEachStore } from './paired-services.js';
import { createScratchDatabase } from './postgres-database.js';
import { killAll, type RunningServer } from './processes.js';
import { renderSearchReport, type SearchRun, type SearchStoreResult } from './search-report.js';
import { LOOKUP, SEARCH_SHAPES, type SearchShape } from './search-shapes.js';
import { seedPostgres } from './seed-postgres.js';
import { seedSqlite } from './seed-sqlite.js';
import { makeCredentials, startService, type Database } from './servers.js';
import { findWrk, runWrk, wrkSeconds, WRK_THREADS } from './wrk-load.js';

const options = loadBenchOptions(process.cwd());
const requests = Number(process.env.BENCH_SEARCH_REQUESTS ?? 1000);
/** Most seconds the one-connection requests of a shape may take (BENCH_SEARCH_SECONDS). */
const maxSeconds = Number(process.env.BENCH_SEARCH_SECONDS ?? 60);
const keep = process.env.BENCH_SEARCH_KEEP === '1';
const shapeFilter = (process.env.BENCH_SEARCH_SHAPES ?? '').split(',').filter((s) => s !== '');
const shapes = SEARCH_SHAPES.filter((shape) => shapeFilter.length === 0 || shapeFilter.includes(shape.name));
const WARMUP_REQUESTS = 50;
/** Pause after each wrk round: the service's load shedding looks at the event-loop delay of the last second. */
const SETTLE_MS = 1500;
/** A database seeded by an earlier run with BENCH_SEARCH_KEEP=1, to measure again without seeding. */
const reuse: Partial<Record<StoreKind, string>> = { sqlite: process.env.BENCH_SEARCH_SQLITE || undefined, postgres: process.env.BENCH_SEARCH_POSTGRES || undefined };

findWrk();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killAll();
    process.exit(130);
  });
}
const startedAt = new Date();
const runDir = join(options.outDir, `search-${startedAt.toISOString().replace(/[:.]/g, '-')}`);
mkdirSync(runDir, { recursive: true });
const credentials = makeCredentials(runDir);
const { headers } = credentials;
const machine = describeMachine(options.root, runDir);
const loadBefore = loadAverage();
const stores: SearchStoreResult[] = [];

function writePaths(name: string, paths: readonly string[]): string {
  const file = join(runDir, `wrk-${name}.paths`);
  writeFileSync(file, `${paths.join('\n')}\n`);
  return file;
}

/** Two names for one process, so alternate.ts can tell the shape's rounds from the lookup's. */
const side = (server: RunningServer, name: string): RunningServer => ({ ...server, name });

async function seeded(store: StoreKind): Promise<Database> {
  const kept = reuse[store];
  if (kept !== undefined) {
    console.log(`[${store}] reusing ${kept}, seeded with BENCH_USERS=${options.users} by an earlier run`);
    return { store, location: kept };
  }
  console.log(`[${store}] seeding ${options.users.toLocaleString('en')} users`);
  let db: Database;
  let seed;
  if (store === 'sqlite') {
    db = { store, location: join(runDir, `sqlite-${options.users}.db`) };
    seed = seedSqlite(db.location, options.users);
  } else {
    const scratch = await createScratchDatabase(options.postgresUrl, `search_${options.users}`);
    db = { store, location: scratch.url };
    if (!keep) cleanups.push(() => scratch.drop());
    seed = await seedPostgres(scratch.url, options.users);
  }
  const phases = Object.entries(seed.phases).map(([name, s]) => `${name} ${s.toFixed(1)} s`).join(', ');
  console.log(`[${store}] seeded in ${seed.seconds.toFixed(1)} s (${seed.usersPerSecond.toFixed(0)} users/s; ${phases})`);
  seeds.set(store, seed);
  return db;
}

const cleanups: (() => Promise<void>)[] = [];
const seeds = new Map<StoreKind, Awaited<ReturnType<typeof seedPostgres>>>();

async function measureShape(store: StoreKind, service: RunningServer, lookupFile: string, shape: SearchShape) {
  const paths = shape.paths(options.users);
  // What the shape finds: the count (a separate request, so the measured ones stay as the shape asks).
  const first = paths[0] as string;
  const counted = await fetchOnce(service, first.includes('count=true') ? first : `${first}&count=true`, headers);
  if (counted.status !== 200) throw new Error(`${shape.name}: GET ${first} answered ${counted.status}: ${counted.body.slice(0, 300)}`);
  const matches = String(counted.headers['total-count'] ?? '?');
  const pageSize = (JSON.parse(counted.body) as unknown[]).length;
  console.log(`[${store}] ${shape.name}: Total-Count ${matches}, first page ${pageSize} users`);
  const one = await measureOneConnection(service, paths, headers, requests, WARMUP_REQUESTS, maxSeconds);
  console.log(`[${store}] ${shape.name}: one connection, ${one.requests} answered 200: p50 ${one.p50.toFixed(2)} ms, p99 ${one.p99.toFixed(2)} ms, max ${one.max.toFixed(1)} ms, ${one.cpuUsPerRequest.toFixed(0)} CPU µs/req; others ${JSON.stringify(one.failures)}`);
  const shapeFile = writePaths(`${store}-${shape.name}`, paths);
  const shapeSide = side(service, shape.name);
  const lookupSide = side(service, LOOKUP.name);
  const spec = { script: join(options.root, 'bench/wrk/reads.lua'), connections: options.wrkConnections, headers, logPath: join(runDir, `wrk-${store}.log`), cwd: runDir };
  const wrk = await alternateWith(shapeSide, lookupSide, async (server, durationS) => {
    const measured = await runWrk(service, { ...spec, pathsFile: server === shapeSide ? shapeFile : lookupFile, durationS });
    // The requests wrk left in flight are still being answered: the next round starts once they
    // are, and once the event-loop delay of the last second (what load shedding looks at) is past.
    await fetchOnce(service, '/readyz', {});
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    return measured;
  }, {
    options,
    label: `[${store}] ${shape.name} (wrk)`,
  });
  return { name: shape.name, title: shape.title, path: first, matches, pageSize, one, wrk };
}

async function runStore(store: StoreKind): Promise<void> {
  const db = await seeded(store);
  if (keep) console.log(`[${store}] BENCH_SEARCH_KEEP=1: the database stays at ${db.location}`);
  const service = await startService(options, runDir, db, credentials, { name: `${store}-search-service` });
  try {
    const lookupPaths = LOOKUP.paths(options.users);
    const lookupFile = writePaths(`${store}-${LOOKUP.name}`, lookupPaths);
    const lookupOne = await measureOneConnection(service, lookupPaths, headers, requests, WARMUP_REQUESTS, maxSeconds);
    console.log(`[${store}] ${LOOKUP.name}: one connection p50 ${lookupOne.p50.toFixed(2)} ms, p99 ${lookupOne.p99.toFixed(2)} ms`);
    const results = [];
    for (const shape of shapes) results.push(await measureShape(store, service, lookupFile, shape));
    stores.push({ store, users: options.users, seed: seeds.get(store), lookupOne, shapes: results, peakRssMB: service.peakRssBytes() / 2 ** 20 });
  } finally {
    await service.stop();
    if (store === 'sqlite' && !keep && reuse.sqlite === undefined) for (const end of ['', '-wal', '-shm']) rmSync(`${db.location}${end}`, { force: true });
  }
}

try {
  await forEachStore(options, runStore);
} finally {
  await Promise.allSettled(cleanups.map((cleanup) => cleanup()));
}
const settings = Object.entries(process.env).filter(([name]) => name.startsWith('BENCH_')).sort(([a], [b]) => a.localeCompare(b)).map(([name, value]) => `${name}=${value}`);
const run: SearchRun = {
  startedAt: startedAt.toISOString(), command: [...settings, 'node dist/bench/search-bench.js'].join(' '), machine, loadBefore, loadAfter: loadAverage(),
  seconds: (Date.now() - startedAt.getTime()) / 1000, requests, maxSeconds, warmupRequests: WARMUP_REQUESTS,
  wrk: { threads: WRK_THREADS, connections: options.wrkConnections, durationS: wrkSeconds(options.durationS), rounds: options.rounds, warmupS: options.warmupS }, stores,
};
const markdown = renderSearchReport(run);
writeFileSync(join(runDir, 'search-results.json'), JSON.stringify(run, null, 2));
writeFileSync(join(runDir, 'search-report.md'), markdown);
if (options.writeDocs) writeSearchDocs(options.root, options.users, markdown);
console.log(`\n${markdown}\nresults: ${join(runDir, 'search-results.json')}${options.writeDocs ? '; docs/performance.md written' : ''}`);
