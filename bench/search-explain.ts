/**
 * The SQL a search shape (search-shapes.ts) sends, with its plan and time, on a database
 * seeded by search-bench.ts (BENCH_SEARCH_KEEP=1 keeps it): the shape's query parsed as
 * the service parses it (src/users/user-search.ts parseSearch), then the store's own
 * search module (sqlite-search.ts / postgres-search.ts) asked for the page the service
 * asks for (limit + 1 rows) and, with count=true, the bounded count; each statement it
 * sends is captured and shown with EXPLAIN QUERY PLAN (SQLite) or EXPLAIN (ANALYZE,
 * BUFFERS) (PostgreSQL), and timed over 20 runs (3 when one takes over 200 ms).
 *
 *   npm run build && BENCH_USERS=1000000 node dist/bench/search-explain.js DATABASE [SHAPE …]
 *
 * DATABASE: a SQLite file or a postgres:// URL; BENCH_USERS: the users it was seeded with.
 */
import postgres from 'postgres';
import Database from '../src/store/sqlite/sqlite-driver.js';
import { postgresSearch } from '../src/store/postgres/postgres-search.js';
import { sqliteSearch } from '../src/store/sqlite/sqlite-search.js';
import { connectionReads, type SqlReads } from '../src/store/sqlite/sqlite-reads.js';
import { LATEST_POSITION_SQL } from '../src/store/sqlite/sqlite-event-log.js';
import type { SearchPage } from '../src/store/user-store.js';
import { parseSearch, WALK_LIMIT } from '../src/users/user-search.js';
import { COUNT_BOUND, SEARCH_LIMIT_DEFAULT, type SearchQuery } from '../src/users/user-schemas.js';
import { loadBenchOptions } from './bench-options.js';
import { SEARCH_SHAPES } from './search-shapes.js';

const options = loadBenchOptions(process.cwd());
const [location, ...names] = process.argv.slice(2);
if (!location) throw new Error('usage: node dist/bench/search-explain.js DATABASE [SHAPE …]');
const shapes = SEARCH_SHAPES.filter((shape) => names.length === 0 || names.includes(shape.name));
const RUNS = 20;
/** A statement slower than this is timed over 3 runs only. */
const SLOW_MS = 200;

interface Sent {
  sql: string;
  params: unknown[];
}

/** What the service asks the store for a shape: its page (limit + 1 rows, a walk reading at most WALK_LIMIT users) and, with count=true, the bounded count. */
function requestOf(path: string): { page: SearchPage; count: boolean } {
  const query = Object.fromEntries(new URL(path, 'http://x').searchParams) as SearchQuery;
  const { filter, sort } = parseSearch(query);
  const limit = query.limit === undefined ? SEARCH_LIMIT_DEFAULT : Number(query.limit);
  return { page: { filter, sort, limit: limit + 1, walkLimit: WALK_LIMIT }, count: query.count === 'true' };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function explainSqlite(path: string): Promise<void> {
  const db = new Database(path);
  const sent: Sent[] = [];
  const prepare = db.prepare.bind(db);
  const run = connectionReads(db);
  // Every statement the search module runs, with its parameters.
  const reads: SqlReads = (statements, deadline) => {
    for (const { sql, params } of statements) sent.push({ sql, params });
    return run(statements, deadline);
  };
  const search = sqliteSearch(reads);
  for (const shape of shapes) {
    const { page, count } = requestOf(shape.paths(options.users)[0] as string);
    sent.length = 0;
    const rows = (await search.page(page, LATEST_POSITION_SQL)).rows.length;
    const counted = count ? JSON.stringify(await search.countMatches(page.filter, COUNT_BOUND)) : undefined;
    console.log(`\n## ${shape.name}: ${shape.title}\n${rows} rows${counted === undefined ? '' : `, count ${counted}`}`);
    for (const { sql, params } of [...sent]) {
      const times: number[] = [];
      for (let i = 0; i < (times[0] !== undefined && times[0] > SLOW_MS ? 3 : RUNS); i++) {
        const started = process.hrtime.bigint();
        prepare(sql).all(...params);
        times.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
      console.log(`\n${sql}\n  params ${JSON.stringify(params)}\n  median ${median(times).toFixed(2)} ms over ${times.length} runs`);
      for (const step of prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { id: number; parent: number; detail: string }[]) console.log(`  plan: ${step.detail}`);
    }
  }
  db.close();
}

async function explainPostgres(url: string): Promise<void> {
  const sent: Sent[] = [];
  const sql = postgres(url, { max: 1, onnotice: () => {}, debug: (_connection, query, params) => sent.push({ sql: query, params }) });
  const plain = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const search = postgresSearch(sql);
    const run = <T>(fn: () => Promise<T>) => fn();
    const columns = sql`uid, username, email_address, legacy_ids, display_name, attributes, created_at, updated_at, version, external_id, active, profile`;
    for (const shape of shapes) {
      const { page, count } = requestOf(shape.paths(options.users)[0] as string);
      sent.length = 0;
      const rows = (await (await search.page(run, columns, page)).query).length;
      const counted = count ? JSON.stringify(await search.countMatches(run, page.filter, COUNT_BOUND)) : undefined;
      console.log(`\n## ${shape.name}: ${shape.title}\n${rows} rows${counted === undefined ? '' : `, count ${counted}`}`);
      for (const { sql: text, params } of [...sent]) {
        const times: number[] = [];
        for (let i = 0; i < (times[0] !== undefined && times[0] > SLOW_MS ? 3 : RUNS); i++) {
          const started = process.hrtime.bigint();
          await plain.unsafe(text, params as never[]);
          times.push(Number(process.hrtime.bigint() - started) / 1e6);
        }
        console.log(`\n${text}\n  params ${JSON.stringify(params)}\n  median ${median(times).toFixed(2)} ms over ${times.length} runs`);
        const plan = await plain.unsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, params as never[]);
        for (const line of plan) console.log(`  ${line['QUERY PLAN']}`);
      }
    }
  } finally {
    await sql.end({ timeout: 5 });
    await plain.end({ timeout: 5 });
  }
}

if (location.startsWith('postgres')) await explainPostgres(location);
else await explainSqlite(location);
