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
 * 3. The plan's rows go by COPY into staging tables (postgres-copy.ts), then one
 *    statement writes them: data-modifying CTEs insert and update the users and
 *    insert, delete and move their key rows, and count what they did; two more
 *    write the inserted users' terms and the written users' addresses
 *    (postgres-bulk-sql.ts).
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
import { searchOf } from '../search-column.js';
import { keysOfUser, planBatch, StaleSnapshotError, type BatchSnapshot, type BatchWrites } from '../import-batch-plan.js';
import type { ImportOutcome, ImportUser, OnConflict } from '../import-plan.js';
import {
  EMAIL_COLUMNS, EMAILS_OF_UPDATED_SQL, EMAILS_SQL, HOLDERS_AND_LOCKED_ROWS_SQL, HOLDERS_SQL, KEY_COLUMNS, NESTED_LOOPS_SQL, STAGING_SQL, TERM_COLUMNS, TERMS_BY_IMPORT_SQL, TERMS_SQL,
  textArrayLiteral, USER_COLUMNS, WRITE_SQL,
} from './postgres-bulk-sql.js';
import { copyRow, copyRows } from './postgres-copy.js';
import { isUniqueViolation } from './postgres-errors.js';
import { importOneByOne } from './postgres-import-one-by-one.js';
import { MARK_TERMS_DEFERRED_SQL } from './postgres-bulk-load.js';
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
  /** A bulk load's batch (postgres-bulk-load.ts): the word and facet entries are left to its end, and the batch marks them deferred. */
  termsDeferred?: boolean;
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

/** The COPY rows of import_user_rows (USER_COLUMNS order), and the `user_terms` entries of the inserted users. */
function userRows(writes: BatchWrites, withTerms: boolean): { rows: string[]; terms: string[] } {
  const rows: string[] = [];
  const terms: string[] = [];
  const add = (op: 'insert' | 'update', user: User): void => {
    const representation = representationOf(user);
    const search = searchOf(user);
    rows.push(
      copyRow([
        op,
        user.uid,
        user.username,
        user.email_address,
        textArrayLiteral(user.legacy_ids),
        user.display_name,
        displayNameKey(user.display_name),
        JSON.stringify(user.attributes),
        user.created_at,
        user.updated_at,
        String(user.version),
        representation.json,
        representation.etag,
        user.external_id,
        String(user.active),
        search.column,
      ]),
    );
    if (op === 'insert' && withTerms) for (const term of search.terms) terms.push(termRow(term, user.uid));
  };
  for (const user of writes.inserts) add('insert', user);
  for (const user of writes.updates) add('update', user);
  return { rows, terms };
}

/** The COPY row of import_term_rows of a `field:value` term (search-column.ts), split where the triggers split it: at the first colon. */
function termRow(term: string, uid: string): string {
  const colon = term.indexOf(':');
  return copyRow([term.slice(0, colon), term.slice(colon + 1), uid]);
}

function keyRows(writes: BatchWrites): string[] {
  const row = (op: string, { key, value, uid }: { key: string; value: string; uid: string }) => copyRow([op, key, value, uid]);
  return [...writes.keyInserts.map((r) => row('insert', r)), ...writes.keyDeletes.map((r) => row('delete', r)), ...writes.keyMoves.map((r) => row('move', r))];
}

/** Every address of each written user's `emails`, once. */
function emailRows(writes: BatchWrites): string[] {
  return [...writes.inserts, ...writes.updates].flatMap((user) => emailKeysOf(user).map((value) => copyRow([value, user.uid])));
}

interface WriteCounts {
  inserted: number;
  updated: number;
  keys_inserted: number;
  keys_deleted: number;
  keys_moved: number;
}

/**
 * Copies the batch's rows into the staging tables, then writes them with set-based
 * statements (postgres-bulk-sql.ts). The inserted users' word and facet entries are
 * written by the import in the same transaction, sorted, instead of by the insert
 * trigger: no user is ever committed without its words, whoever else writes. In a bulk
 * load (`termsDeferred`) the batch writes none and marks the word index for the rebuild
 * at the load's end instead (postgres-bulk-load.ts).
 */
async function writeBatch(tx: TransactionSql, writes: BatchWrites, now: string, { feed, origin, termsDeferred = false }: BulkImportOptions): Promise<WriteCounts> {
  const users = userRows(writes, !termsDeferred);
  await tx.unsafe(STAGING_SQL).simple();
  await copyRows(tx, 'import_user_rows', USER_COLUMNS, users.rows);
  await copyRows(tx, 'import_key_rows', KEY_COLUMNS, keyRows(writes));
  await copyRows(tx, 'import_email_rows', EMAIL_COLUMNS, emailRows(writes));
  if (!termsDeferred) await copyRows(tx, 'import_term_rows', TERM_COLUMNS, users.terms);
  // Sent together, one round trip: the trigger switch, the write, the terms (or the mark that they are left to the load's end) and the addresses (in this order).
  const switched = tx.unsafe(TERMS_BY_IMPORT_SQL).execute();
  const written = tx.unsafe<WriteCounts[]>(WRITE_SQL, [now, feed.enabled, origin.interface, origin.credential ?? null, origin.client ?? null], { prepare: false }).execute();
  const termed = tx.unsafe(termsDeferred ? MARK_TERMS_DEFERRED_SQL : TERMS_SQL).execute();
  const unlisted = writes.updates.length > 0 ? tx.unsafe(EMAILS_OF_UPDATED_SQL).simple() : undefined;
  const emailed = tx.unsafe(EMAILS_SQL).simple();
  await switched;
  const [counts] = await written;
  await Promise.all([termed, unlisted, emailed]);
  return counts as WriteCounts;
}

async function importOnce(tx: TransactionSql, users: readonly ImportUser[], onConflict: OnConflict, now: string, options: BulkImportOptions): Promise<ImportOutcome[]> {
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
    const counts = await writeBatch(tx, writes, now, options);
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
