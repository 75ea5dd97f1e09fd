/**
 * The change feed's outbox on SQLite (migration 3). Writes append their events
 * inside their own transaction (the group commit's savepoint), and SQLite lets
 * one writer commit at a time, so positions (AUTOINCREMENT) are assigned in
 * commit order and an event is readable as soon as its write returns.
 *
 * Watchers hear of this process's commits at once (the store calls committed()),
 * and of other processes' through `PRAGMA data_version`, polled while anyone watches.
 *
 * A user's events form a chain (migration 13), so no index on `subject` is written with
 * every event: each event names the user's previous event (`previous`), the user's row its
 * latest (`users.event_position`), and a deleted user's `user.deleted` event is named in
 * `erased_subjects` (pruned with it). A delete's erasure and a read of one user's history
 * walk that chain through the primary key: their cost is the user's events, not the feed's.
 *
 * The data of a user's latest `user.created` or `user.updated` event is stored as '' (never
 * valid JSON): it is the representation the user's row holds, read from there. The write
 * that replaces the row first copies that representation into the event, and a delete
 * erases it, so an event never reads a version other than its own.
 */
import type Database from 'better-sqlite3';
import type { EventLog, EventPage, EventType, RestoreGap, RetentionRule, StoredEvent } from '../../events/event-log.js';
import { RESTORE_GAP_PREFIX, restoreGapOf } from '../restore-gap.js';
import { originFromColumns, type EventOrigin } from '../../events/event-origin.js';

/** How often another process's commits are looked for while someone watches. */
const POLL_MS = 250;

type Row = Omit<StoredEvent, 'type' | 'origin'> & { type: string; origin_interface: string | null; origin_credential: string | null; origin_client: string | null };

/** The data an event row reads: its own, or (stored as '') the representation its user's row holds. */
const EVENT_DATA = "CASE WHEN data = '' THEN (SELECT representation FROM users WHERE uid = subject) ELSE data END AS data";
const EVENT_COLUMNS = `position, type, subject, time, ${EVENT_DATA}, origin_interface, origin_credential, origin_client`;

/** An event row as the feed reads it. */
function storedEvent(row: Row): StoredEvent {
  const event: StoredEvent = { position: row.position, type: row.type as EventType, subject: row.subject, time: row.time, data: row.data };
  const origin = originFromColumns(row.origin_interface, row.origin_credential, row.origin_client);
  if (origin !== undefined) event.origin = origin;
  return event;
}

export interface SqliteEventLog extends EventLog {
  /**
   * Before the row of `uid` is inserted (a create) or overwritten (an update), in the write's
   * transaction: appends its event (nothing with the feed off) and returns the position the row
   * names as its latest event (`users.event_position`). The user's row must hold the event's
   * representation once the write ends.
   */
  userWritten(type: 'user.created' | 'user.updated', uid: string, time: string, origin?: EventOrigin): number | null;
  /**
   * Before the row of `uid` is deleted, in the delete's transaction: erases the personal data of
   * every earlier event of the user (erasure.ts) and appends its `user.deleted` event.
   */
  userDeleted(uid: string, version: number, time: string, origin?: EventOrigin): void;
  /** The highest position committed (for a read that reports what it reflects). */
  latestNow(): number;
  /** Tells watchers that this process committed events. */
  committed(): void;
  /** Stops the poll. */
  close(): void;
}

/** The feed's latest position (0 before any event), as column `latest`. */
export const LATEST_POSITION_SQL = "SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0) AS latest";

/** The chain of a user's events from its latest (the user's row, or for a deleted user erased_subjects), as CTE `chain(p)`; `@uid` the user, `@after` where the walk stops (exclusive). */
const CHAIN_SQL = `WITH RECURSIVE chain(p) AS (
    SELECT coalesce((SELECT event_position FROM users WHERE uid = @uid), (SELECT position FROM erased_subjects WHERE subject = @uid))
    UNION ALL SELECT e.previous FROM chain JOIN events e ON e.position = chain.p WHERE e.previous > @after
  )`;

