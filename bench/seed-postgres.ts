/**
 * Bulk loading of seeded users into a PostgreSQL database with the store's own
 * schema (its migrations run first). Rows stream in with COPY; the secondary
 * indexes are dropped before the load and rebuilt from their own definitions
 * after it, then the tables are vacuumed and analysed (what autovacuum would do
 * soon after any bulk load, here before the measurements rather than during them),
 * so the planner sees the real sizes and index-only scans skip the heap.
 *
 * user_terms (the search's words and facets, src/store/search-column.ts) is filled
 * by COPY with the entries the statement trigger would make of each row's `search`
 * (seed-data.ts): with session_replication_role = replica no trigger fires, the
 * terms trigger included. Its primary key is dropped for the load and added again
 * from its own definition (one sorted build instead of 10 million B-tree descents).
 */
import { closeSync, createReadStream, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import postgres from 'postgres';
import { textArrayLiteral } from '../src/store/postgres/postgres-bulk-sql.js';
import { migratePostgres } from '../src/store/postgres/postgres-migrations.js';
import { representationOf } from '../src/users/user-representation.js';
import { seedRow, type SeedRow } from './seed-data.js';
import { startSeedClock, type SeedResult } from './seed-clock.js';

const ROWS_PER_CHUNK = 2000;

/** A value in COPY's text format (backslash escapes; \N is NULL). */
function field(value: string | number | null): string {
  if (value === null) return '\\N';
  return String(value).replace(/[\\\n\r\t]/g, (ch) => ({ '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' })[ch] as string);
}

function userLine({ user, displayNameKey, search }: SeedRow): string {
  const { json, etag } = representationOf(user);
  return [user.uid, user.username, user.email_address, textArrayLiteral(user.legacy_ids), user.display_name, displayNameKey,
    JSON.stringify(user.attributes), user.created_at, user.updated_at, user.version, json, etag, search].map(field).join('\t');
}

function termLines({ user, terms }: SeedRow): string {
  return terms.map((term) => `${field(term.field)}\t${field(term.value)}\t${user.uid}\n`).join('');
}

function keyLines({ user, keys }: SeedRow): string {
  return keys.map((entry) => `${field(entry.key)}\t${field(entry.value)}\t${user.uid}\n`).join('');
}

/** Where the key and term rows wait while the users stream in: each row is derived once. */
interface Spill {
  keys: number;
  terms: number;
}

/** The users' COPY text, a chunk at a time; their key and term rows are written to `spill` as they go. */
async function* userChunks(count: number, spill: Spill): AsyncGenerator<string> {
  for (let from = 0; from < count; from += ROWS_PER_CHUNK) {
    let users = '';
    let keys = '';
    let terms = '';
    for (let i = from; i < Math.min(from + ROWS_PER_CHUNK, count); i++) {
      const row = seedRow(i);
      users += `${userLine(row)}\n`;
      keys += keyLines(row);
      terms += termLines(row);
    }
    writeSync(spill.keys, keys);
    writeSync(spill.terms, terms);
    yield users;
  }
}

/** Loads users 0 … count-1 into the (empty) database at `url`. */
export async function seedPostgres(url: string, count: number): Promise<SeedResult> {
  const clock = startSeedClock();
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const spillDir = mkdtempSync(join(tmpdir(), 'seed-postgres-'));
  try {
    await migratePostgres(sql);
    // This session's sorts for the index builds (the server's default is 64 MB).
    await sql`SET maintenance_work_mem = '512MB'`;
    const indexes = await sql<{ indexname: string; indexdef: string }[]>`
      SELECT i.indexname, i.indexdef FROM pg_indexes i
      WHERE i.schemaname = 'public' AND i.tablename IN ('users', 'user_keys')
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`;
    for (const { indexname } of indexes) await sql.unsafe(`DROP INDEX ${indexname}`);
    // Every key's uid is loaded in the same run: skip the per-row foreign-key triggers
    // (as pg_restore --disable-triggers does; needs a superuser, as the test server has).
    await sql`SET session_replication_role = replica`;
    const termKeys = await sql<{ conname: string; def: string }[]>`
      SELECT conname, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = 'user_terms'::regclass AND contype = 'p'`;
    for (const { conname } of termKeys) await sql.unsafe(`ALTER TABLE user_terms DROP CONSTRAINT ${conname}`);
    const users = await sql`COPY users (uid, username, email_address, legacy_ids, display_name, display_name_key, attributes, created_at, updated_at, version, representation, etag, search) FROM STDIN`.writable();
    const spill = { keys: openSync(join(spillDir, 'keys'), 'w'), terms: openSync(join(spillDir, 'terms'), 'w') };
    try {
      await pipeline(Readable.from(userChunks(count, spill)), users);
    } finally {
      closeSync(spill.keys);
      closeSync(spill.terms);
    }
    clock.phase('users');
    const keys = await sql`COPY user_keys (key, value, uid) FROM STDIN`.writable();
    await pipeline(createReadStream(join(spillDir, 'keys')), keys);
    // Seeded users have one address each, their email_address: the email index holds it.
    await sql`INSERT INTO user_emails (value, uid) SELECT value, uid FROM user_keys WHERE key = 'email_address' ORDER BY value`;
    clock.phase('keys');
    const terms = await sql`COPY user_terms (field, value, uid) FROM STDIN`.writable();
    await pipeline(createReadStream(join(spillDir, 'terms')), terms);
    for (const { conname, def } of termKeys) await sql.unsafe(`ALTER TABLE user_terms ADD CONSTRAINT ${conname} ${def}`);
    clock.phase('terms');
    await sql`SET session_replication_role = DEFAULT`;
    for (const { indexdef } of indexes) await sql.unsafe(indexdef);
    clock.phase('indexes');
    for (const table of ['users', 'user_keys', 'user_emails', 'user_terms']) await sql.unsafe(`VACUUM (ANALYZE) ${table}`);
    clock.phase('analyze');
  } finally {
    rmSync(spillDir, { recursive: true, force: true });
    await sql.end({ timeout: 5 });
  }
  return clock.result(count);
}
