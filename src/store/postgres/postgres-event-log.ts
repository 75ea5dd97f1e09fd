/**
 * The change feed's outbox on PostgreSQL (migration 3): read by position, pruned
 * by age or count, watched through LISTEN/NOTIFY. Positions are given after
 * commit by the sequencer (postgres-sequencer.ts), which this store kicks after
 * each of its writes and every second (for events of instances that died
 * between their commit and their kick).
 *
 * A user's events form a chain (migration 15; postgres-user-writes.ts: Feed): one user's
 * events are read by walking it from the user's latest through the primary key, as many
 * steps as the user has events after the asked position, so no index on `subject` is
 * written with every event. The latest `user.created` or `user.updated` event of a user
 * stores '' and is read with the representation the user's row holds, in the same
 * statement (one snapshot: the row and the event agree).
 */
import type postgres from 'postgres';
import type { EventLog, EventPage, EventType, RetentionRule, StoredEvent } from '../../events/event-log.js';
import { originFromColumns } from '../../events/event-origin.js';
import { RESTORE_GAP_PREFIX, restoreGapOf } from '../restore-gap.js';
import type { Lane } from './in-flight-gate.js';
import { createSequencer, EVENTS_CHANNEL } from './postgres-sequencer.js';
import { chainOf, ROW_DATA } from './postgres-user-writes.js';

/** How often the sequencer runs without being kicked, and how often watchers are told the latest position regardless. */
const TICK_MS = 1000;

type Run = <T>(fn: () => Promise<T>, lane?: Lane) => Promise<T>;

interface PageRow {
  pruned: string;
  latest: string;
  /** The restore gaps (restore-gap.ts): JSON text of [{ name, position }]. */
  gaps: string;
  position: string | null;
  type: string | null;
  subject: string | null;
  time: Date | null;
  data: string | null;
  origin_interface: string | null;
  origin_credential: string | null;
  origin_client: string | null;
}

export interface PostgresEventLog extends EventLog {
  /** After a local write committed: its events get their positions soon. */
  committed(): void;
  /**
   * The highest position this instance knows to be committed, without a query. Every
   * event at or below it was committed before it became known (the sequencer numbers
   * only committed events, and its NOTIFY is delivered after its commit), so a read
   * that starts afterwards reflects them all: the position a lookup or a search page
   * reports (CONTRACT §11). It follows every instance's sequencer through LISTEN, from
   * listen() on; it may lag the database by a notification's delay, which only makes a
   * mirror replay a few events it already has.
   */
  known(): number;
  /** Starts following the sequencers of every instance (a connection of its own); resolves once the position is read. */
  listen(): Promise<void>;
  /**
   * After a move to another primary (primary-follower.ts): LISTEN again on the new one,
   * whose connection reads the latest position anew. Positions heard stay: the new
   * primary holds every position announced, since a sequencer's commit (and its NOTIFY)
   * is answered only once the synchronous standby has it.
   */
  relisten(): void;
  close(): Promise<void>;
}

