/**
 * UserStore on PostgreSQL through postgres.js: a bounded pool, prepared
 * statements, a statement timeout, and synchronous_commit=on set explicitly on
 * every connection, so a returned write has been flushed to the WAL. The keys
 * table's primary key enforces uniqueness across every instance sharing the
 * database. The conflicting key is always named without parsing error text: a
 * create is one statement, and when it fails on a unique key the taken key is
 * looked up; updates insert keys with ON CONFLICT DO NOTHING and roll back
 * (postgres-user-writes.ts). Imports are set-based, a few round trips per batch
 * (postgres-bulk-import.ts). At most PG_POOL_MAX operations reach the driver at
 * once (in-flight-gate.ts).
 */
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { type LookupKey, type UniqueKey, type User } from '../../users/user.js';
import { representationOf, withStoredRepresentation } from '../../users/user-representation.js';
import { AbandonedWrite, IdempotencyKeyTaken, KeyConflictError, StoreUnavailableError } from '../store-errors.js';
import type { ImportUser, OnConflict } from '../import-plan.js';
import type { BatchIdempotency, Change, IdempotencyRecord, PendingIdempotency, Positioned, Precondition, SearchFilter, SearchPage, UserStore, WriteOutcome } from '../user-store.js';
import { postgresEventLog } from './postgres-event-log.js';
import { postgresLeadership } from './postgres-leadership.js';
import { IMPORT_ORIGIN, type EventOrigin } from '../../events/event-origin.js';
import { claimStatement, postgresIdempotency } from './postgres-idempotency.js';
import { inFlightGate, type Lane } from './in-flight-gate.js';
import { importBatch } from './postgres-bulk-import.js';
import { answerLost, isRetryable, isStoreFull, isUniqueViolation, mayMeanPrimaryLost, neverSent, storeFullOr, translatePostgresError } from './postgres-errors.js';
import { followPrimary } from './primary-follower.js';
import { migratePostgres } from './postgres-migrations.js';
import { buildMissingIndexes, setAsideIndexes } from './postgres-bulk-load.js';
import { postgresSearch } from './postgres-search.js';
import { runUntil } from './deadline-run.js';
import { READ_LANE_WAITING, readLane } from '../read-lane.js';
import { mapInSlices } from '../../event-loop-slices.js';
import { walkMark } from '../../users/search-match.js';
import { USER_SELECT_COLUMNS, userRowToUser, type UserRow } from './postgres-rows.js';
import { createStatement, deleteUser, holdersOf, lockCurrent, replaceUser, type Feed } from './postgres-user-writes.js';
import { MARK_TTL_MS, type PageMark } from '../page-marks.js';
import { noDelaySockets } from './no-delay-socket.js';

export { userRowToUser } from './postgres-rows.js';

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
  /** How many times an import batch whose set-based write lost a race is planned again before it goes record by record. */
  importRetries?: number;
  /** Called when an import batch goes record by record after losing every race (for logs and tests). */
  onImportFallback?: (error: unknown) => void;
  /** Whether writes append change events (default true; CHANGE_FEED=off). */
  changeFeed?: boolean;
  /** Most index entries a condition may name to drive a search page (store/search-plan.ts; tests lower it). */
  searchDriveBound?: number;
  /** Most index entries each of two intersected conditions may name (store/search-plan.ts; tests lower it). */
  searchIntersectBound?: number;
  /** Hears errors of the store's own background work (the feed's sequencer); they are retried at its next run. */
  onBackgroundError?: (error: unknown) => void;
  /** Hears each move to another primary and each stale writer refused (DATABASE_URL naming several hosts). */
  onFailoverEvent?: (event: { kind: 'primary-changed' | 'stale-writer'; host: string; timeline: number | undefined }) => void;
}

/** Client settings applied to every pooled connection. synchronous_commit is set explicitly, never inherited. */
export function postgresClientOptions(options: PostgresStoreOptions) {
  return {
    max: options.poolMax ?? 10,
    prepare: true,
    connect_timeout: Math.ceil((options.connectTimeoutMs ?? 5000) / 1000),
    idle_timeout: 60,
    onnotice: () => {},
    // Nagle's algorithm off: a COPY's last message otherwise waits 40 ms for an acknowledgement (no-delay-socket.ts).
    socket: noDelaySockets(),
    connection: {
      application_name: 'user-service',
      synchronous_commit: 'on',
      statement_timeout: options.statementTimeoutMs ?? 5000,
      // A generic plan of a search page (LIMIT unknown) is costed as if it read a tenth of the
      // table, which crosses jit_above_cost: compiling it took 20 ms for a page read in 1 ms.
      jit: 'off',
    },
    // `socket` is documented by postgres.js (its README, "Custom socket") but missing from its types.
  } satisfies postgres.Options<Record<string, never>> & { socket: ReturnType<typeof noDelaySockets> };
}

