/**
 * Set-based import of a batch on PostgreSQL: a constant number of round trips
 * per batch, whatever its size.
 *
 * 1. One query reads who holds the batch's uids and keys; with `update` it also
 *    reads and locks (FOR UPDATE) the rows of those holders, so the users an
 *    update may change cannot change under it.
 * 2. planBatch() (import-batch-plan.ts) plans every record in order, exactly as
 *    importing them one by one would, intra-batch conflicts and keys freed by an
 *    earlier update included.
 * 3. One statement writes the plan: data-modifying CTEs over the batch (sent
 *    as arrays) insert and update the users and insert, delete and move their
 *    key rows, and count what they did (postgres-bulk-sql.ts).
 *
 * Keys and uids read as free are not locked: if another writer takes one before
 * the write, the keys table's primary key refuses the statement (23505) and the
 * batch is rolled back and planned again from a fresh read, at most
 * `retries` times; a snapshot that disagrees with itself (a holder changed
 * between the read and its lock) is handled the same way. After that the batch
 * is imported record by record with savepoints (postgres-import-one-by-one.ts),
 * which cannot lose a race. Each user is all or nothing either way.
 */
import type postgres from 'postgres';
import type { TransactionSql } from 'postgres';
import { displayNameKey, emailKeysOf, type User } from '../../users/user.js';
import { searchColumn } from '../search-column.js';
import { keysOfUser, planBatch, StaleSnapshotError, type BatchSnapshot, type BatchWrites } from '../import-batch-plan.js';
import type { ImportOutcome, ImportUser, OnConflict } from '../import-plan.js';
import { profileColumn } from '../../users/user-profile.js';
import { HOLDERS_AND_LOCKED_ROWS_SQL, HOLDERS_SQL, KEY_COLUMNS, NESTED_LOOPS_SQL, textArrayLiteral, USER_COLUMNS, WRITE_SQL } from './postgres-bulk-sql.js';
import { isUniqueViolation } from './postgres-errors.js';
import { importOneByOne } from './postgres-import-one-by-one.js';
import { postgresIdempotency } from './postgres-idempotency.js';
import { batchResponse, type BatchIdempotency } from '../user-store.js';
import { userRowToUser, type UserRow } from './postgres-rows.js';
import { representationOf } from '../../users/user-representation.js';
import type { Feed } from './postgres-user-writes.js';
import type { EventOrigin } from '../../events/event-origin.js';

export interface BulkImportOptions {
  /** Whether imported users append change events. */
  feed: Feed;
  /** Who imports: kept with the events. */
  origin: EventOrigin;
  /** Fresh plans of a batch after a lost race, before falling back to record by record (default 3). */
  retries?: number;
  /** Called with the last lost race when a batch falls back to record by record. */
  onFallback?: (error: unknown) => void;
}

type HolderRow = { key: string; value: string; uid: string };

/** Holders of the batch's uids and keys, and with `merge` or `replace` their rows, locked (postgres-bulk-sql.ts). */
async function readSnapshot(tx: TransactionSql, users: readonly ImportUser[], onConflict: OnConflict): Promise<BatchSnapshot> {
  const keys = users.flatMap((u) => keysOfUser(u));
  const params = [users.map((u) => u.uid), keys.map((k) => k.key), keys.map((k) => k.value)];
  if (onConflict === 'skip' || onConflict === 'fail') {
    const rows = await tx.unsafe<HolderRow[]>(HOLDERS_SQL, params, { prepare: false });
    return { holders: rows.map(holderOf), users: [] };
  }
  const rows = await tx.unsafe<(HolderRow & Partial<UserRow>)[]>(HOLDERS_AND_LOCKED_ROWS_SQL, params, { prepare: false });
  return {
    holders: rows.filter((row) => row.key !== null).map(holderOf),
    users: rows.filter((row) => row.key === null).map((row) => userRowToUser(row as UserRow)),
  };
}

function holderOf(row: HolderRow): BatchSnapshot['holders'][number] {
  return { key: row.key as BatchSnapshot['holders'][number]['key'], value: row.value, uid: row.uid };
}

