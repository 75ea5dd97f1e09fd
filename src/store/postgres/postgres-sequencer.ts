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
 * position given so far. Writers never wait for the sequencer. A run is one
 * statement (the function sequence_events of migration 5), started at most
 * every RUN_INTERVAL_MS, and goes ahead of queued requests for a connection.
 *
 * Order within a run is insertion order (outbox id). For one user that is commit
 * order: its writes hold its row lock in turn, so the later write inserts its
 * event after the earlier one committed.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type postgres from 'postgres';

/** An arbitrary constant naming the sequencer's lock (the migration lock is another). */
const SEQUENCER_LOCK = 7_316_205_115;
/** Events numbered per run at most; a full run is followed by another at once. */
const RUN_SIZE = 10_000;
/**
 * Runs start at least this far apart. Under a steady stream of writes a run
 * after every commit cost a transaction (and its WAL flush) per few events; one
 * run per interval numbers all that committed meanwhile, for at most this much
 * more delay. A write after a quiet spell is numbered at once.
 */
const RUN_INTERVAL_MS = 5;
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
  let lastStart = -Infinity;

  /** Numbers up to RUN_SIZE committed events (migration 5's sequence_events); the count numbered and the latest position. */
  const runOnce = async () => {
    const [row] = await run(() => sql<{ latest: string; numbered: number }[]>`SELECT latest, numbered FROM sequence_events(${SEQUENCER_LOCK}, ${RUN_SIZE}, ${EVENTS_CHANNEL})`);
    return { numbered: row?.numbered ?? 0, latest: Number(row?.latest ?? 0) };
  };

  const loop = async (): Promise<void> => {
    do {
      const wait = lastStart + RUN_INTERVAL_MS - Date.now();
      if (wait > 0) await sleep(wait);
      // Cleared before the run starts: a commit announced after this point gets another run.
      again = false;
      lastStart = Date.now();
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