export async function openPostgresUserStore(options: PostgresStoreOptions): Promise<UserStore> {
  const clientOptions = postgresClientOptions(options);
  const follower = await followPrimary(options.url, clientOptions, {
    connectTimeoutMs: options.connectTimeoutMs ?? 5000,
    ...(options.onFailoverEvent ? { onEvent: options.onFailoverEvent } : {}),
  });
  const sql = follower.sql;
  const maxRetries = options.maxRetries ?? 5;
  const gate = inFlightGate(clientOptions.max);
  let closed = false;

  /**
   * Runs `fn` with driver errors translated; re-runs a transaction that lost a
   * race. At most pool-size runs reach the driver at once; `fn` must not call run().
   */
  async function run<T>(fn: () => Promise<T>, lane?: Lane): Promise<T> {
    if (closed) throw new StoreUnavailableError();
    return gate(() => withRetries(fn), lane);
  }

  /**
   * Re-runs a transaction that lost a race; after an error that may mean the primary is
   * gone, waits for the primary to be found (primary-follower.ts) and re-runs the work
   * only when it never reached a server that could run it (postgres-errors.ts: neverSent).
   * A write whose answer was lost is never re-run here: its outcome is unknown (written()).
   */
  async function withRetries<T>(fn: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await fn();
      } catch (error) {
        if (isRetryable(error) && attempt < maxRetries) continue;
        if (follower.replicated && mayMeanPrimaryLost(error) && !closed) {
          const found = await follower.recover();
          if (found && neverSent(error) && attempt < maxRetries) continue;
          // Nothing reached a writable server: unavailable (503), not out of space (507).
          if (isStoreFull(error)) throw new StoreUnavailableError({ cause: error });
        }
        throw translatePostgresError(error);
      }
    }
  }

  /**
   * Runs an expensive read in the read lane (read-lane.ts: at most half the pool at once, so
   * reads by key and writes always find a connection), its statements bounded by its deadline.
   */
  const lane = readLane(Math.max(1, Math.floor(clientOptions.max / 2)), READ_LANE_WAITING);
  const expensive = <T>(deadline: number | undefined, fn: (read: typeof run) => Promise<T>): Promise<T> => lane.run(deadline, () => fn(runUntil(run, deadline)));

  const columns = sql`${sql.unsafe(USER_SELECT_COLUMNS)}`;
  const feed: Feed = { enabled: options.changeFeed !== false };
  let marksSaved = 0;

  const searching = postgresSearch(sql, options.searchDriveBound, options.searchIntersectBound);
  const events = postgresEventLog(sql, run, options.onBackgroundError ?? (() => {}));

  /**
   * Rows read with the feed position they reflect: the position this instance knew before
   * the query was sent (postgres-event-log.ts: known()), so no query of its own.
   */
  async function positionedRows<R extends object>(query: postgres.PendingQuery<postgres.Row[]>, read: typeof run = run): Promise<Positioned<R[]>> {
    const position = events.known();
    const rows = await read(() => sql<R[]>`${query}`);
    return { value: rows as unknown as R[], position };
  }

  /** Users read with the feed position they reflect. */
  async function positionedRead(usersQuery: postgres.PendingQuery<postgres.Row[]>): Promise<Positioned<User[]>> {
    const { value, position } = await positionedRows<UserRow>(usersQuery);
    return { value: value.map(userRowToUser), position };
  }

  /** `SELECT <what> FROM users` where the user holds `value` under `key`. */
  const byKey = (key: LookupKey | 'external_id', value: string, what = columns) =>
    key === 'uid'
      ? sql`SELECT ${what} FROM users WHERE uid = ${value}`
      : sql`SELECT ${what} FROM users WHERE uid = (SELECT uid FROM user_keys WHERE key = ${key} AND value = ${value})`;
  const storedColumns = sql`uid, representation, etag`;
  type StoredRow = { uid: string; representation: string | null; etag: string | null };

  /** Every write of this store tells the feed, so its events get positions at once. */
  async function written<T>(write: Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await write;
    } catch (error) {
      // The connection broke while the write ran or committed: it may have taken effect.
      if (error instanceof StoreUnavailableError && answerLost(error.cause)) throw new StoreUnavailableError({ cause: error.cause, outcomeUnknown: true });
      throw error;
    }
    events.committed();
    return result;
  }

  // A bulk load that stopped before its end left its deferred indexes unbuilt (postgres-bulk-load.ts).
  await run(async () => (await migratePostgres(sql), await buildMissingIndexes(sql))).catch(async (error: unknown) => {
    await follower.close().catch(() => {});
    throw error;
  });
  await events.listen().catch(async (error: unknown) => {
    await events.close();
    await follower.close().catch(() => {});
    throw translatePostgresError(error);
  });
  // Sessions of the former primary are gone with it: the LISTEN connection follows at once.
  follower.onChange(() => events.relisten());

  /** Whether this store began a bulk load whose word index it rebuilds at the end (beginBulkLoad). */
  let termsDeferred = false;

  /** Tries of a create whose key conflict vanished before it could be named (its holder let go). */
  const CREATE_ATTEMPTS = 3;

  /**
   * Inserts the user and its keys in one statement (createStatement(), postgres-user-writes.ts):
   * one round trip, committed on its own (the statement is its transaction), all or nothing.
   * When a key is taken the statement fails as a whole; only then is the first taken key
   * looked up, to name it in the KeyConflictError.
   */
  async function createUser(user: User, pending?: PendingIdempotency, origin?: EventOrigin): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        if (pending === undefined) {
          await sql`${createStatement(sql, user, feed, user.created_at, origin, false)}`;
          return;
        }
        // The key is claimed in the same statement: a recorded key inserts nothing at all.
        const claim = claimStatement(sql, pending, pending.respond(user), Date.now(), user.uid);
        const keys = await sql<{ key: string }[]>`${createStatement(sql, user, feed, user.created_at, origin, false, claim)}`;
        if (keys.length === 0) throw new IdempotencyKeyTaken();
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

  return {
    async create(user, pending, origin) {
      return written(
        run(async () => {
          await createUser(user, pending, origin);
          return user;
        }),
      );
    },

    async importUsers(users: readonly ImportUser[], onConflict: OnConflict, now: string, key?: BatchIdempotency, origin: EventOrigin = IMPORT_ORIGIN) {
      const bulk = { feed, origin, retries: options.importRetries ?? 3, termsDeferred, ...(options.onImportFallback ? { onFallback: options.onImportFallback } : {}) };
      return written(run(() => importBatch(sql, users, onConflict, now, bulk, key)));
    },

    async beginBulkLoad() {
      const began = await run(() => setAsideIndexes(sql));
      termsDeferred ||= began;
      return began;
    },

    async finishBulkLoad() {
      const built = await run(() => buildMissingIndexes(sql, termsDeferred));
      termsDeferred = false;
      return built;
    },

    async findByKey(key: LookupKey | 'external_id', value: string) {
      const rows = await run(() => sql<UserRow[]>`${byKey(key, value)}`);
      return rows[0] && userRowToUser(rows[0]);
    },

    async lookup(key: LookupKey | 'external_id', value: string) {
      const { value: rows, position } = await positionedRows<StoredRow>(byKey(key, value, storedColumns));
      const row = rows[0];
      if (row === undefined) return { value: undefined, position };
      if (row.representation !== null && row.etag !== null) return { value: { uid: row.uid, json: row.representation, etag: row.etag }, position };
      // A row without one (written by an earlier release: migration 6) is rendered from its columns.
      const [full] = await run(() => sql<UserRow[]>`${byKey('uid', row.uid)}`);
      return { value: full && representationOf(userRowToUser(full)), position };
    },

    async replace(uid: string, change: Change, now: string, precondition?: Precondition, pending?: PendingIdempotency, origin?: EventOrigin) {
      try {
        return await written(run(() =>
          sql.begin(async (tx): Promise<WriteOutcome<User>> => {
            // Claimed before the user is read: a retry gets the recorded answer, whatever happened to the user since.
            if (pending) await postgresIdempotency.claim(tx, pending, Date.now());
            const found = await lockCurrent(tx, uid, precondition);
            if (found.status !== 'ok') throw new AbandonedWrite(found);
            const fields = typeof change === 'function' ? change(found.value) : change;
            const next: User = fields === undefined ? found.value : { ...found.value, ...fields, updated_at: now, version: found.value.version + 1 };
            if (fields !== undefined) await replaceUser(tx, next, feed, origin);
            if (pending) await postgresIdempotency.answer(tx, pending, pending.respond(next), uid);
            return { status: 'ok', value: next };
          }),
        ));
      } catch (error) {
        if (error instanceof AbandonedWrite) return error.outcome as WriteOutcome<User>;
        throw error;
      }
    },

    async delete(uid: string, precondition?: Precondition, origin?: EventOrigin) {
      return written(
        run(() =>
          sql.begin(async (tx): Promise<WriteOutcome<void>> => {
            const found = await lockCurrent(tx, uid, precondition);
            if (found.status !== 'ok') return found;
            await deleteUser(tx, found.value, feed, origin);
            return { status: 'ok', value: undefined };
          }),
        ),
      );
    },

    async search(page: SearchPage) {
      const { value: rows, position } = await expensive(page.deadline, async (read) => {
        // With the stored representation (`stored`, read for the profile too), which the page sends as it is (withStoredRepresentation()).
        const { query } = await searching.page(read, sql`${columns}, etag`, page);
        return positionedRows<UserRow & { etag: string | null; walk_end: boolean }>(query, read);
      });
      const found = rows.filter((row) => !row.walk_end);
      const end = rows.find((row) => row.walk_end);
      const value = await mapInSlices(found, (row) => withStoredRepresentation(userRowToUser(row), row.stored ?? null, row.etag));
      // A page the walk filled ends at its last user; one the walk limit ended continues after the last user read.
      return end === undefined || found.length >= page.limit ? { value, position } : { value, position, walkedTo: walkMark(userRowToUser(end), page.sort) };
    },

    async pageMark(key: string, now: number) {
      const [row] = await run(() => sql<{ after: string; total: string }[]>`SELECT after::text, total FROM page_marks WHERE key = ${key} AND set_at > ${now - MARK_TTL_MS}`);
      return row === undefined ? undefined : { after: row.after, total: Number(row.total) };
    },

    async savePageMark(key: string, mark: PageMark, now: number) {
      await run(() => sql`INSERT INTO page_marks (key, after, total, set_at) VALUES (${key}, ${mark.after}::uuid, ${mark.total}, ${now})
        ON CONFLICT (key) DO UPDATE SET after = EXCLUDED.after, total = EXCLUDED.total, set_at = EXCLUDED.set_at`);
      // Expired marks go a few at a time with the writes that outdate them: no timer, no unbounded table.
      if (++marksSaved % 100 === 0) await run(() => sql`DELETE FROM page_marks WHERE key IN (SELECT key FROM page_marks WHERE set_at <= ${now - MARK_TTL_MS} LIMIT 1000)`);
    },

    async count(filter: SearchFilter, deadline?: number) {
      return expensive(deadline, async (read) => {
        const { query } = await searching.countQuery(read, filter);
        const [row] = await read(() => sql<{ n: number }[]>`${query}`);
        return (row as { n: number }).n;
      });
    },

    async countMatches(filter: SearchFilter, bound: number, deadline?: number) {
      return expensive(deadline, (read) => searching.countMatches(read, filter, bound));
    },

    events,

    ...(follower.replicated ? { failover: () => follower.stats() } : {}),

    leadership(name: string) {
      return postgresLeadership(() => follower.url(), name);
    },

    async refreshStatistics() {
      // Sampling a million rows takes longer than a request's statement timeout.
      await run(() => sql.begin(async (tx) => {
        await tx`SET LOCAL statement_timeout = 0`;
        await tx`ANALYZE users, user_keys, user_emails, user_terms`;
      }));
    },

    async cursorKey() {
      // The first instance to ask makes the key; every later one gets the same. DO UPDATE
      // (not DO NOTHING) waits for a concurrent maker and returns its row in one statement.
      const [row] = await run(() => sql<{ value: Buffer }[]>`
        INSERT INTO service_keys (name, value) VALUES ('cursor', ${randomBytes(32)})
        ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING value`);
      return (row as { value: Buffer }).value;
    },

    async findIdempotency(scope: string, key: string, now: number) {
      return run(() => postgresIdempotency.find(sql, scope, key, now));
    },

    async saveIdempotency(record: IdempotencyRecord, now: number) {
      return run(() => postgresIdempotency.save(sql, record, now));
    },

    async purgeIdempotency(now: number, limit: number) {
      return run(() => postgresIdempotency.purge(sql, now, limit));
    },

    async ping() {
      await run(() => sql`SELECT 1`);
    },

    async close() {
      if (closed) return;
      await events.close();
      closed = true;
      await follower.close();
    },

    async probeWrite() {
      // A row of its own name (instances probe at once without waiting on each other's key) of
      // 64 KiB, as much as a large user write takes: its value goes to the TOAST table, which may
      // have to grow. The transaction commits (synchronous_commit=on: its WAL is flushed) and
      // leaves nothing behind.
      const name = `space-probe:${randomBytes(8).toString('hex')}`;
      await run(async () => {
        try {
          await sql.begin(async (tx) => {
            await tx`INSERT INTO service_keys (name, value) VALUES (${name}, ${randomBytes(65536)})`;
            await tx`DELETE FROM service_keys WHERE name = ${name}`;
          });
        } catch (error) {
          // Lack of space is said here; races and outages are run()'s to retry and translate.
          throw storeFullOr(error);
        }
      });
    },
  };
}