/** The text of erasedEventData() (erasure.ts) over every earlier event of `@uid`, each with its own version (`@version`, the user's current one, for its latest event, whose data is the row's). */
export const ERASE_SQL = `${CHAIN_SQL}
  UPDATE events SET data = '{"uid":"' || subject || '","version":' || coalesce(json_extract(nullif(data, ''), '$.version'), CAST(@version AS INTEGER)) || ',"erased":true}'
  WHERE position IN (SELECT p FROM chain) AND subject = @uid AND type <> 'user.deleted' AND json_extract(nullif(data, ''), '$.erased') IS NULL`;

/** One user's page of events (`@uid`, after `@after` up to `@latest`, at most `@limit`): the chain walked back to `@after`, as many steps as the user has events after it. */
export const SUBJECT_PAGE_SQL = `${CHAIN_SQL}
  SELECT ${EVENT_COLUMNS} FROM events WHERE position IN (SELECT p FROM chain) AND subject = @uid AND position > @after AND position <= @latest ORDER BY position LIMIT @limit`;

/** `enabled`: whether writes append events (CHANGE_FEED); a user's earlier events are erased and their data kept right either way. */
export function sqliteEventLog(db: Database.Database, write: <T>(fn: () => T) => Promise<T>, enabled = true): SqliteEventLog {
  const append = db.prepare<[string, string, string, string, string | null, string | null, string | null, number | null]>(
    'INSERT INTO events (type, subject, time, data, origin_interface, origin_credential, origin_client, previous) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const headOf = db.prepare<[string], { event_position: number | null }>('SELECT event_position FROM users WHERE uid = ?');
  const erasedHead = db.prepare<[string], { position: number }>('SELECT position FROM erased_subjects WHERE subject = ?');
  const forgetErased = db.prepare('DELETE FROM erased_subjects WHERE subject = ?');
  const rememberErased = db.prepare('INSERT INTO erased_subjects (subject, position) VALUES (?, ?) ON CONFLICT (subject) DO UPDATE SET position = excluded.position');
  // The latest event of a row about to be overwritten keeps the representation it was about.
  const keepData = db.prepare("UPDATE events SET data = (SELECT representation FROM users WHERE uid = ?) WHERE position = ? AND data = ''");
  const erase = db.prepare<[{ uid: string; after: number; version: number }]>(ERASE_SQL);
  const latest = db.prepare<[], { latest: number }>(LATEST_POSITION_SQL);
  const page = db.prepare<[number, number, number], Row>(`SELECT ${EVENT_COLUMNS} FROM events WHERE position > ? AND position <= ? ORDER BY position LIMIT ?`);
  const pageOfSubject = db.prepare<[{ uid: string; after: number; latest: number; limit: number }], Row>(SUBJECT_PAGE_SQL);
  const state = db.prepare<[string], { position: number }>('SELECT position FROM feed_state WHERE name = ?');
  const setState = db.prepare('INSERT INTO feed_state (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = excluded.position');
  // By age: the longest run of the oldest events (at most a batch) all older than the cutoff.
  // Oldest first, in position order: an event written with a later time stops the run.
  const boundByTime = db.prepare<[string, number], { bound: number | null }>(
    `SELECT max(position) AS bound FROM (
       SELECT position, min(time < ?) OVER (ORDER BY position ROWS UNBOUNDED PRECEDING) AS older
       FROM (SELECT position, time FROM events ORDER BY position LIMIT ?)
     ) WHERE older = 1`,
  );
  const boundByCount = db.prepare<[number], { bound: number }>('SELECT position AS bound FROM events ORDER BY position DESC LIMIT 1 OFFSET ?');
  const oldest = db.prepare<[number, number], { position: number }>('SELECT position FROM events WHERE position <= ? ORDER BY position LIMIT ?');
  const deleteUpTo = db.prepare('DELETE FROM events WHERE position <= ?');
  const forgetErasedUpTo = db.prepare('DELETE FROM erased_subjects WHERE position <= ?');
  const dataVersion = () => db.pragma('data_version', { simple: true }) as number;
  // Made by a restore, which runs with no service on the file: read once (sqlite-restore.ts).
  const restoreGaps: RestoreGap[] = (db.prepare(`SELECT name, position FROM feed_state WHERE name LIKE '${RESTORE_GAP_PREFIX}%'`).all() as { name: string; position: number }[]).map(restoreGapOf);

  const latestNow = () => (latest.get() as { latest: number }).latest;
  const watchers = new Set<(latest: number) => void>();
  let poll: NodeJS.Timeout | undefined;
  let seenVersion = 0;
  let announced = false;

  const notify = () => {
    if (announced) return;
    announced = true;
    // Once per turn, however many writes committed in it.
    queueMicrotask(() => {
      announced = false;
      const position = latestNow();
      for (const watcher of watchers) watcher(position);
    });
  };

  return {
    userWritten(type, uid, time, origin) {
      let previous: number | null;
      if (type === 'user.created') {
        // A uid written again after its delete continues its chain.
        previous = erasedHead.get(uid)?.position ?? null;
        if (previous !== null) forgetErased.run(uid);
      } else {
        previous = headOf.get(uid)?.event_position ?? null;
        if (previous !== null) keepData.run(uid, previous);
      }
      if (!enabled) return previous;
      const { lastInsertRowid } = append.run(type, uid, time, '', origin?.interface ?? null, origin?.credential ?? null, origin?.client ?? null, previous);
      return Number(lastInsertRowid);
    },
    userDeleted(uid, version, time, origin) {
      const head = headOf.get(uid)?.event_position ?? null;
      if (head !== null) erase.run({ uid, after: 0, version });
      if (!enabled) {
        if (head !== null) rememberErased.run(uid, head);
        return;
      }
      const data = JSON.stringify({ uid, version });
      const { lastInsertRowid } = append.run('user.deleted', uid, time, data, origin?.interface ?? null, origin?.credential ?? null, origin?.client ?? null, head);
      rememberErased.run(uid, Number(lastInsertRowid));
    },
    latestNow,
    committed: notify,

    async read(after: number, limit: number, subject?: string): Promise<EventPage> {
      // In this order, each statement seeing what another process committed before it:
      // the page holds every event up to `latest` (none after), and `prunedThrough` is
      // read last, so events deleted before the page was read are never missed silently.
      const latest = latestNow();
      const rows = subject === undefined ? page.all(after, latest, limit) : pageOfSubject.all({ uid: subject, after, latest, limit });
      const events = (rows as Row[]).map(storedEvent);
      const prunedThrough = state.get('pruned')?.position ?? 0;
      return restoreGaps.length === 0 ? { events, prunedThrough, latest } : { events, prunedThrough, latest, restoreGaps };
    },

    async latest() {
      return latestNow();
    },

    async settle() {
      return latestNow();
    },

    watch(listener) {
      watchers.add(listener);
      if (poll === undefined) {
        seenVersion = dataVersion();
        poll = setInterval(() => {
          const version = dataVersion();
          if (version !== seenVersion) {
            seenVersion = version;
            notify();
          }
        }, POLL_MS);
        poll.unref();
      }
      return () => {
        watchers.delete(listener);
        if (watchers.size === 0) {
          clearInterval(poll);
          poll = undefined;
        }
      };
    },

    async prune(rule: RetentionRule, limit: number) {
      return write(() => {
        const byTime = rule.before === undefined ? 0 : (boundByTime.get(rule.before, limit)?.bound ?? 0);
        const byCount = rule.keep === undefined ? 0 : (boundByCount.get(rule.keep)?.bound ?? 0);
        const bound = Math.min(Math.max(byTime, byCount), rule.notAfter ?? Infinity);
        if (bound <= 0) return 0;
        const batch = oldest.all(bound, limit);
        const last = batch[batch.length - 1];
        if (last === undefined) return 0;
        const deleted = deleteUpTo.run(last.position).changes;
        forgetErasedUpTo.run(last.position);
        setState.run('pruned', Math.max(state.get('pruned')?.position ?? 0, last.position));
        return deleted;
      });
    },

    async relayPosition(name: string) {
      return state.get(`relay:${name}`)?.position ?? 0;
    },

    async setRelayPosition(name: string, position: number) {
      await write(() => setState.run(`relay:${name}`, position));
    },

    close() {
      clearInterval(poll);
      poll = undefined;
      watchers.clear();
    },
  };
}
