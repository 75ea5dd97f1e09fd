/**
 * The lane of expensive reads (a search page, a count, a list walk's step): at most
 * `concurrency` run at once, the others wait in arrival order, and at most `maxWaiting`
 * may wait. So a reader that sends many expensive requests occupies the lane, never the
 * connections or the thread that reads by key and writes: what is shed under such load
 * is expensive reads (ReadsSaturatedError, answered 503 `overloaded`), not cheap ones.
 *
 * A read whose deadline passes while it waits never starts (BudgetExceededError): its
 * client has been answered already, so running it would only delay the reads behind it.
 * A read still running at its deadline is answered BudgetExceededError then, whatever the
 * store does to stop it; its place in the lane is given up only when it has stopped.
 */
import { BudgetExceededError, ReadsSaturatedError } from './store-errors.js';

/**
 * Most expensive reads that may wait in a store's lane: more than a busy instance's clients
 * keep in flight (a load of 50 connections searching waits whole), few enough that a flood
 * is refused at once instead of answered 503 at its deadline after seconds of waiting.
 */
export const READ_LANE_WAITING = 256;

export type ReadLane = <T>(deadline: number | undefined, task: () => Promise<T>) => Promise<T>;

export function readLane(concurrency: number, maxWaiting: number): ReadLane {
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
    if (earliest === Infinity) return;
    timer = setTimeout(expire, Math.max(0, earliest - Date.now()));
    timer.unref();
  }

  function release(): void {
    const next = waiting.shift();
    if (next) next.start();
    else running--;
  }

  return async (deadline, task) => {
    if (deadline !== undefined && Date.now() >= deadline) throw new BudgetExceededError();
    if (running >= concurrency) {
      if (waiting.length >= maxWaiting) throw new ReadsSaturatedError();
      // The slot passes straight to the next waiter, so a newcomer cannot overtake it.
      await new Promise<void>((start, refuse) => {
        waiting.push({ deadline, start, refuse });
        arm();
      });
    } else running++;
    const work = Promise.resolve().then(task);
    work.then(release, release);
    return deadline === undefined ? work : withinDeadline(work, deadline);
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
