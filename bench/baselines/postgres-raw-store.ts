/**
 * The PostgreSQL baseline's data access: postgres.js with the service's client
 * settings (same pool size, prepared statements, synchronous_commit=on) and the
 * store's SQL. Each write is one transaction, committed (and flushed to the WAL)
 * before the response.
 *
 * Like the store, it hands postgres.js at most `poolMax` queries or transactions
 * at a time (src/store/postgres/in-flight-gate.ts says why).
 */
import postgres from 'postgres';
import { inFlightGate } from '../../src/store/postgres/in-flight-gate.js';
import { postgresClientOptions, userRowToUser } from '../../src/store/postgres/postgres-user-store.js';
import { prefixUpperBound } from '../../src/users/canonical.js';
import { queryWords } from '../../src/users/search-words.js';
import { displayNameKey, keysOf, type User } from '../../src/users/user.js';
import { representationOf, type UserRepresentation } from '../../src/users/user-representation.js';
import type { RawStore } from './raw-store.js';

type Row = Parameters<typeof userRowToUser>[0];

export function openPostgresRawStore(url: string): RawStore {
  const options = postgresClientOptions({ url });
  const sql = postgres(url, options);
  const limited = inFlightGate(options.max);
  const columns = sql`uid, username, email_address, legacy_ids, display_name, attributes, created_at, updated_at, version`;

  const values = (user: User) => {
    const { json, etag } = representationOf(user);
    return [user.username, user.email_address, user.legacy_ids, user.display_name, displayNameKey(user.display_name), JSON.stringify(user.attributes), json, etag] as const;
  };
  const stored = sql`uid, representation AS json, etag`;

  async function insertKeys(tx: postgres.TransactionSql, user: User): Promise<boolean> {
    const entries = keysOf(user);
    const inserted = await tx`
      INSERT INTO user_keys (key, value, uid)
      SELECT k, v, ${user.uid}::uuid FROM unnest(${entries.map((e) => e.key)}::text[], ${entries.map((e) => e.value)}::text[]) AS t(k, v)
      ON CONFLICT DO NOTHING
      RETURNING key`;
    return inserted.length === entries.length;
  }

  /** Thrown inside a transaction to roll it back on a taken key. */
  class Conflict extends Error {}

  return {
    async byUid(uid) {
      const [row] = await limited(() => sql<UserRepresentation[]>`SELECT ${stored} FROM users WHERE uid = ${uid}`);
      return row;
    },
    async byKey(key, value) {
      const [row] = await limited(() => sql<UserRepresentation[]>`SELECT ${stored} FROM users WHERE uid = (SELECT uid FROM user_keys WHERE key = ${key} AND value = ${value})`);
      return row;
    },
    async page(prefix, after, limit) {
      const conditions = [sql`TRUE`];
      if (after !== undefined) conditions.push(sql`uid > ${after}::uuid`);
      // Each word of `q` starts a word of the user, found in the word index the service reads (user_terms).
      for (const word of prefix === undefined ? [] : queryWords(prefix)) {
        const high = prefixUpperBound(word) as string; // defined for every word the scenarios send
        conditions.push(sql`uid IN (SELECT uid FROM user_terms WHERE field = 'word' AND value >= ${word} AND value < ${high})`);
      }
      const where = conditions.reduce((all, condition) => sql`${all} AND ${condition}`);
      const rows = await limited(() => sql<Row[]>`SELECT ${columns} FROM users WHERE ${where} ORDER BY uid LIMIT ${limit}`);
      return rows.map(userRowToUser);
    },
    async create(user) {
      try {
        await limited(() => sql.begin(async (tx) => {
          const [username, email, legacyIds, displayName, nameKey, attributes, json, etag] = values(user);
          await tx`INSERT INTO users (uid, username, email_address, legacy_ids, display_name, display_name_key, attributes, created_at, updated_at, version, representation, etag)
            VALUES (${user.uid}, ${username}, ${email}, ${legacyIds}, ${displayName}, ${nameKey}, ${attributes}::json, ${user.created_at}, ${user.updated_at}, ${user.version}, ${json}, ${etag})`;
          if (!(await insertKeys(tx, user))) throw new Conflict();
        }));
        return true;
      } catch (error) {
        if (error instanceof Conflict) return false;
        throw error;
      }
    },
    async replace(uid, fields, now) {
      return limited(() => sql.begin(async (tx) => {
        const [row] = await tx<Row[]>`SELECT ${columns} FROM users WHERE uid = ${uid} FOR UPDATE`;
        if (!row) return undefined;
        const found = userRowToUser(row);
        const next: User = { ...found, ...fields, updated_at: now, version: found.version + 1 };
        const [username, email, legacyIds, displayName, nameKey, attributes, json, etag] = values(next);
        await tx`DELETE FROM user_keys WHERE uid = ${uid}`;
        await tx`UPDATE users SET username = ${username}, email_address = ${email}, legacy_ids = ${legacyIds},
          display_name = ${displayName}, display_name_key = ${nameKey}, attributes = ${attributes}::json,
          updated_at = ${next.updated_at}, version = ${next.version}, representation = ${json}, etag = ${etag} WHERE uid = ${uid}`;
        if (!(await insertKeys(tx, next))) throw new Conflict();
        return next;
      }));
    },
  };
}
