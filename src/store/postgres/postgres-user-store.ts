/**
 * UserStore on PostgreSQL through postgres.js: a bounded pool, prepared
 * statements, a statement timeout, and synchronous_commit=on set explicitly on
 * every connection, so a returned write has been flushed to the WAL. The keys
 * table's primary key enforces uniqueness across every instance sharing the
 * database. The conflicting key is always named without parsing error text: a
 * create is one statement, and when it fails on a unique key the taken key is
 * looked up; updates and imports insert keys with ON CONFLICT DO NOTHING and roll
 * back. At most PG_POOL_MAX operations reach the driver at once (in-flight-gate.ts).
 */
import { randomBytes } from 'node:crypto';
import postgres, { type TransactionSql } from 'postgres';
import { prefixUpperBound } from '../../users/canonical.js';
import { displayNameKey, keysOf, type LookupKey, type UniqueKey, type User, type UserFields } from '../../users/user.js';
import { KeyConflictError, StoreUnavailableError } from '../store-errors.js';
import { planImport, updatedUser, type Holder, type ImportOutcome, type OnConflict } from '../import-plan.js';
import type { Precondition, SearchPage, UserStore, WriteOutcome } from '../user-store.js';
import { inFlightGate } from './in-flight-gate.js';
import { isRetryable, isUnavailable, isUniqueViolation } from './postgres-errors.js';
import { migratePostgres } from './postgres-migrations.js';

export interface PostgresStoreOptions {
  url: string;
  /** Most connections this process opens. */
  poolMax?: number;
  /** Longest a statement may run before the server cancels it (then 503), in ms. */
  statementTimeoutMs?: number;
  /** Longest a new connection may take before the request gets a 503, in ms. */
  connectTimeoutMs?: number;
  /** How many times a transaction that lost a deadlock or serialization race is re-run. */
  maxRetries?: number;
}

interface UserRow {
  uid: string;
  username: string;
  email_address: string;
  legacy_ids: string[];
  display_name: string | null;
  /** A `json` column: postgres.js parses it, keeping the member order as written. */
  attributes: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
  version: number;
}

export function userRowToUser(row: UserRow): User {
  return {
    uid: row.uid,
    username: row.username,
    email_address: row.email_address,
    legacy_ids: row.legacy_ids,
    display_name: row.display_name,
    attributes: row.attributes,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    version: row.version,
  };
}

/** Client settings applied to every pooled connection. synchronous_commit is set explicitly, never inherited. */
export function postgresClientOptions(options: PostgresStoreOptions) {
  return {
    max: options.poolMax ?? 10,
    prepare: true,
    connect_timeout: Math.ceil((options.connectTimeoutMs ?? 5000) / 1000),
    idle_timeout: 60,
    onnotice: () => {},
    connection: {
      application_name: 'user-service',
      synchronous_commit: 'on',
      statement_timeout: options.statementTimeoutMs ?? 5000,
    },
  } satisfies postgres.Options<Record<string, never>>;
}

