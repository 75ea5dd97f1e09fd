/**
 * Bulk loading of seeded users into a SQLite file with the store's own schema:
 * its migrations run first, so tables, constraints and indexes are the
 * service's, byte for byte in sqlite_master.
 *
 * Why it is fast (measured: see docs/performance.md):
 * - multi-row INSERT statements prepared once, in large transactions, with no
 *   journal and no fsync while loading (the file is synced once at the end);
 * - users arrive in uid order, so the users table and its primary key only append;
 * - the keys table (clustered on (key, value), which seed order scatters) is
 *   filled from a temporary table in one `INSERT … SELECT … ORDER BY key, value`,
 *   so SQLite sorts once and appends instead of descending the B-tree per row;
 * - the secondary indexes of users and user_keys (the sort keys' among them) are
 *   dropped before the load and rebuilt after it from their own SQL (a sort-based
 *   build), leaving the schema unchanged;
 * - user_terms (the search's words and facets, src/store/search-column.ts) is filled
 *   like the keys table, from a temporary table in (field, value, uid) order, with the
 *   entries the insert trigger would make of each row's `search` (seed-data.ts); the
 *   triggers on users are dropped for the load and made again from their own SQL
 *   (a trigger per row would parse each row's JSON and descend the B-tree per entry);
 * - foreign keys are not checked row by row (every key's user is in the same load),
 *   and SQLite's sorter may use a second thread.
 * Tried and dropped: sorting the key rows in JavaScript instead (no faster).
 */
import { startSeedClock, type SeedResult } from './seed-clock.js';
import type BetterSqlite3 from 'better-sqlite3';
import Database from '../src/store/sqlite/sqlite-driver.js';
import { migrateSqlite } from '../src/store/sqlite/sqlite-migrations.js';
import { representationOf } from '../src/users/user-representation.js';
import { seedRow } from './seed-data.js';

/** Users per multi-row INSERT (13 parameters each, well under SQLite's 32,766). */
const ROWS_PER_STATEMENT = 200;
/** Users per transaction. */
const USERS_PER_TRANSACTION = 50_000;

const USER_COLUMNS = '(uid, username, email_address, legacy_ids, display_name, display_name_key, attributes, created_at, updated_at, version, representation, etag, search)';

export type { SeedResult };

/** Inserts rows of `width` values through multi-row statements of up to `rowsPerStatement` rows, each prepared once. */
function batchInserter(db: BetterSqlite3.Database, sqlHead: string, width: number, rowsPerStatement: number) {
  const statements = new Map<number, BetterSqlite3.Statement>();
  const tuple = `(${Array(width).fill('?').join(', ')})`;
  const statement = (rows: number) => {
    let prepared = statements.get(rows);
    if (!prepared) statements.set(rows, (prepared = db.prepare(`${sqlHead} VALUES ${Array(rows).fill(tuple).join(', ')}`)));
    return prepared;
  };
  return (values: unknown[]) => {
    const full = width * rowsPerStatement;
    let offset = 0;
    for (; offset + full <= values.length; offset += full) statement(rowsPerStatement).run(values.slice(offset, offset + full));
    if (offset < values.length) statement((values.length - offset) / width).run(values.slice(offset));
  };
}

/** Loads users 0 … count-1 into a new SQLite file at `path`. */
export function seedSqlite(path: string, count: number): SeedResult {
  const clock = startSeedClock();
  const db = new Database(path);
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -1048576'); // 1 GiB: the B-trees being built stay in memory
    db.pragma('temp_store = MEMORY');
    db.pragma('threads = 2'); // the sorter behind ORDER BY and CREATE INDEX may use a helper thread
    migrateSqlite(db);
    // Every key row's uid is loaded in the same run: checking each reference would
    // only repeat what construction guarantees (better-sqlite3 turns the check on by default).
    db.pragma('foreign_keys = OFF');
    // The secondary indexes of the two tables loaded here (the others stay empty).
    const indexes = db.prepare<[], { name: string; sql: string }>(
      "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('users', 'user_keys')",
    ).all();
    for (const { name } of indexes) db.exec(`DROP INDEX ${name}`);
    const triggers = db.prepare<[], { name: string; sql: string }>("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'users'").all();
    for (const { name } of triggers) db.exec(`DROP TRIGGER ${name}`);
    db.exec('CREATE TEMP TABLE seed_keys (key TEXT NOT NULL, value TEXT NOT NULL, uid TEXT NOT NULL)');
    db.exec('CREATE TEMP TABLE seed_terms (field TEXT NOT NULL, value TEXT NOT NULL, uid TEXT NOT NULL)');
    const insertUsers = batchInserter(db, `INSERT INTO users ${USER_COLUMNS}`, 13, ROWS_PER_STATEMENT);
    const insertKeys = batchInserter(db, 'INSERT INTO temp.seed_keys (key, value, uid)', 3, ROWS_PER_STATEMENT);
    const insertTerms = batchInserter(db, 'INSERT INTO temp.seed_terms (field, value, uid)', 3, ROWS_PER_STATEMENT);

    const load = db.transaction((from: number, to: number) => {
      const users: unknown[] = [];
      const keys: unknown[] = [];
      const terms: unknown[] = [];
      for (let i = from; i < to; i++) {
        const { user, keys: entries, displayNameKey, search, terms: termEntries } = seedRow(i);
        const { json, etag } = representationOf(user);
        users.push(user.uid, user.username, user.email_address, JSON.stringify(user.legacy_ids), user.display_name, displayNameKey,
          JSON.stringify(user.attributes), user.created_at, user.updated_at, user.version, json, etag, search);
        for (const entry of entries) keys.push(entry.key, entry.value, user.uid);
        for (const term of termEntries) terms.push(term.field, term.value, user.uid);
      }
      insertUsers(users);
      insertKeys(keys);
      insertTerms(terms);
    });
    for (let from = 0; from < count; from += USERS_PER_TRANSACTION) load(from, Math.min(from + USERS_PER_TRANSACTION, count));
    clock.phase('users');
    db.transaction(() => {
      db.exec('INSERT INTO user_keys (key, value, uid) SELECT key, value, uid FROM temp.seed_keys ORDER BY key, value');
      // Seeded users have one address each, their email_address: the email index holds it.
      db.exec("INSERT INTO user_emails (value, uid) SELECT value, uid FROM temp.seed_keys WHERE key = 'email_address' ORDER BY value");
      db.exec('DROP TABLE temp.seed_keys');
    })();
    clock.phase('keys');
    db.transaction(() => {
      db.exec('INSERT INTO user_terms (field, value, uid) SELECT field, value, uid FROM temp.seed_terms ORDER BY field, value, uid');
      db.exec('DROP TABLE temp.seed_terms');
      for (const { sql } of triggers) db.exec(sql);
      // The triggers that keep user_count were dropped for the load: the count they would have kept.
      db.exec('UPDATE user_count SET n = (SELECT count(*) FROM users)');
    })();
    clock.phase('terms');
    db.transaction(() => {
      for (const { sql } of indexes) db.exec(sql);
    })();
    clock.phase('indexes');
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = FULL');
    db.pragma('journal_mode = WAL'); // a synced write of the header: everything before it reaches the disk too
    clock.phase('sync');
  } finally {
    db.close();
  }
  return clock.result(count);
}