export function postgresEventLog(sql: postgres.Sql, run: Run, onError: (error: unknown) => void): PostgresEventLog {
  const watchers = new Set<(latest: number) => void>();
  let announced = 0;
  const learn = (latest: number) => {
    if (latest > announced) announced = latest;
  };
  const announce = (latest: number) => {
    learn(latest);
    for (const watcher of watchers) watcher(announced);
  };
  // Every write's event waits for a sequencer run: it goes ahead of queued requests (in-flight-gate.ts).
  const sequencer = createSequencer(sql, (fn) => run(fn, 'urgent'), announce, onError);
  const latest = async () => {
    const [row] = await run(() => sql<{ position: string }[]>`SELECT position FROM feed_state WHERE name = 'latest'`);
    const position = Number(row?.position ?? 0);
    learn(position);
    return position;
  };
  let listening: Promise<{ unlisten(): Promise<void> }> | undefined;
  // NOTIFY from every instance's sequencer; at each (re)connection (onlisten) the latest position is read anew.
  const listen = () =>
    (listening ??= sql.listen(EVENTS_CHANNEL, (payload) => announce(Number(payload)), () => void latest().then(announce, onError)));
  const tick = setInterval(() => {
    sequencer.kick();
    if (watchers.size > 0) latest().then(announce, onError);
  }, TICK_MS);
  tick.unref();

  return {
    committed: () => sequencer.kick(),

    async read(after: number, limit: number, subject?: string): Promise<EventPage> {
      // The route admits only a uid (a lower-case UUID) as the subject, so the cast cannot fail. Its events: the chain walked
      // back from its latest, on past an event only while that event is unnumbered or after `after`.
      const ofSubject = subject === undefined
        ? sql``
        : sql`AND id IN (WITH RECURSIVE ${chainOf(sql, subject, sql`(e.position IS NULL OR e.position > ${after})`)} SELECT id FROM chain) AND subject = ${subject}::uuid`;
      const rows = await run(() => sql<PageRow[]>`
        SELECT s.pruned, s.latest, s.gaps, e.position, e.type, e.subject, e.time,
          CASE WHEN e.data = ${ROW_DATA} THEN (SELECT representation FROM users u WHERE u.uid = e.subject) ELSE e.data END AS data,
          e.origin_interface, e.origin_credential, e.origin_client
        FROM (SELECT (SELECT position FROM feed_state WHERE name = 'pruned') AS pruned, (SELECT position FROM feed_state WHERE name = 'latest') AS latest,
          (SELECT coalesce(json_agg(json_build_object('name', name, 'position', position)), '[]')::text FROM feed_state WHERE name LIKE ${`${RESTORE_GAP_PREFIX}%`}) AS gaps) s
        LEFT JOIN LATERAL (
          SELECT position, type, subject, time, data, origin_interface, origin_credential, origin_client FROM events
          WHERE position > ${after} AND position <= s.latest ${ofSubject} ORDER BY position LIMIT ${limit}
        ) e ON true`);
      const first = rows[0];
      const events: StoredEvent[] = rows
        .filter((row) => row.position !== null)
        .map((row) => {
          const event: StoredEvent = { position: Number(row.position), type: row.type as EventType, subject: String(row.subject), time: (row.time as Date).toISOString(), data: row.data as string };
          const origin = originFromColumns(row.origin_interface, row.origin_credential, row.origin_client);
          if (origin !== undefined) event.origin = origin;
          return event;
        });
      const page: EventPage = { events, prunedThrough: Number(first?.pruned ?? 0), latest: Number(first?.latest ?? 0) };
      const gaps = JSON.parse(first?.gaps ?? '[]') as { name: string; position: number }[];
      return gaps.length === 0 ? page : { ...page, restoreGaps: gaps.map(restoreGapOf) };
    },

    latest,

    async settle() {
      await sequencer.flush();
      return latest();
    },

    known: () => announced,

    async listen() {
      await listen();
      await latest();
    },

    relisten() {
      if (listening === undefined) return;
      // The former client's LISTEN connection ends with that client.
      listening = undefined;
      listen().catch(onError);
      sequencer.kick();
    },

    watch(listener) {
      watchers.add(listener);
      void listen();
      return () => {
        watchers.delete(listener);
      };
    },

    async prune(rule: RetentionRule, limit: number) {
      return run(() =>
        sql.begin(async (tx) => {
          const [bounds] = await tx<{ by_time: string | null; by_count: string | null }[]>`
            -- By age: the longest run of the oldest events (at most a batch) all older than the cutoff;
            -- an event written with a later time stops the run. (No index on time: writes never pay for one.)
            SELECT (SELECT max(position) FROM (
                      SELECT position, bool_and(time < ${rule.before ?? null}::timestamptz) OVER (ORDER BY position ROWS UNBOUNDED PRECEDING) AS older
                      FROM (SELECT position, time FROM events WHERE position IS NOT NULL ORDER BY position LIMIT ${limit}) oldest
                    ) run WHERE older) AS by_time,
              (SELECT position FROM events WHERE position IS NOT NULL AND ${rule.keep ?? null}::int IS NOT NULL
                ORDER BY position DESC OFFSET ${rule.keep ?? 0} LIMIT 1) AS by_count`;
          const bound = Math.min(Math.max(Number(bounds?.by_time ?? 0), Number(bounds?.by_count ?? 0)), rule.notAfter ?? Infinity);
          if (bound <= 0) return 0;
          // A deleted user's latest event goes with its entry in erased_subjects (postgres-user-writes.ts: Feed), in the same statement.
          const deleted = await tx<{ position: string }[]>`
            WITH pruned AS (
              DELETE FROM events WHERE position IN (SELECT position FROM events WHERE position <= ${bound} ORDER BY position LIMIT ${limit})
              RETURNING position, id, subject
            ), forgotten AS (
              DELETE FROM erased_subjects x USING pruned p WHERE x.subject = p.subject AND x.event_id = p.id
            )
            SELECT position FROM pruned`;
          if (deleted.length === 0) return 0;
          const highest = Math.max(...deleted.map((row) => Number(row.position)));
          await tx`UPDATE feed_state SET position = greatest(position, ${highest}) WHERE name = 'pruned'`;
          return deleted.length;
        }),
      );
    },

    async relayPosition(name: string) {
      const [row] = await run(() => sql<{ position: string }[]>`SELECT position FROM feed_state WHERE name = ${`relay:${name}`}`);
      return Number(row?.position ?? 0);
    },

    async setRelayPosition(name: string, position: number) {
      await run(() => sql`INSERT INTO feed_state (name, position) VALUES (${`relay:${name}`}, ${position}) ON CONFLICT (name) DO UPDATE SET position = EXCLUDED.position`);
    },

    async close() {
      clearInterval(tick);
      watchers.clear();
      await sequencer.idle();
      await (await listening?.catch(() => undefined))?.unlisten().catch(() => {});
    },
  };
}
