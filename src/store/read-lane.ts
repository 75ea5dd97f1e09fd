/**
 * A lane for expensive work: at most `concurrency` hold a place at once, the others wait in
 * arrival order, and at most `maxWaiting` may wait. The stores run their expensive reads (a
 * search page, a count) in one, so a reader that sends many of them occupies the lane, never
 * the connections or the thread that reads by key and writes; the HTTP layer admits expensive
 * requests through another (http/expensive-requests.ts). What is shed under such load is
 * expensive work (ReadsSaturatedError, answered 503 `overloaded`), not cheap reads.
 *
 * A place whose deadline passes while it waits is never given (BudgetExceededError): its
 * client has been answered already, so running its work would only delay the work behind it.
 * Work still running at its deadline is answered BudgetExceededError then, whatever the store
 * does to stop it; its place is given up only when it has stopped.
 */
import { BudgetExceededError, ReadsSaturatedError } from './store-errors.js';

/**
 * Most that may wait in a lane: more than a busy instance's clients keep in flight (a load of
 * 50 connections searching waits whole), few enough that a flood is refused at once instead
 * of answered 503 at its deadline after seconds of waiting.
 */
export const READ_LANE_WAITING = 256;

export interface Lane {
  /**
   * A place in the lane, given when one is free (or refused); call the release function once
   * when done. Aborting `signal` while it waits takes it out of the line (rejected with the
   * signal's reason): a request whose client left must neither wait nor be given a place.
   */
  acquire(deadline: number | undefined, signal?: AbortSignal): Promise<() => void>;
  /** Runs `task` in a place of its own (released when it settles), answering BudgetExceededError at `deadline`. */
  run<T>(deadline: number | undefined, task: () => Promise<T>): Promise<T>;
}

export function readLane(concurrency: number, maxWaiting: number): Lane {
  let running = 0;
  const waiting: { deadline: number | undefined; start: () => void; refuse: (error: Error) => void }[] = [];
  let timer: NodeJS.Timeout | undefined;

  /** Refuses the waiters whose deadline has passed; re-arms for the earliest left. */
  function expire(): void {
    timer = undefined;
    const now = Date.now();
    for (let i = waiting.length - 1; i >= 0; i--) {
      const waiter = waiting[i] as (typeof waiting)[number];
      if (waiter.deadline !== undefined && waiter.deadline <= now) {
        waiting.splice(i, 1);
        waiter.refuse(new BudgetExceededError());
      }
    }
    arm();
  }

  function arm(): void {
    if (timer !== undefined) return;
    let earliest = Infinity;
    for (const waiter of waiting) if (waiter.deadline !== undefined && waiter.deadline < earliest) earliest = waiter.deadline;
    if (earliest !== Infinity) timer = setTimeout(expire, Math.max(0, earliest - Date.now()));
  }

  function release(): void {
    // The place passes straight to the next waiter, so a newcomer cannot overtake it.
    const next = waiting.shift();
    if (next) next.start();
    else running--;
  }

  /** A release that counts once, however often it is called. */
  function releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
    };
  }

  async function acquire(deadline: number | undefined, signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    if (deadline !== undefined && Date.now() >= deadline) throw new BudgetExceededError();
    if (running < concurrency) {
      running++;
      return releaser();
    }
    if (waiting.length >= maxWaiting) throw new ReadsSaturatedError();
    await new Promise<void>((start, refuse) => {
      const waiter = { deadline, start, refuse };
      waiting.push(waiter);
      arm();
      signal?.addEventListener(
        'abort',
        () => {
          const at = waiting.indexOf(waiter);
          if (at === -1) return;
          waiting.splice(at, 1);
          refuse(signal.reason);
        },
        { once: true },
      );
    });
    return releaser();
  }

  return {
    acquire,
    async run(deadline, task) {
      const done = await acquire(deadline);
      const work = Promise.resolve().then(task);
      work.then(done, done);
      return deadline === undefined ? work : withinDeadline(work, deadline);
    },
  };
}

/** `work`'s outcome, or BudgetExceededError once `deadline` passes first. */
function withinDeadline<T>(work: Promise<T>, deadline: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new BudgetExceededError()), Math.max(0, deadline - Date.now()));
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