export async function openPostgresUserStore(options: PostgresStoreOptions): Promise<UserStore> {
  const clientOptions = postgresClientOptions(options);
  const sql = postgres(options.url, clientOptions);
  const maxRetries = options.maxRetries ?? 5;
  const gate = inFlightGate(clientOptions.max);
  let closed = false;

  /**
   * Runs `fn` with driver errors translated; re-runs a transaction that lost a
   * race. At most pool-size runs reach the driver at once; `fn` must not call run().
   */
  async function run<T>(fn: () => Promise<T>): Promise<T> {
    if (closed) throw new StoreUnavailableError();
    return gate(() => withRetries(fn));
  }

  async function withRetries<T>(fn: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await fn();
      } catch (error) {
        if (isRetryable(error) && attempt < maxRetries) continue;
        if (isUnavailable(error) || isRetryable(error)) throw new StoreUnavailableError({ cause: error });
        throw error;
      }
    }
  }

  const columns = sql`uid, username, email_address, legacy_ids, display_name, attributes, created_at, updated_at, version`;

  function rowValues(user: User) {
    return {
      uid: user.uid,
      username: user.username,
      email_address: user.email_address,
      legacy_ids: user.legacy_ids,
      display_name: user.display_name,
      display_name_key: displayNameKey(user.display_name),
      // Sent as text and cast, so the server keeps the exact text (member order);
      // a json-typed parameter would go through jsonb and be reordered.
      attributes: JSON.stringify(user.attributes),
      created_at: user.created_at,
      updated_at: user.updated_at,
      version: user.version,
    };
  }

  /** Inserts every key of `user`; throws KeyConflictError (rolling the transaction back) for the first one taken. */
  async function insertKeys(tx: TransactionSql, user: User): Promise<void> {
    const entries = keysOf(user);
    const inserted = await tx<{ key: string; value: string }[]>`
      INSERT INTO user_keys (key, value, uid)
      SELECT k, v, ${user.uid}::uuid FROM unnest(${entries.map((e) => e.key)}::text[], ${entries.map((e) => e.value)}::text[]) AS t(k, v)
      ON CONFLICT DO NOTHING
      RETURNING key, value`;
    if (inserted.length === entries.length) return;
    const done = new Set(inserted.map((row) => `${row.key}\u0000${row.value}`));
    const taken = entries.find((e) => !done.has(`${e.key}\u0000${e.value}`));
    throw new KeyConflictError(taken?.key ?? 'username');
  }

  async function lockCurrent(tx: TransactionSql, uid: string, precondition?: Precondition): Promise<WriteOutcome<User>> {
    const [row] = await tx<UserRow[]>`SELECT ${columns} FROM users WHERE uid = ${uid} FOR UPDATE`;
    if (!row) return { status: 'not-found' };
    const user = userRowToUser(row);
    if (precondition && !precondition(user)) return { status: 'precondition-failed' };
    return { status: 'ok', value: user };
  }

  await run(() => migratePostgres(sql)).catch(async (error: unknown) => {
    await sql.end({ timeout: 1 });
    throw error;
  });

  /** Inserts the user row and its keys; throws KeyConflictError (the caller's transaction or savepoint rolls back). */
  async function insertUser(tx: TransactionSql, user: User): Promise<void> {
    await tx`${userRowInsert(user)}`;
    await insertKeys(tx, user);
  }

  /** The INSERT of the user's row, as a fragment of the statements that write it. */
  function userRowInsert(user: User) {
    const v = rowValues(user);
    return sql`INSERT INTO users (uid, username, email_address, legacy_ids, display_name, display_name_key, attributes, created_at, updated_at, version)
      VALUES (${v.uid}, ${v.username}, ${v.email_address}, ${v.legacy_ids}, ${v.display_name}, ${v.display_name_key}, ${v.attributes}::text::json, ${v.created_at}, ${v.updated_at}, ${v.version})`;
  }

  /** Tries of a create whose key conflict vanished before it could be named (its holder let go). */
  const CREATE_ATTEMPTS = 3;

  /**
   * Inserts the user and its keys in one statement: one round trip, committed on
   * its own (the statement is its transaction), all or nothing. When a key is
   * taken the statement fails as a whole; only then is the first taken key looked
   * up, to name it in the KeyConflictError.
   */
  async function createUser(user: User): Promise<void> {
    const entries = keysOf(user);
    for (let attempt = 1; ; attempt++) {
      try {
        await sql`WITH inserted AS (${userRowInsert(user)} RETURNING uid)
          INSERT INTO user_keys (key, value, uid)
          SELECT t.k, t.v, inserted.uid FROM inserted, unnest(${entries.map((e) => e.key)}::text[], ${entries.map((e) => e.value)}::text[]) AS t(k, v)`;
        return;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        const holders = await holdersOf(sql, user);
        // A uid clash is a defect (uids are fresh v7 uuids), not a conflict of the client's.
        if (holders[0]?.key === 'uid') throw error;
        const taken = holders.find((holder) => holder.key !== 'uid');
        if (taken) throw new KeyConflictError(taken.key as UniqueKey);
        if (attempt === CREATE_ATTEMPTS) throw new StoreUnavailableError({ cause: error });
      }
    }
  }

  /** Writes `next` over the row of the same uid: its keys freed, then taken again. */
  async function replaceUser(tx: TransactionSql, next: User): Promise<void> {
    const v = rowValues(next);
    await tx`DELETE FROM user_keys WHERE uid = ${next.uid}`;
    await tx`UPDATE users SET username = ${v.username}, email_address = ${v.email_address}, legacy_ids = ${v.legacy_ids},
      display_name = ${v.display_name}, display_name_key = ${v.display_name_key}, attributes = ${v.attributes}::text::json,
      updated_at = ${v.updated_at}, version = ${v.version} WHERE uid = ${next.uid}`;
    await insertKeys(tx, next);
  }

  /** Who holds the user's uid and each of its keys, in key order. */
  async function holdersOf(tx: TransactionSql | postgres.Sql, user: User): Promise<Holder[]> {
    const entries = keysOf(user);
    const rows = await tx<{ key: string; value: string; uid: string }[]>`
      SELECT 'uid' AS key, uid::text AS value, uid::text AS uid FROM users WHERE uid = ${user.uid}
      UNION ALL
      SELECT k.key, k.value, k.uid::text FROM user_keys k
      JOIN unnest(${entries.map((e) => e.key)}::text[], ${entries.map((e) => e.value)}::text[]) AS t(k, v) ON k.key = t.k AND k.value = t.v`;
    const order = [{ key: 'uid', value: user.uid }, ...entries];
    return order.flatMap((entry) => {
      const row = rows.find((r) => r.key === entry.key && r.value === entry.value);
      return row ? [{ key: entry.key as Holder['key'], uid: row.uid }] : [];
    });
  }

  /** One import record inside a savepoint, so a conflict found while writing undoes only this record. */
  async function importOne(tx: TransactionSql, user: User, onConflict: OnConflict, now: string): Promise<ImportOutcome> {
    const plan = planImport(await holdersOf(tx, user), onConflict);
    if (plan.action === 'conflict') return { status: 'conflict', key: plan.key };
    try {
      return await tx.savepoint(async (sp): Promise<ImportOutcome> => {
        if (plan.action === 'create') {
          await insertUser(sp, user);
          return { status: 'created', uid: user.uid };
        }
        const found = await lockCurrent(sp, plan.uid);
        if (found.status !== 'ok') throw new KeyConflictError('username');
        const next = updatedUser(user, found.value, now);
        if (next) await replaceUser(sp, next);
        return { status: next ? 'updated' : 'unchanged', uid: found.value.uid };
      });
    } catch (error) {
      // Another writer took a key between the holder check and the write.
      if (error instanceof KeyConflictError) return { status: 'conflict', key: error.key };
      throw error;
    }
  }

  return {
    async create(user) {
      return run(async () => {
        await createUser(user);
        return user;
      });
    },

    async importUsers(users: User[], onConflict: OnConflict, now: string) {
      return run(() =>
        sql.begin(async (tx) => {
          const outcomes: ImportOutcome[] = [];
          for (const user of users) {
            const outcome = await importOne(tx, user, onConflict, now);
            outcomes.push(outcome);
            if (outcome.status === 'conflict' && onConflict === 'fail') break;
          }
          return outcomes;
        }),
      );
    },

    async findByKey(key: LookupKey, value: string) {
      const rows = await run(() =>
        key === 'uid'
          ? sql<UserRow[]>`SELECT ${columns} FROM users WHERE uid = ${value}`
          : sql<UserRow[]>`SELECT ${columns} FROM users WHERE uid = (SELECT uid FROM user_keys WHERE key = ${key} AND value = ${value})`,
      );
      return rows[0] && userRowToUser(rows[0]);
    },

    async replace(uid: string, fields: UserFields, now: string, precondition?: Precondition) {
      return run(() =>
        sql.begin(async (tx): Promise<WriteOutcome<User>> => {
          const found = await lockCurrent(tx, uid, precondition);
          if (found.status !== 'ok') return found;
          const next: User = { ...found.value, ...fields, updated_at: now, version: found.value.version + 1 };
          await replaceUser(tx, next);
          return { status: 'ok', value: next };
        }),
      );
    },

    async delete(uid: string, precondition?: Precondition) {
      return run(() =>
        sql.begin(async (tx): Promise<WriteOutcome<void>> => {
          const found = await lockCurrent(tx, uid, precondition);
          if (found.status !== 'ok') return found;
          await tx`DELETE FROM users WHERE uid = ${uid}`; // user_keys rows go with it (ON DELETE CASCADE)
          return { status: 'ok', value: undefined };
        }),
      );
    },

    async search({ filter, after, limit }: SearchPage) {
      const conditions = [sql`TRUE`];
      if (after !== undefined) conditions.push(sql`uid > ${after}::uuid`);
      for (const key of ['username', 'email_address', 'legacy_id'] as const) {
        const value = filter[key];
        if (value !== undefined) conditions.push(sql`uid IN (SELECT uid FROM user_keys WHERE key = ${key} AND value = ${value})`);
      }
      if (filter.prefix !== undefined) {
        const low = filter.prefix;
        const high = prefixUpperBound(low);
        const keyRange = high === undefined ? sql`value >= ${low}` : sql`value >= ${low} AND value < ${high}`;
        const nameRange = high === undefined ? sql`display_name_key >= ${low}` : sql`display_name_key >= ${low} AND display_name_key < ${high}`;
        conditions.push(sql`(uid IN (SELECT uid FROM user_keys WHERE key IN ('username', 'email_address') AND ${keyRange}) OR (${nameRange}))`);
      }
      const where = conditions.reduce((all, condition) => sql`${all} AND ${condition}`);
      const rows = await run(() => sql<UserRow[]>`SELECT ${columns} FROM users WHERE ${where} ORDER BY uid LIMIT ${limit}`);
      return rows.map(userRowToUser);
    },

    async cursorKey() {
      // The first instance to ask makes the key; every later one gets the same. DO UPDATE
      // (not DO NOTHING) waits for a concurrent maker and returns its row in one statement.
      const [row] = await run(() => sql<{ value: Buffer }[]>`
        INSERT INTO service_keys (name, value) VALUES ('cursor', ${randomBytes(32)})
        ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING value`);
      return (row as { value: Buffer }).value;
    },

    async ping() {
      await run(() => sql`SELECT 1`);
    },

    async close() {
      if (closed) return;
      closed = true;
      await sql.end({ timeout: 5 });
    },
  };
}

