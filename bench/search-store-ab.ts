/**
 * Each shape of search-shapes.ts asked of the stores directly, as the service asks them (the
 * page of limit + 1 users a walk of at most WALK_LIMIT users fills, and with count=true the
 * bounded count beside it), round by round in turn: the SQLite store, this build's PostgreSQL
 * store and, with BENCH_BEFORE=DIR (another worktree, built), that build's PostgreSQL store,
 * on the same databases. On a machine shared with other work the load moves between two runs
 * of search-bench.ts more than a change to the search does; turns of one request each keep the
 * arms under the same load. It leaves out what the service adds (HTTP, authentication, the
 * exact-match lookups of `q`), the same for every arm.
 *
 *   npm run build && BENCH_USERS=200000 [BENCH_BEFORE=/tmp/before] [BENCH_SEARCH_REQUESTS=300] \
 *     node dist/bench/search-store-ab.js SQLITE_FILE POSTGRES_URL [SHAPE …]
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SearchPage, UserStore } from '../src/store/user-store.js';
import { openPostgresUserStore } from '../src/store/postgres/postgres-user-store.js';
import { openSqliteUserStore } from '../src/store/sqlite/sqlite-user-store.js';
import { parseSearch, WALK_LIMIT } from '../src/users/user-search.js';
import { COUNT_BOUND, SEARCH_LIMIT_DEFAULT, type SearchQuery } from '../src/users/user-schemas.js';
import { loadBenchOptions } from './bench-options.js';
import { loadAverage } from './machine.js';
import { SEARCH_SHAPES } from './search-shapes.js';

const options = loadBenchOptions(process.cwd());
const [sqlitePath, postgresUrl, ...names] = process.argv.slice(2);
if (!sqlitePath || !postgresUrl) throw new Error('usage: node dist/bench/search-store-ab.js SQLITE_FILE POSTGRES_URL [SHAPE …]');
const requests = Number(process.env.BENCH_SEARCH_REQUESTS ?? 300);
const WARMUP = 20;
const shapes = SEARCH_SHAPES.filter((shape) => names.length === 0 || names.includes(shape.name));

/** What the service asks the store for a request path. */
function requestOf(path: string): { page: SearchPage; count: boolean } {
  const query = Object.fromEntries(new URL(path, 'http://x').searchParams) as SearchQuery;
  const { filter, sort } = parseSearch(query);
  const limit = query.limit === undefined ? SEARCH_LIMIT_DEFAULT : Number(query.limit);
  return { page: { filter, sort, limit: limit + 1, walkLimit: WALK_LIMIT }, count: query.count === 'true' };
}

interface Arm {
  name: string;
  store: UserStore;
  times: number[];
}

const arms: Arm[] = [
  { name: 'SQLite', store: openSqliteUserStore({ path: sqlitePath }), times: [] },
  { name: 'PostgreSQL (this build)', store: await openPostgresUserStore({ url: postgresUrl }), times: [] },
];
const before = process.env.BENCH_BEFORE;
if (before) {
  const module = (await import(pathToFileURL(join(resolve(before), 'dist/src/store/postgres/postgres-user-store.js')).href)) as { openPostgresUserStore: typeof openPostgresUserStore };
  arms.push({ name: `PostgreSQL (${before})`, store: await module.openPostgresUserStore({ url: postgresUrl }), times: [] });
}

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))] as number;

console.log(`load average (1 min) ${loadAverage().toFixed(2)}; ${options.users} users; ${requests} turns per shape after ${WARMUP}`);
console.log(`\n| shape | ${arms.map((arm) => `${arm.name} p50 ms | p99 ms`).join(' | ')} | ${arms.slice(1).map((arm) => `${arm.name} p50 ÷ SQLite`).join(' | ')} |`);
console.log(`|---|${arms.map(() => '--:|--:').join('|')}|${arms.slice(1).map(() => '--:').join('|')}|`);
try {
  for (const shape of shapes) {
    const { page, count } = requestOf(shape.paths(options.users)[0] as string);
    for (const arm of arms) arm.times = [];
    for (let turn = 0; turn < WARMUP + requests; turn++) {
      // Each turn in another order, so no arm always follows the same one.
      for (const arm of turn % 2 === 0 ? arms : [...arms].reverse()) {
        const started = process.hrtime.bigint();
        await Promise.all([arm.store.search(page), count ? arm.store.countMatches(page.filter, COUNT_BOUND) : undefined]);
        if (turn >= WARMUP) arm.times.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
    }
    const sqliteP50 = quantile((arms[0] as Arm).times, 0.5);
    const cells = arms.map((arm) => `${quantile(arm.times, 0.5).toFixed(2)} | ${quantile(arm.times, 0.99).toFixed(2)}`);
    const ratios = arms.slice(1).map((arm) => `**${(quantile(arm.times, 0.5) / sqliteP50).toFixed(2)}**`);
    console.log(`| ${shape.name} | ${cells.join(' | ')} | ${ratios.join(' | ')} |`);
  }
} finally {
  for (const arm of arms) await arm.store.close();
}
console.log(`\nload average (1 min) ${loadAverage().toFixed(2)}`);
