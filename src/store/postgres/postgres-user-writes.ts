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
import type { Holder } from '../import-plan.js';
import { KeyConflictError } from '../store-errors.js';
import { postgresIdempotency } from './postgres-idempotency.js';
import type { Precondition, WriteOutcome } from '../user-store.js';
import { rowValues, USER_SELECT_COLUMNS, userRowToUser, type UserRow } from './postgres-rows.js';

type Connection = TransactionSql | postgres.Sql;
type Fragment = postgres.PendingQuery<postgres.Row[]>;

/**
 * The INSERT of the user's row naming `eventId` (an expression: the user's latest event,
 * users.event_id), as a fragment of the statements that write it. With `fromClaimed`,
 * the row is selected from the CTE `claimed` (an Idempotency-Key's claim,
 * postgres-idempotency.ts): no claim, no row.
 */
export function userRowInsert(sql: Connection, user: User, eventId: Fragment, fromClaimed = false) {
  const v = rowValues(user);
  return sql`INSERT INTO users (uid, username, email_address, legacy_ids, display_name, display_name_key, attributes, created_at, updated_at, version,
      external_id, active, representation, etag, search, event_id)
    SELECT ${v.uid}::uuid, ${v.username}::text, ${v.email_address}::text, ${v.legacy_ids}::text[], ${v.display_name}::text, ${v.display_name_key}::text,
      ${v.attributes}::text::json, ${v.created_at}::timestamptz, ${v.updated_at}::timestamptz, ${v.version}::int,
      ${v.external_id}::text, ${v.active}::boolean, ${v.representation}::text, ${v.etag}::text, ${v.search}::text, ${eventId}::bigint ${fromClaimed ? sql`FROM claimed` : sql``}`;
}

