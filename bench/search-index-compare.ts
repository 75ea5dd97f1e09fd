/**
 * The word index compared on a seeded directory (issue 35, "measure before choosing"):
 * the plan of `user_terms` (the store's own search module, its driver counts included)
 * against each engine's inverted index fed with the same pre-folded words:
 * - PostgreSQL: a GIN index over `array_to_tsvector` of the `search` column's terms
 *   (`word:…` and facet entries, as user_terms holds them), asked with a prefix tsquery
 *   built from the folded words (never a parse of what the user typed);
 * - SQLite: a contentless FTS5 table over the words column (`search_text`), with the
 *   `ascii` tokenizer (folded words hold no ASCII but letters and digits, so it splits
 *   only at the spaces between them) and prefix indexes of 1, 2 and 3 characters; facets
 *   still checked in user_terms.
 * Each shape sorts by family name and reads a page of 21 (the service's limit + 1; a walk
 * stops after WALK_LIMIT users, as the service's does).
 * The candidate index is built on the database (timed, its size read), each shape timed
 * over RUNS runs, and the write cost per user measured as 1,000 single-row INSERTs (copies
 * of seeded rows under new uids) in one transaction (PostgreSQL: rolled back; SQLite: committed,
 * then deleted again): with the schema as it is,
 * with the candidate index added, and with it instead of user_terms' triggers. The
 * candidate index is dropped at the end unless BENCH_COMPARE_KEEP=1.
 *
 *   npm run build && node dist/bench/search-index-compare.js DATABASE
 *
 * DATABASE: a SQLite file or a postgres:// URL seeded by the bench (search-bench.ts with
 * BENCH_SEARCH_KEEP=1, or seed-sqlite.ts / seed-postgres.ts).
 */
import postgres from 'postgres';
import Database from '../src/store/sqlite/sqlite-driver.js';
import { postgresSearch } from '../src/store/postgres/postgres-search.js';
import { sqliteSearch } from '../src/store/sqlite/sqlite-search.js';
import { connectionReads } from '../src/store/sqlite/sqlite-reads.js';
import { LATEST_POSITION_SQL } from '../src/store/sqlite/sqlite-event-log.js';
import { USER_COLUMNS } from '../src/store/sqlite/sqlite-rows.js';
import type { SearchFilter, SearchPage } from '../src/store/user-store.js';
import { WALK_LIMIT } from '../src/users/user-search.js';

const RUNS = Number(process.env.BENCH_COMPARE_RUNS ?? 60);
const WRITES = 1000;
/** A statement slower than this (its first run) is timed over 3 runs only. */
const SLOW_MS = 200;
const SORT = [{ field: 'family_name' as const, descending: false }];

/** The shapes: a rare prefix, one letter, two words, a word and a facet. */
const SHAPES: { name: string; filter: SearchFilter }[] = [
  { name: 'q=odeg (rare prefix)', filter: { words: ['odeg'] } },
  { name: 'q=m (one letter)', filter: { words: ['m'] } },
  { name: 'q=jose gar (two words)', filter: { words: ['jose', 'gar'] } },
  { name: 'department=Engineering & q=garc', filter: { words: ['garc'], facets: { department: 'engineering' } } },
];

/** As the service asks: limit + 1 rows, a walk reading at most WALK_LIMIT users. */
const pageOf = (filter: SearchFilter): SearchPage => ({ filter, sort: SORT, limit: 21, walkLimit: WALK_LIMIT });

interface Timing {
  p50: number;
  p99: number;
  rows: number;
}

async function timed(fn: () => Promise<number> | number): Promise<Timing> {
  let rows = 0;
  const first = process.hrtime.bigint();
  rows = await fn();
  const slow = Number(process.hrtime.bigint() - first) / 1e6 > SLOW_MS;
  for (let i = 0; i < (slow ? 0 : 4); i++) rows = await fn();
  const times: number[] = [];
  for (let i = 0; i < (slow ? 3 : RUNS); i++) {
    const started = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] as number;
  return { p50: at(0.5), p99: at(0.99), rows };
}

