/**
 * The statements that write one user, shared by the store's create, replace and
 * delete and by the record-by-record import. Each runs on the caller's
 * connection or transaction; a taken key throws KeyConflictError naming it,
 * found without parsing error text (keys are inserted with ON CONFLICT DO
 * NOTHING, and a missing one is the taken one), and the caller's transaction or
 * savepoint rolls back.
 */
import type postgres from 'postgres';
import type { TransactionSql } from 'postgres';
import type { EventType } from '../../events/event-log.js';
import type { EventOrigin } from '../../events/event-origin.js';
import { emailKeysOf, keysOf, type User } from '../../users/user.js';
import { representationOf } from '../../users/user-representation.js';
import type { Holder } from '../import-plan.js';
import { KeyConflictError } from '../store-errors.js';
import { postgresIdempotency } from './postgres-idempotency.js';
import type { Precondition, WriteOutcome } from '../user-store.js';
import { rowValues, USER_SELECT_COLUMNS, userRowToUser, type UserRow } from './postgres-rows.js';

type Connection = TransactionSql | postgres.Sql;

/**
 * The INSERT of the user's row, as a fragment of the statements that write it.
 * With `fromClaimed`, the row is selected from the CTE `claimed` (an
 * Idempotency-Key's claim, postgres-idempotency.ts): no claim, no row.
 */
export function userRowInsert(sql: Connection, user: User, fromClaimed = false) {
  const v = rowValues(user);
  const source = fromClaimed ? sql`FROM claimed` : sql``;
  return sql`INSERT INTO users (uid, username, email_address, legacy_ids, display_name, display_name_key, attributes, created_at, updated_at, version,
      external_id, active, profile, representation, etag, search)
    SELECT ${v.uid}::uuid, ${v.username}::text, ${v.email_address}::text, ${v.legacy_ids}::text[], ${v.display_name}::text, ${v.display_name_key}::text,
      ${v.attributes}::text::json, ${v.created_at}::timestamptz, ${v.updated_at}::timestamptz, ${v.version}::int,
      ${v.external_id}::text, ${v.active}::boolean, ${v.profile}::text::json, ${v.representation}::text, ${v.etag}::text, ${v.search}::text ${source}`;
}

/** The INSERT of the user's rows in user_emails (every address, canonical), for the uid `from` yields (a CTE of the inserted row). */
export function emailRowsInsert(sql: Connection, user: User, from: ReturnType<Connection>) {
  return sql`INSERT INTO user_emails (value, uid) SELECT e, uid FROM ${from}, unnest(${emailKeysOf(user)}::text[]) AS e`;
}

/**
 * Whether writes append change events (CHANGE_FEED). Positions are given after
 * commit (postgres-sequencer.ts), in the order of the outbox's `id`. So that this
 * order is commit order for writes that conflict (the same user, or a key one
 * lets go and another takes), a write takes its event's `id` only once it holds
 * every lock it needs: after its row lock and its key inserts, which wait for a
 * conflicting transaction to end. Writes that do not conflict may be numbered in
 * either order; no consumer can tell.
 */
export interface Feed {
  enabled: boolean;
}

/** A change event to append once the write holds its locks. */
export interface PendingEvent {
  type: EventType;
  subject: string;
  time: string;
  data: string;
  origin?: EventOrigin;
}

/**
 * The INSERT of `event` as a CTE body that waits for every row of the CTE
 * `after` (an aggregate reads them all before the event row exists, and with it
 * its id), and appends nothing unless `after` yielded `rows` rows (default: any).
 */
export function eventAfter(sql: Connection, feed: Feed, event: PendingEvent, after: string, rows?: number) {
  const enough = rows === undefined ? sql`w.n > 0` : sql`w.n = ${rows}`;
  const { origin } = event;
  return sql`INSERT INTO events (type, subject, time, data, origin_interface, origin_credential, origin_client)
    SELECT ${event.type}, ${event.subject}::uuid, ${event.time}::timestamptz, ${event.data},
      ${origin?.interface ?? null}::text, ${origin?.credential ?? null}::text, ${origin?.client ?? null}::text
    FROM (SELECT count(*) AS n FROM ${sql(after)}) w WHERE ${feed.enabled} AND ${enough}`;
}

/**
 * Inserts every key of `user`, then `event` (if any) when all were inserted;
 * throws KeyConflictError for the first one taken.
 */
