/**
 * Bulk loading of seeded users into a PostgreSQL database with the store's own
 * schema (its migrations run first). Rows stream in with COPY; the secondary
 * indexes are dropped before the load and rebuilt from their own definitions
 * after it, then the tables are analysed (what autovacuum would do soon after
 * any bulk load), so the planner sees the real sizes.
 */
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

function userLine({ user, displayNameKey }: SeedRow): string {
  const { json, etag } = representationOf(user);
  return [user.uid, user.username, user.email_address, textArrayLiteral(user.legacy_ids), user.display_name, displayNameKey,
    JSON.stringify(user.attributes), user.created_at, user.updated_at, user.version, json, etag].map(field).join('\t');
}

function keyLines({ user, keys }: SeedRow): string {
  return keys.map((entry) => `${field(entry.key)}\t${field(entry.value)}\t${user.uid}\n`).join('');
}

async function* chunks(count: number, line: (row: SeedRow) => string): AsyncGenerator<string> {
  for (let from = 0; from < count; from += ROWS_PER_CHUNK) {
    let text = '';
    for (let i = from; i < Math.min(from + ROWS_PER_CHUNK, count); i++) {
      const rendered = line(seedRow(i));
      text += rendered.endsWith('\n') ? rendered : `${rendered}\n`;
    }
    yield text;
  }
}

/** Loads users 0 … count-1 into the (empty) database at `url`. */
export async function seedPostgres(url: string, count: number): Promise<SeedResult> {
  const clock = startSeedClock();
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await migratePostgres(sql);
    const indexes = await sql<{ indexname: string; indexdef: string }[]>`
      SELECT i.indexname, i.indexdef FROM pg_indexes i
      WHERE i.schemaname = 'public' AND i.tablename IN ('users', 'user_keys')
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`;
    for (const { indexname } of indexes) await sql.unsafe(`DROP INDEX ${indexname}`);
    // Every key's uid is loaded in the same run: skip the per-row foreign-key triggers
    // (as pg_restore --disable-triggers does; needs a superuser, as the test server has).
    await sql`SET session_replication_role = replica`;
    const users = await sql`COPY users (uid, username, email_address, legacy_ids, display_name, display_name_key, attributes, created_at, updated_at, version, representation, etag) FROM STDIN`.writable();
    await pipeline(Readable.from(chunks(count, userLine)), users);
    clock.phase('users');
    const keys = await sql`COPY user_keys (key, value, uid) FROM STDIN`.writable();
    await pipeline(Readable.from(chunks(count, keyLines)), keys);
    // Seeded users have one address each, their email_address: the email index holds it.
    await sql`INSERT INTO user_emails (value, uid) SELECT value, uid FROM user_keys WHERE key = 'email_address' ORDER BY value`;
    clock.phase('keys');
    await sql`SET session_replication_role = DEFAULT`;
    for (const { indexdef } of indexes) await sql.unsafe(indexdef);
    clock.phase('indexes');
    await sql`ANALYZE users`;
    await sql`ANALYZE user_keys`;
    await sql`ANALYZE user_emails`;
    clock.phase('analyze');
  } finally {
    await sql.end({ timeout: 5 });
  }
  return clock.result(count);
}