const ms = (value: number) => value.toFixed(2);
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

interface Row {
  name: string;
  /** One timing per column of the report, in its order. */
  timings: Timing[];
  /** The plan of the last column's statement. */
  plan: string;
}

function report(title: string, columns: string[], rows: Row[], sizes: string, writes: string): void {
  console.log(`\n### ${title}\n\n${sizes}\n\n${writes}\n`);
  console.log(`| shape | rows | ${columns.map((column) => `${column} p50 ms | p99 ms`).join(' | ')} | plan of the last |`);
  console.log(`|---|--:|${columns.map(() => '--:|--:|').join('')}---|`);
  for (const { name, timings, plan } of rows) {
    console.log(`| ${name} | ${timings.map((t) => t.rows).join('/')} | ${timings.map((t) => `${ms(t.p50)} | ${ms(t.p99)}`).join(' | ')} | ${plan} |`);
  }
}

// ---------------------------------------------------------------- PostgreSQL

/** A tsquery lexeme in tsquery's input syntax: quoted, with quotes and backslashes doubled. */
const lexeme = (text: string) => `'${text.replace(/['\\]/g, (ch) => ch + ch)}'`;

function tsquery(filter: SearchFilter): string {
  const parts = (filter.words ?? []).map((word) => `${lexeme(`word:${word}`)}:*`);
  for (const [facet, value] of Object.entries(filter.facets ?? {})) parts.push(lexeme(`${facet}:${value}`));
  return parts.join(' & ');
}

/**
 * The candidate: the terms of `search` as the lexemes of a tsvector (no parser, no
 * dictionary: each kept byte for byte; one of 2,048 bytes or more, which no field's limit
 * allows, left out rather than failing a write), in a GIN index over that expression.
 */
const GIN_SQL = `
  CREATE FUNCTION search_terms_vector(search text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT array_to_tsvector(ARRAY(SELECT t FROM json_array_elements_text(search::json->'terms') AS j(t) WHERE octet_length(t) < 2048))
  $$;
  CREATE INDEX users_by_search_terms ON users USING gin (search_terms_vector(search));
  ANALYZE users;`;

