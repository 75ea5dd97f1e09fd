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
 *
 * A run cancelled by the statement timeout (PG_STATEMENT_TIMEOUT_MS: a full run
 * of RUN_SIZE events takes a few hundred ms) numbers nothing; each such run halves
 * the events the next runs take, down to one, so a backlog never stalls the feed;
 * once a run finds no more waiting, they take RUN_SIZE again. flush() is honest:
 * it rejects when the runs it waited for failed, so `settle()` never claims a feed
 * caught up that is not.
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
  /**
   * Resolves once a run that started after the call has numbered every event committed before it;
   * rejects with the error of such a run when it failed and none after it succeeded.
   */
  flush(): Promise<void>;
}

/** The SQLSTATE of a statement cancelled (57014: statement timeout), also when wrapped as the store's StoreUnavailableError. */
function cancelled(error: unknown): boolean {
  for (let e = error, depth = 0; e !== undefined && e !== null && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === '57014') return true;
  }
  return false;
}

/** `onSequenced` hears the latest position after every run that numbered events. */
export function createSequencer(sql: postgres.Sql, run: Run, onSequenced: (latest: number) => void, onError: (error: unknown) => void): Sequencer {
  let running: Promise<void> | undefined;
  let again = false;
  let lastStart = -Infinity;
  /** Events one run takes: RUN_SIZE, halved after each run the statement timeout cancelled until a run catches up. */
  let size = RUN_SIZE;
  /** How many runs have started; a run is known by its number. */
  let started = 0;
  /** The number of the latest run that left nothing committed before it unnumbered (it took fewer than it could). */
  let caughtUp = 0;
  /** The latest failure, and the number of the run it ended. */
  let failure: { run: number; error: unknown } | undefined;

  /** Numbers up to `take` committed events (migration 5's sequence_events); the count numbered and the latest position. */
  const runOnce = async (take: number) => {
    const [row] = await run(() => sql<{ latest: string; numbered: number }[]>`SELECT latest, numbered FROM sequence_events(${SEQUENCER_LOCK}, ${take}, ${EVENTS_CHANNEL})`);
    return { numbered: row?.numbered ?? 0, latest: Number(row?.latest ?? 0) };
  };

  const loop = async (): Promise<void> => {
    do {
      const wait = lastStart + RUN_INTERVAL_MS - Date.now();
      if (wait > 0) await sleep(wait);
      // Cleared before the run starts: a commit announced after this point gets another run.
      again = false;
      lastStart = Date.now();
      const id = ++started;
      const take = size;
      let result: { numbered: number; latest: number };
      try {
        result = await runOnce(take);
      } catch (error) {
        failure = { run: id, error };
        if (cancelled(error) && take > 1) size = Math.max(1, Math.floor(take / 2));
        throw error;
      }
      const { numbered, latest } = result;
      if (numbered > 0) onSequenced(latest);
      if (numbered === take) again = true;
      else {
        caughtUp = id;
        size = RUN_SIZE;
      }
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
      const before = started;
      // A run going now may have read before the call: `again` makes its loop run once more.
      kick();
      while (running !== undefined) await running;
      // Caught up by a run that started after the call; else one of those runs failed (and no later one made up for it).
      if (caughtUp > before) return;
      throw failure !== undefined && failure.run > before ? failure.error : new Error('the change feed sequencer stopped before numbering the events committed before flush()');
    },
  };
}
