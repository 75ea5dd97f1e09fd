/**
 * Hands postgres.js at most `limit` queries or transactions at a time (the pool
 * size); the others wait here, in arrival order.
 *
 * Why: with more in flight than connections, postgres.js 3.4.9 pipelines onto
 * busy connections through a queue (its src/queue.js) that is never compacted
 * while non-empty and whose remove() scans it from the start, so each query costs
 * more the longer the pool stays saturated (measured by the bench harness: 23,000
 * → 11,000 queries/s over 16 s at 32 in flight on 10 connections; steady with
 * this gate). A task must not wait for another gated task, or a full gate deadlocks.
 */
export type Gate = <T>(task: () => Promise<T>, lane?: Lane) => Promise<T>;

/**
 * 'urgent' waits ahead of every 'normal' task: for short work that many others
 * wait on (the change feed's sequencer, whose run is what makes every write's
 * event readable), which would otherwise queue behind a full pool of requests.
 */
export type Lane = 'normal' | 'urgent';

export function inFlightGate(limit: number): Gate {
  let running = 0;
  const waiting: Record<Lane, (() => void)[]> = { urgent: [], normal: [] };
  return async (task, lane = 'normal') => {
    if (running >= limit) await new Promise<void>((resolve) => waiting[lane].push(resolve));
    else running++;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter, so a newcomer cannot overtake it.
      const next = waiting.urgent.shift() ?? waiting.normal.shift();
      if (next) next();
      else running--;
    }
  };
}
