/**
 * Positions of the change feed on PostgreSQL, given after commit.
 *
 * The classic outbox trap: a position taken from a sequence inside a writer's
 * transaction can belong to a transaction that commits after a later one, so a
 * reader that has read up to P later finds an event below P, and skips it. Here
 * writers insert their events without a position, and this sequencer gives
 * positions only to committed events (the only ones it can see), one run at a
 * time across every instance (pg_advisory_xact_lock): each run numbers the
 * events it finds after the latest position given, in insertion order, and
 * commits before the next run can start. A transaction still open holds no
 * position at all; when it commits, a later run numbers its events above every
 * position given so far. Writers never wait for the sequencer.
 *
 * Order within a run is insertion order (outbox id). For one user that is commit
 * order: its writes hold its row lock in turn, so the later write inserts its
 * event after the earlier one committed.
 */
import type postgres from 'postgres';

/** An arbitrary constant naming the sequencer's lock (the migration lock is another). */
const SEQUENCER_LOCK = 7_316_205_115;
/** Events numbered per run at most; a full run is followed by another at once. */
const RUN_SIZE = 10_000;
/** The channel on which a run announces the latest position. */
export const EVENTS_CHANNEL = 'user_events';

type Run = <T>(fn: () => Promise<T>) => Promise<T>;

export interface Sequencer {
  /** Asks for a run soon (after a local write committed); runs never overlap. */
  kick(): void;
  /** Resolves once no run is going. */
  idle(): Promise<void>;
  /** Resolves after a run that started after the call (every event committed before it is then numbered). */
  flush(): Promise<void>;
}

/** `onSequenced` hears the latest position after every run that numbered events. */
export function createSequencer(sql: postgres.Sql, run: Run, onSequenced: (latest: number) => void, onError: (error: unknown) => void): Sequencer {
  let running: Promise<void> | undefined;
  let again = false;

  /** Numbers up to RUN_SIZE committed events; the count numbered and the latest position. */
  const runOnce = () =>
    run(() =>
      sql.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(${SEQUENCER_LOCK})`;
        const [row] = await tx<{ latest: string; numbered: number }[]>`
          WITH pending AS (
            SELECT id FROM events WHERE position IS NULL ORDER BY id LIMIT ${RUN_SIZE} FOR UPDATE
          ), numbered AS (
            SELECT id, (SELECT position FROM feed_state WHERE name = 'latest') + row_number() OVER (ORDER BY id) AS position FROM pending
          ), positioned AS (
            UPDATE events SET position = numbered.position FROM numbered WHERE events.id = numbered.id RETURNING events.position
          ), moved AS (
            -- Only when events were numbered: a run with nothing to do writes nothing, so its commit costs no WAL flush.
            UPDATE feed_state SET position = greatest(position, (SELECT max(position) FROM positioned))
            WHERE name = 'latest' AND EXISTS (SELECT 1 FROM positioned) RETURNING position
          )
          SELECT coalesce((SELECT position FROM moved), (SELECT position FROM feed_state WHERE name = 'latest')) AS latest,
                 (SELECT count(*) FROM positioned)::int AS numbered`;
        const numbered = row?.numbered ?? 0;
        const latest = Number(row?.latest ?? 0);
        // Delivered when this transaction commits, to every instance listening.
        if (numbered > 0) await tx`SELECT pg_notify(${EVENTS_CHANNEL}, ${String(latest)})`;
        return { numbered, latest };
      }),
    );

  const loop = async (): Promise<void> => {
    do {
      again = false;
      const { numbered, latest } = await runOnce();
      if (numbered > 0) onSequenced(latest);
      if (numbered === RUN_SIZE) again = true;
    } while (again);
  };

  const kick = () => {
    if (running !== undefined) {
      again = true;
      return;
    }
    running = loop()
      .catch(onError)
      .finally(() => {
        running = undefined;
        // A kick that came as the last run ended still gets its run.
        if (again) kick();
      });
  };

  return {
    kick,
    async idle() {
      while (running !== undefined) await running;
    },
    async flush() {
      // A run going now may have read before the call: `again` makes its loop run once more.
      kick();
      while (running !== undefined) await running;
    },
  };
}