/** The INSERT of the user's rows in user_emails (every address, canonical), for the uid `from` yields (a CTE of the inserted row). */
export function emailRowsInsert(sql: Connection, user: User, from: Fragment) {
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
 *
 * A user's events form a chain (migration 15): each names the user's previous event
 * (`events.previous`, an id), the user's row its latest (`users.event_id`), and a
 * deleted user's `user.deleted` is named in `erased_subjects` (pruned with it). The
 * latest `user.created` or `user.updated` event of a user stores its data as ''
 * (ROW_DATA) and is read with the representation the row holds (postgres-event-log.ts);
 * the write that replaces the row first copies that representation into the event, and
 * a delete erases it, so an event never reads a version other than its own.
 */
export interface Feed {
  enabled: boolean;
}

/** The data of a user's latest `user.created` or `user.updated` event while the user's row holds its representation (never valid JSON). */
export const ROW_DATA = '';

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
 * `previous`: the id of the user's previous event (an expression). Returns the id.
 */
export function eventAfter(sql: Connection, feed: Feed, event: PendingEvent, after: string, previous: Fragment, rows?: number) {
  const enough = rows === undefined ? sql`w.n > 0` : sql`w.n = ${rows}`;
  const { origin } = event;
  return sql`INSERT INTO events (type, subject, time, data, origin_interface, origin_credential, origin_client, previous)
    SELECT ${event.type}, ${event.subject}::uuid, ${event.time}::timestamptz, ${event.data},
      ${origin?.interface ?? null}::text, ${origin?.credential ?? null}::text, ${origin?.client ?? null}::text, ${previous}::bigint
    FROM (SELECT count(*) AS n FROM ${sql(after)}) w WHERE ${feed.enabled} AND ${enough}
    RETURNING id`;
}

/** The event of a user written: its data read from the user's row (ROW_DATA). */
export const userEvent = (type: 'user.created' | 'user.updated', user: User, time: string, origin?: EventOrigin): PendingEvent => ({
  type,
  subject: user.uid,
  time,
  data: ROW_DATA,
  origin,
});

/**
 * The CTE `keyed`: every key of `user` inserted, RETURNING key, value. `tolerant`: a taken
 * key is left out (ON CONFLICT DO NOTHING) instead of failing the statement. With
 * `fromClaimed`, nothing without the CTE `claimed`'s row.
 */
function keysInsert(sql: Connection, user: User, tolerant: boolean, fromClaimed = false) {
  const entries = keysOf(user);
  return sql`keyed AS (
      INSERT INTO user_keys (key, value, uid)
      SELECT t.k, t.v, ${user.uid}::uuid FROM ${fromClaimed ? sql`claimed, ` : sql``}unnest(${entries.map((e) => e.key)}::text[], ${entries.map((e) => e.value)}::text[]) AS t(k, v)
      ${tolerant ? sql`ON CONFLICT DO NOTHING` : sql``}
      RETURNING key, value
    )`;
}

/**
 * The statement that creates `user`, `time` its event's: its keys (`keyed`, as keysInsert()), then
 * its `user.created` event when every key went in (`tolerant`) or any did, naming the user's
 * previous event (a user deleted with this uid: erased_subjects, which forgets it), then its row
 * naming its latest event, then its addresses. The event's id is taken once the keys are in
 * (Feed), and the row reads it, so the row goes in last (the keys' foreign key is checked at the
 * end of the statement). With `claim` (an Idempotency-Key's claim statement, postgres-idempotency.ts),
 * nothing is written unless it claims. Yields the keys inserted.
 */
export function createStatement(sql: Connection, user: User, feed: Feed, time: string, origin: EventOrigin | undefined, tolerant: boolean, claim?: Fragment) {
  const fromClaimed = claim !== undefined;
  const event = userEvent('user.created', user, time, origin);
  const rows = tolerant ? keysOf(user).length : undefined;
  return sql`WITH ${fromClaimed ? sql`claimed AS (${claim}), ` : sql``}${keysInsert(sql, user, tolerant, fromClaimed)},
    forgotten AS (DELETE FROM erased_subjects WHERE subject = ${user.uid}::uuid ${fromClaimed ? sql`AND EXISTS (SELECT 1 FROM claimed)` : sql``} RETURNING event_id),
    appended AS (${eventAfter(sql, feed, event, 'keyed', sql`(SELECT event_id FROM forgotten)`, rows)}),
    inserted AS (${userRowInsert(sql, user, sql`coalesce((SELECT id FROM appended), (SELECT event_id FROM forgotten))`, fromClaimed)} RETURNING uid),
    emailed AS (${emailRowsInsert(sql, user, sql`inserted`)})
    SELECT key, value FROM keyed`;
}

/** Keys named in a KeyConflictError when `inserted` (from `keyed`) lacks some of `user`'s: the first taken one. */
function throwIfTaken(user: User, inserted: readonly { key: string; value: string }[]): void {
  const entries = keysOf(user);
  if (inserted.length === entries.length) return;
  const done = new Set(inserted.map((row) => `${row.key}\u0000${row.value}`));
  const taken = entries.find((e) => !done.has(`${e.key}\u0000${e.value}`));
  throw new KeyConflictError(taken?.key ?? 'username');
}

/** Inserts the user row, its keys and addresses, and its `user.created` event at `time` (createStatement()); a taken key throws KeyConflictError. */
export async function insertUser(tx: TransactionSql, user: User, feed: Feed, time: string, origin?: EventOrigin): Promise<void> {
  throwIfTaken(user, await tx<{ key: string; value: string }[]>`${createStatement(tx, user, feed, time, origin, true)}`);
}

/**
 * Writes `next` over the locked row of the same uid (its keys freed, then taken again), and its
 * `user.updated` event, in one statement after the keys are freed: the event the row named as
 * its latest first gets the representation the row held (it read it from there), then the new
 * event names it as its previous, and the row the new event as its latest.
 */
export async function replaceUser(tx: TransactionSql, next: User, feed: Feed, origin?: EventOrigin): Promise<void> {
  const v = rowValues(next);
  const event = userEvent('user.updated', next, next.updated_at, origin);
  await tx`DELETE FROM user_keys WHERE uid = ${next.uid}`;
  await tx`DELETE FROM user_emails WHERE uid = ${next.uid}`;
  await tx`INSERT INTO user_emails (value, uid) SELECT e, ${next.uid}::uuid FROM unnest(${emailKeysOf(next)}::text[]) AS e`;
  const inserted = await tx<{ key: string; value: string }[]>`WITH ${keysInsert(tx, next, true)},
    kept AS (
      UPDATE events SET data = u.representation FROM users u WHERE u.uid = ${next.uid} AND events.id = u.event_id AND events.data = ${ROW_DATA}
    ),
    appended AS (${eventAfter(tx, feed, event, 'keyed', tx`(SELECT event_id FROM users WHERE uid = ${next.uid})`, keysOf(next).length)}),
    updated AS (
      UPDATE users SET username = ${v.username}, email_address = ${v.email_address}, legacy_ids = ${v.legacy_ids},
        display_name = ${v.display_name}, display_name_key = ${v.display_name_key}, attributes = ${v.attributes}::text::json,
        updated_at = ${v.updated_at}, version = ${v.version}, external_id = ${v.external_id}, active = ${v.active},
        representation = ${v.representation}, etag = ${v.etag}, search = ${v.search}, event_id = coalesce((SELECT id FROM appended), users.event_id)
      WHERE uid = ${next.uid}
    )
    SELECT key, value FROM keyed`;
  throwIfTaken(next, inserted);
}

/**
 * The chain of a user's events from its latest (the user's row, else for a deleted user
 * erased_subjects), as the recursive CTE `chain(id)`; `uid` the user. The walk goes on past an
 * event only while `more` (a condition on that event `e`) holds: a user's events are numbered
 * in the order of their ids (each write of a user waits for the one before to commit), so a
 * walk can stop at the first event at or below a position.
 */
export function chainOf(sql: Connection, uid: string, more: Fragment = sql`true`) {
  return sql`chain(id) AS (
      SELECT coalesce((SELECT event_id FROM users WHERE uid = ${uid}::uuid), (SELECT event_id FROM erased_subjects WHERE subject = ${uid}::uuid))
      UNION ALL SELECT e.previous FROM chain JOIN events e ON e.id = chain.id WHERE e.previous IS NOT NULL AND ${more}
    )`;
}

/**
 * Deletes the locked user (its keys go with it, ON DELETE CASCADE), erases its personal
 * data from its earlier events and from the Idempotency-Key answers that carry it
 * (erasure.ts), and appends its `user.deleted` event: the uid and the last version,
 * naming the user's previous event, and named in erased_subjects. The earlier events
 * are found by walking the user's chain and locked in id order, the order the sequencer
 * locks them in (postgres-sequencer.ts), so a delete and a sequencer run wait for each
 * other at most, never deadlock. An event that reads the row's representation (ROW_DATA)
 * holds the row's version.
 */
export async function deleteUser(tx: TransactionSql, user: User, feed: Feed, origin?: EventOrigin): Promise<void> {
  const event: PendingEvent = { type: 'user.deleted', subject: user.uid, time: new Date().toISOString(), data: JSON.stringify({ uid: user.uid, version: user.version }), origin };
  await tx`WITH RECURSIVE ${chainOf(tx, user.uid)}
    UPDATE events SET data = format('{"uid":"%s","version":%s,"erased":true}', subject, coalesce(nullif(data, ${ROW_DATA})::json->>'version', ${String(user.version)}))
    WHERE id IN (SELECT id FROM events WHERE id IN (SELECT id FROM chain) AND subject = ${user.uid}::uuid AND type <> 'user.deleted'
      AND nullif(data, ${ROW_DATA})::json->>'erased' IS NULL ORDER BY id FOR UPDATE)`;
  await postgresIdempotency.erase(tx, user.uid);
  await tx`WITH deleted AS (DELETE FROM users WHERE uid = ${user.uid} RETURNING uid, event_id),
    appended AS (${eventAfter(tx, feed, event, 'deleted', tx`(SELECT event_id FROM deleted)`)}),
    remembered AS (
      INSERT INTO erased_subjects (subject, event_id)
      SELECT d.uid, coalesce((SELECT id FROM appended), d.event_id) FROM deleted d WHERE coalesce((SELECT id FROM appended), d.event_id) IS NOT NULL
      ON CONFLICT (subject) DO UPDATE SET event_id = EXCLUDED.event_id
    )
    SELECT 1`;
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
