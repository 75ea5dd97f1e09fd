/**
 * The change feed's outbox on SQLite (migration 3). Writes append their events
 * inside their own transaction (the group commit's savepoint), and SQLite lets
 * one writer commit at a time, so positions (AUTOINCREMENT) are assigned in
 * commit order and an event is readable as soon as its write returns.
 *
 * Watchers hear of this process's commits at once (the store calls committed()),
 * and of other processes' through `PRAGMA data_version`, polled while anyone watches.
 */
import type Database from 'better-sqlite3';
import type { EventLog, EventPage, EventType, RestoreGap, RetentionRule, StoredEvent } from '../../events/event-log.js';
import { RESTORE_GAP_PREFIX, restoreGapOf } from '../restore-gap.js';
import { originFromColumns, type EventOrigin } from '../../events/event-origin.js';

/** How often another process's commits are looked for while someone watches. */
const POLL_MS = 250;

type Row = Omit<StoredEvent, 'type' | 'origin'> & { type: string; origin_interface: string | null; origin_credential: string | null; origin_client: string | null };

/** An event row as the feed reads it. */
function storedEvent(row: Row): StoredEvent {
  const event: StoredEvent = { position: row.position, type: row.type as EventType, subject: row.subject, time: row.time, data: row.data };
  const origin = originFromColumns(row.origin_interface, row.origin_credential, row.origin_client);
  if (origin !== undefined) event.origin = origin;
  return event;
}

export interface SqliteEventLog extends EventLog {
  /** Appends an event in the current transaction. */
  append(type: EventType, subject: string, time: string, data: string, origin?: EventOrigin): void;
  /** Erases the personal data of every earlier event of `subject`, in the current transaction (erasure.ts). */
  erase(subject: string): void;
  /** The highest position committed (for a read that reports what it reflects). */
  latestNow(): number;
  /** Tells watchers that this process committed events. */
  committed(): void;
  /** Stops the poll. */
  close(): void;
}

/** The feed's latest position (0 before any event), as column `latest`. */
export const LATEST_POSITION_SQL = "SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0) AS latest";

export function sqliteEventLog(db: Database.Database, write: <T>(fn: () => T) => Promise<T>): SqliteEventLog {
  const append = db.prepare('INSERT INTO events (type, subject, time, data, origin_interface, origin_credential, origin_client) VALUES (?, ?, ?, ?, ?, ?, ?)');
  // The text of erasedEventData() (erasure.ts), built in SQL from each event's own version.
  const erase = db.prepare(
    `UPDATE events SET data = '{"uid":"' || subject || '","version":' || json_extract(data, '$.version') || ',"erased":true}'
     WHERE subject = ? AND type <> 'user.deleted' AND json_extract(data, '$.erased') IS NULL`,
  );
  const latest = db.prepare<[], { latest: number }>(LATEST_POSITION_SQL);
  const page = db.prepare<[number, number, number], Row>(
    'SELECT position, type, subject, time, data, origin_interface, origin_credential, origin_client FROM events WHERE position > ? AND position <= ? ORDER BY position LIMIT ?',
  );
  const pageOfSubject = db.prepare<[string, number, number, number], Row>(
    'SELECT position, type, subject, time, data, origin_interface, origin_credential, origin_client FROM events WHERE subject = ? AND position > ? AND position <= ? ORDER BY position LIMIT ?',
  );
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
    append(type, subject, time, data, origin) {
      append.run(type, subject, time, data, origin?.interface ?? null, origin?.credential ?? null, origin?.client ?? null);
    },
    erase(subject) {
      erase.run(subject);
    },
    latestNow,
    committed: notify,

    async read(after: number, limit: number, subject?: string): Promise<EventPage> {
      // In this order, each statement seeing what another process committed before it:
      // the page holds every event up to `latest` (none after), and `prunedThrough` is
      // read last, so events deleted before the page was read are never missed silently.
      const latest = latestNow();
      const rows = subject === undefined ? page.all(after, latest, limit) : pageOfSubject.all(subject, after, latest, limit);
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