async function comparePostgres(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const columns = sql`uid, username, email_address, legacy_ids, display_name, attributes, created_at, updated_at, version, external_id, active, profile, representation, etag`;
  const run = <T>(fn: () => Promise<T>) => fn();
  try {
    await sql`SET jit = off`;
    const writeCost = async (setup: string) => {
      const sample = await sql<{ uid: string }[]>`SELECT uid FROM users ORDER BY uid LIMIT ${WRITES}`;
      let perUser = 0;
      await sql
        .begin(async (tx) => {
          if (setup) await tx.unsafe(setup);
          const started = process.hrtime.bigint();
          for (const { uid } of sample) {
            await tx`INSERT INTO users (uid, username, email_address, legacy_ids, display_name, attributes, created_at, updated_at, version, representation, etag, profile, search)
              SELECT gen_random_uuid(), username, email_address, legacy_ids, display_name, attributes, created_at, updated_at, version, representation, etag, profile, search FROM users WHERE uid = ${uid}`;
          }
          if ((await tx`SELECT 1 FROM pg_indexes WHERE indexname = 'users_by_search_terms'`).length > 0) await tx`SELECT gin_clean_pending_list('users_by_search_terms'::regclass)`;
          perUser = Number(process.hrtime.bigint() - started) / 1e3 / WRITES;
          throw new Error('rollback');
        })
        .catch((error: Error) => {
          if (error.message !== 'rollback') throw error;
        });
      return perUser;
    };
    await sql`DROP INDEX IF EXISTS users_by_search_terms`;
    await sql`DROP FUNCTION IF EXISTS search_terms_vector`;
    const writesBefore = await writeCost('');
    await sql`SET maintenance_work_mem = '512MB'`;
    const built = process.hrtime.bigint();
    await sql.unsafe(GIN_SQL);
    const buildS = Number(process.hrtime.bigint() - built) / 1e9;
    const writesWith = await writeCost('');
    const writesInstead = await writeCost('ALTER TABLE users DISABLE TRIGGER users_terms_inserted');
    const [size] = await sql<{ gin: number; terms: number }[]>`
      SELECT pg_relation_size('users_by_search_terms')::float8 AS gin, pg_total_relation_size('user_terms')::float8 AS terms`;
    const search = postgresSearch(sql);
    const rows: Row[] = [];
    for (const { name, filter } of SHAPES) {
      const timings = [await timed(async () => (await (await search.page(run, columns, pageOf(filter))).query).length)];
      const query = tsquery(filter);
      const driven = `FROM unnest(ARRAY(SELECT uid FROM users WHERE search_terms_vector(search) @@ $1::tsquery)) AS d(driven_uid) JOIN users ON users.uid = d.driven_uid ORDER BY sort_family_name, users.uid LIMIT 21`;
      timings.push(await timed(async () => (await sql.unsafe(`SELECT users.* ${driven}`, [query])).length));
      const plan = await sql.unsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN SELECT users.uid ${driven}`, [query]);
      rows.push({ name, timings, plan: plan.map((line) => line['QUERY PLAN'].trim().replace(/\s+\(cost.*$/, '')).filter((line) => /Scan|Sort|Join|Nested/.test(line) && !/Key|Cond/.test(line)).join(' ← ') });
    }
    report(
      'PostgreSQL: user_terms against GIN over array_to_tsvector of the terms',
      ['user_terms (the store)', 'GIN driving alone'],
      rows,
      `Index sizes: GIN ${mb(size?.gin ?? 0)} MB (built in ${buildS.toFixed(1)} s); user_terms with its primary key ${mb(size?.terms ?? 0)} MB.`,
      `Write cost per user (${WRITES} single-row INSERTs, one transaction, rolled back; GIN's pending list flushed within the time): as it is ${writesBefore.toFixed(0)} µs; with the GIN index too ${writesWith.toFixed(0)} µs; GIN instead of user_terms' insert trigger ${writesInstead.toFixed(0)} µs.`,
    );
    if (process.env.BENCH_COMPARE_KEEP !== '1') await sql`DROP INDEX users_by_search_terms; DROP FUNCTION search_terms_vector`.simple();
  } finally {
    await sql.end({ timeout: 5 });
  }
}

// ---------------------------------------------------------------- SQLite

const FTS_TRIGGERS = `
  CREATE TEMP TRIGGER users_words_inserted AFTER INSERT ON users BEGIN INSERT INTO user_words (rowid, words) VALUES (NEW.rowid, NEW.search_text); END;
  CREATE TEMP TRIGGER users_words_deleted AFTER DELETE ON users BEGIN DELETE FROM user_words WHERE rowid = OLD.rowid; END;`;
const NO_FTS_TRIGGERS = 'DROP TRIGGER temp.users_words_inserted; DROP TRIGGER temp.users_words_deleted;';

function compareSqlite(path: string): Promise<void> {
  const db = new Database(path);
  // Bytes of the tables and indexes whose names start with `name` (the dbstat table; NaN without it).
  const bytesOf = (name: string) => {
    try {
      return (db.prepare('SELECT sum(pgsize) AS n FROM dbstat WHERE name LIKE ?').get(`${name}%`) as { n: number }).n;
    } catch {
      return Number.NaN;
    }
  };
  // Committed (FTS5 writes its segment at the commit), then the copies deleted again; `setup` and `teardown` run outside the timing.
  const writeCost = (setup: string, teardown = '') => {
    const sample = db.prepare(`SELECT rowid AS id FROM users ORDER BY rowid LIMIT ${WRITES}`).all() as { id: number }[];
    const insert = db.prepare(`INSERT INTO users (uid, username, email_address, legacy_ids, display_name, display_name_key, attributes, created_at, updated_at, version, representation, etag, profile, search)
      SELECT lower(hex(randomblob(16))), username, email_address, legacy_ids, display_name, display_name_key, attributes, created_at, updated_at, version, representation, etag, profile, search FROM users WHERE rowid = ?`);
    if (setup) db.exec(setup);
    const copies: (number | bigint)[] = [];
    const started = process.hrtime.bigint();
    db.exec('BEGIN');
    for (const { id } of sample) copies.push(insert.run(id).lastInsertRowid);
    db.exec('COMMIT');
    const perUser = Number(process.hrtime.bigint() - started) / 1e3 / WRITES;
    const remove = db.prepare('DELETE FROM users WHERE rowid = ?');
    db.transaction(() => copies.forEach((id) => remove.run(id)))();
    if (teardown) db.exec(teardown);
    return perUser;
  };
  db.exec('DROP TABLE IF EXISTS user_words');
  const writesBefore = writeCost('');
  const built = process.hrtime.bigint();
  db.exec(`CREATE VIRTUAL TABLE user_words USING fts5(words, content='', contentless_delete=1, tokenize='ascii', prefix='1 2 3', detail=none);
    INSERT INTO user_words (rowid, words) SELECT rowid, search_text FROM users;
    INSERT INTO user_words (user_words) VALUES ('optimize');`);
  const buildS = Number(process.hrtime.bigint() - built) / 1e9;
  const ftsBytes = bytesOf('user_words');
  const writesWith = writeCost(FTS_TRIGGERS, NO_FTS_TRIGGERS);
  const termsTrigger = (db.prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'users_terms_inserted'").get() as { sql: string }).sql;
  const writesInstead = writeCost(`${FTS_TRIGGERS} DROP TRIGGER users_terms_inserted;`, `${NO_FTS_TRIGGERS} ${termsTrigger};`);
  const terms = bytesOf('user_terms');
  const search = sqliteSearch(connectionReads(db));
  const columns = USER_COLUMNS.split(', ').map((column) => `u.${column}`).join(', ');
  const candidateSql = (filter: SearchFilter) => {
    const facets = Object.keys(filter.facets ?? {}).map(() => 'EXISTS (SELECT 1 FROM user_terms t WHERE t.field = ? AND t.value = ? AND t.uid = u.uid)');
    return `SELECT ${columns}, u.representation, u.etag FROM users u WHERE u.rowid IN (SELECT rowid FROM user_words WHERE user_words MATCH ?)${facets.map((f) => ` AND ${f}`).join('')} ORDER BY u.sort_family_name, u.uid LIMIT 21`;
  };
  const paramsOf = (filter: SearchFilter) => [(filter.words ?? []).map((word) => `"${word}"*`).join(' '), ...Object.entries(filter.facets ?? {}).flat()];
  return (async () => {
    const rows: Row[] = [];
    for (const { name, filter } of SHAPES) {
      const current = await timed(async () => (await search.page(pageOf(filter), LATEST_POSITION_SQL)).rows.length);
      const statement = db.prepare(candidateSql(filter));
      const candidate = await timed(() => statement.all(...paramsOf(filter)).length);
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${candidateSql(filter)}`).all(...paramsOf(filter)) as { detail: string }[]).map((step) => step.detail).join(' ← ');
      rows.push({ name, timings: [current, candidate], plan });
    }
    report(
      'SQLite: user_terms against FTS5 over the folded words',
      ['user_terms (the store)', 'FTS5 driving alone'],
      rows,
      `Index sizes: FTS5 ${mb(ftsBytes)} MB (built in ${buildS.toFixed(1)} s); user_terms ${mb(terms)} MB.`,
      `Write cost per user (${WRITES} single-row INSERTs in one transaction, committed, then deleted again): as it is ${writesBefore.toFixed(0)} µs; with FTS5 too ${writesWith.toFixed(0)} µs; FTS5 instead of user_terms' insert trigger ${writesInstead.toFixed(0)} µs.`,
    );
    if (process.env.BENCH_COMPARE_KEEP !== '1') db.exec('DROP TABLE user_words');
    db.close();
  })();
}

const [location] = process.argv.slice(2);
if (!location) throw new Error('usage: node dist/bench/search-index-compare.js DATABASE');
if (location.startsWith('postgres')) await comparePostgres(location);
else await compareSqlite(location);