/** The parameters of WRITE_SQL: the users (op 'insert' or 'update', final row), the key rows (op 'insert', 'delete' or 'move'), a column each, then the users' representations, the events' time, the feed switch and the users' ETags. */
function writeParameters(writes: BatchWrites, now: string, feed: Feed, origin: EventOrigin): (string | boolean | null | (string | null)[])[] {
  const users = [...writes.inserts.map((user) => ['insert', user] as const), ...writes.updates.map((user) => ['update', user] as const)];
  const userColumn = (column: (typeof USER_COLUMNS)[number]) =>
    users.map(([op, user]): string | null => {
      switch (column) {
        case 'op':
          return op;
        case 'legacy_ids':
          return textArrayLiteral(user.legacy_ids);
        case 'display_name_key':
          return displayNameKey(user.display_name);
        case 'attributes':
          return JSON.stringify(user.attributes);
        case 'version':
          return String(user.version);
        default:
          return user[column] as string | null;
      }
    });
  const keys = [
    ...writes.keyInserts.map((row) => ({ op: 'insert', ...row })),
    ...writes.keyDeletes.map((row) => ({ op: 'delete', ...row })),
    ...writes.keyMoves.map((row) => ({ op: 'move', ...row })),
  ];
  const representations = users.map(([, user]) => representationOf(user));
  return [
    ...USER_COLUMNS.map(userColumn),
    ...KEY_COLUMNS.map((column) => keys.map((row) => row[column])),
    representations.map((r) => r.json),
    now,
    feed.enabled,
    representations.map((r) => r.etag),
    users.map(([, user]) => user.external_id),
    users.map(([, user]) => String(user.active)),
    users.map(([, user]) => profileColumn(user)),
    origin.interface,
    origin.credential ?? null,
    origin.client ?? null,
    users.map(([, user]) => searchColumn(user)),
  ];
}

interface WriteCounts {
  inserted: number;
  updated: number;
  keys_inserted: number;
  keys_deleted: number;
  keys_moved: number;
}

async function writeBatch(tx: TransactionSql, writes: BatchWrites, now: string, feed: Feed, origin: EventOrigin): Promise<WriteCounts> {
  const [counts] = await tx.unsafe<WriteCounts[]>(WRITE_SQL, writeParameters(writes, now, feed, origin) as never[], { prepare: false });
  await indexEmails(tx, writes);
  return counts as WriteCounts;
}

/** The written users' rows of user_emails: those of updated users made again, every address once. */
async function indexEmails(tx: TransactionSql, writes: BatchWrites): Promise<void> {
  const written = [...writes.inserts, ...writes.updates];
  if (written.length === 0) return;
  if (writes.updates.length > 0) await tx`DELETE FROM user_emails WHERE uid = ANY(${writes.updates.map((u) => u.uid)}::uuid[])`;
  const rows = written.flatMap((user) => emailKeysOf(user).map((value) => [value, user.uid] as const));
  await tx`INSERT INTO user_emails (value, uid) SELECT * FROM unnest(${rows.map((r) => r[0])}::text[], ${rows.map((r) => r[1])}::uuid[]) ORDER BY 1`;
}

async function importOnce(tx: TransactionSql, users: readonly ImportUser[], onConflict: OnConflict, now: string, { feed, origin }: BulkImportOptions): Promise<ImportOutcome[]> {
  const planning = tx.unsafe(NESTED_LOOPS_SQL).execute(); // sent together with the read: no round trip of its own
  const snapshot = await readSnapshot(tx, users, onConflict);
  await planning;
  const plan = planBatch(users, onConflict, now, snapshot);
  const { writes } = plan;
  const expected: WriteCounts = {
    inserted: writes.inserts.length,
    updated: writes.updates.length,
    keys_inserted: writes.keyInserts.length,
    keys_deleted: writes.keyDeletes.length,
    keys_moved: writes.keyMoves.length,
  };
  if (Object.values(expected).some((n) => n > 0)) {
    const counts = await writeBatch(tx, writes, now, feed, origin);
    // Rows locked or planned that were not where the plan put them: the snapshot went stale.
    const off = (Object.keys(expected) as (keyof WriteCounts)[]).filter((part) => counts[part] !== expected[part]);
    if (off.length > 0) throw new StaleSnapshotError(off.map((part) => `${part}: wrote ${counts[part]}, planned ${expected[part]}`).join('; '));
  }
  return plan.outcomes;
}

/** Runs `write` in `tx` under the batch's Idempotency-Key: claimed first, answered with the outcomes before commit. */
async function underKey(tx: TransactionSql, key: BatchIdempotency | undefined, write: () => Promise<ImportOutcome[]>): Promise<ImportOutcome[]> {
  if (key) await postgresIdempotency.claim(tx, key, Date.now());
  const outcomes = await write();
  if (key) await postgresIdempotency.answer(tx, key, batchResponse(outcomes));
  return outcomes;
}

/** Imports `users` (one batch) with the outcomes of UserStore.importUsers. */
export async function importBatch(
  sql: postgres.Sql,
  users: readonly ImportUser[],
  onConflict: OnConflict,
  now: string,
  options: BulkImportOptions,
  key?: BatchIdempotency,
): Promise<ImportOutcome[]> {
  const retries = options.retries ?? 3;
  let lastError: unknown;
  for (let attempt = 0; attempt <= retries; attempt++) {
    try {
      return await sql.begin((tx) => underKey(tx, key, () => importOnce(tx, users, onConflict, now, options)));
    } catch (error) {
      // Another writer took a key or uid the plan counted as free, or changed a holder: plan again.
      if (!(isUniqueViolation(error) || error instanceof StaleSnapshotError)) throw error;
      lastError = error;
    }
  }
  options.onFallback?.(lastError);
  return sql.begin((tx) => underKey(tx, key, () => importOneByOne(tx, users, onConflict, now, options.feed, options.origin)));
}