export async function insertKeys(tx: TransactionSql, user: User, feed?: Feed, event?: PendingEvent): Promise<void> {
  const entries = keysOf(user);
  const appended = feed && event ? tx`, appended AS (${eventAfter(tx, feed, event, 'keyed', entries.length)})` : tx``;
  const inserted = await tx<{ key: string; value: string }[]>`
    WITH keyed AS (
      INSERT INTO user_keys (key, value, uid)
      SELECT k, v, ${user.uid}::uuid FROM unnest(${entries.map((e) => e.key)}::text[], ${entries.map((e) => e.value)}::text[]) AS t(k, v)
      ON CONFLICT DO NOTHING
      RETURNING key, value
    )${appended}
    SELECT key, value FROM keyed`;
  if (inserted.length === entries.length) return;
  const done = new Set(inserted.map((row) => `${row.key}\u0000${row.value}`));
  const taken = entries.find((e) => !done.has(`${e.key}\u0000${e.value}`));
  throw new KeyConflictError(taken?.key ?? 'username');
}

/** The event of a user written: the user as the API represents it (the text stored with the row). */
export const userEvent = (type: 'user.created' | 'user.updated', user: User, time: string, origin?: EventOrigin): PendingEvent => ({
  type,
  subject: user.uid,
  time,
  data: representationOf(user).json,
  origin,
});

/** Inserts the user row and its keys, and its `user.created` event at `time`. */
export async function insertUser(tx: TransactionSql, user: User, feed: Feed, time: string, origin?: EventOrigin): Promise<void> {
  await tx`WITH inserted AS (${userRowInsert(tx, user)} RETURNING uid) ${emailRowsInsert(tx, user, tx`inserted`)}`;
  await insertKeys(tx, user, feed, userEvent('user.created', user, time, origin));
}

/** Writes `next` over the row of the same uid (its keys freed, then taken again), and its `user.updated` event. */
export async function replaceUser(tx: TransactionSql, next: User, feed: Feed, origin?: EventOrigin): Promise<void> {
  const v = rowValues(next);
  await tx`DELETE FROM user_keys WHERE uid = ${next.uid}`;
  await tx`DELETE FROM user_emails WHERE uid = ${next.uid}`;
  await tx`INSERT INTO user_emails (value, uid) SELECT e, ${next.uid}::uuid FROM unnest(${emailKeysOf(next)}::text[]) AS e`;
  await tx`UPDATE users SET username = ${v.username}, email_address = ${v.email_address}, legacy_ids = ${v.legacy_ids},
    display_name = ${v.display_name}, display_name_key = ${v.display_name_key}, attributes = ${v.attributes}::text::json,
    updated_at = ${v.updated_at}, version = ${v.version}, external_id = ${v.external_id}, active = ${v.active}, profile = ${v.profile}::text::json,
    representation = ${v.representation}, etag = ${v.etag}, search = ${v.search} WHERE uid = ${next.uid}`;
  await insertKeys(tx, next, feed, userEvent('user.updated', next, next.updated_at, origin));
}

/**
 * Deletes the locked user (its keys go with it, ON DELETE CASCADE), erases its personal
 * data from its earlier events and from the Idempotency-Key answers that carry it
 * (erasure.ts), and appends its `user.deleted` event: the uid and the last version.
 * The earlier events are locked in id order, the order the sequencer locks them in
 * (postgres-sequencer.ts), so a delete and a sequencer run wait for each other at
 * most, never deadlock.
 */
export async function deleteUser(tx: TransactionSql, user: User, feed: Feed, origin?: EventOrigin): Promise<void> {
  const event: PendingEvent = { type: 'user.deleted', subject: user.uid, time: new Date().toISOString(), data: JSON.stringify({ uid: user.uid, version: user.version }), origin };
  await tx`UPDATE events SET data = format('{"uid":"%s","version":%s,"erased":true}', subject, data::json->>'version')
    WHERE id IN (SELECT id FROM events WHERE subject = ${user.uid}::uuid AND type <> 'user.deleted' AND data::json->>'erased' IS NULL ORDER BY id FOR UPDATE)`;
  await postgresIdempotency.erase(tx, user.uid);
  await tx`WITH deleted AS (DELETE FROM users WHERE uid = ${user.uid} RETURNING uid) ${eventAfter(tx, feed, event, 'deleted')}`;
}

/** The current user, locked until the transaction ends, if it exists and `precondition` accepts it. */
export async function lockCurrent(tx: TransactionSql, uid: string, precondition?: Precondition): Promise<WriteOutcome<User>> {
  const [row] = await tx<UserRow[]>`
    SELECT ${tx.unsafe(USER_SELECT_COLUMNS)} FROM users WHERE uid = ${uid} FOR UPDATE`;
  if (!row) return { status: 'not-found' };
  const user = userRowToUser(row);
  if (precondition && !precondition(user)) return { status: 'precondition-failed' };
  return { status: 'ok', value: user };
}

/** Who holds the user's uid and each of its keys, in key order. */
export async function holdersOf(sql: Connection, user: User): Promise<Holder[]> {
  const entries = keysOf(user);
  const rows = await sql<{ key: string; value: string; uid: string }[]>`
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
