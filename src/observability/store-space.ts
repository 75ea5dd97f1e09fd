/**
 * A store that is out of space, as this instance sees it (docs/deployment.md,
 * "Out of space"). Every write that fails with StoreFullError is reported here:
 *
 * - It is logged at error level, counted: the first failure at once, then at
 *   most one line per interval (10 s) saying how many writes failed since the
 *   previous line ("12 writes failed: the store is out of space"). A count left
 *   when the failures stop is logged at the end of its interval, or at once when
 *   the store takes writes again or the app closes: every failed write is in
 *   exactly one line's count.
 * - The instance is not ready (GET /readyz answers 503) until the store proves it
 *   takes writes again. A balancer sends no traffic to an instance that is not
 *   ready, so no client write can prove it: readiness does, with a write probe of
 *   its own (UserStore.probeWrite: a committed write of 64 KiB, in its own
 *   transaction, that leaves the data as it was), run only while a failure is
 *   recorded and at most one at a time. "Ready" thus means room for a large
 *   write, not merely for the smallest: a store with less room than that is as
 *   good as full (a write larger than the room left fails, and the instance is
 *   not ready again).
 */
import type { FastifyBaseLogger } from 'fastify';
import { StoreFullError } from '../store/store-errors.js';
import { describeCause } from './error-log.js';

/** How often a count of failed writes is logged, at most. */
export const STORE_FULL_LOG_INTERVAL_MS = 10_000;

export interface StoreSpace {
  /** A write failed for lack of space: counted, logged (throttled) and the instance not ready. */
  writeFailed(error: unknown, log: FastifyBaseLogger): void;
  /** Whether a write failed for lack of space since the store last took the probe's write. */
  readonly full: boolean;
  /**
   * Whether the store has room. True at once when no write failed for lack of space;
   * otherwise runs `probe` (shared by concurrent callers): true, and the state cleared,
   * when it succeeds and no write failed meanwhile; false when it fails with
   * StoreFullError. Any other error of the probe (the store is unreachable) is thrown.
   * The recovery is logged to `logger` (the readiness request's), with the count left.
   */
  hasRoom(probe: () => Promise<void>, logger?: FastifyBaseLogger): Promise<boolean>;
  /** Logs the count not logged yet and stops the timer (the app closes). */
  close(): void;
}

export interface StoreSpaceOptions {
  intervalMs?: number;
  /** The clock, in ms (tests). */
  now?: () => number;
}

const failedLine = (count: number, cause: unknown) =>
  `${count} ${count === 1 ? 'write' : 'writes'} failed: the store is ${cause instanceof StoreFullError && cause.readOnly ? 'read-only' : 'out of space'}`;

export function createStoreSpace({ intervalMs = STORE_FULL_LOG_INTERVAL_MS, now = Date.now }: StoreSpaceOptions = {}): StoreSpace {
  let full = false;
  /** Failed writes ever, to tell whether one failed while a probe ran. */
  let failures = 0;
  /** Failed writes not in a logged line yet, the last one's cause, and the logger to tell. */
  let unlogged = 0;
  let lastCause: unknown;
  let log: FastifyBaseLogger | undefined;
  let lastLineAt = -Infinity;
  let timer: NodeJS.Timeout | undefined;
  let probing: Promise<boolean> | undefined;

  function logCount(): void {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (unlogged === 0 || log === undefined) return;
    log.error({ failed: unlogged, cause: describeCause(lastCause) }, failedLine(unlogged, lastCause));
    lastLineAt = now();
    unlogged = 0;
  }

  async function probeOnce(probe: () => Promise<void>, logger: FastifyBaseLogger | undefined): Promise<boolean> {
    const before = failures;
    try {
      await probe();
    } catch (error) {
      if (error instanceof StoreFullError) return false;
      throw error;
    }
    // A write that failed while the probe ran is newer news than the probe's success.
    if (failures !== before) return false;
    full = false;
    if (logger !== undefined) log = logger;
    logCount();
    log?.info('the store takes writes again: the instance is ready');
    return true;
  }

  return {
    writeFailed(error, logger) {
      failures += 1;
      unlogged += 1;
      full = true;
      lastCause = error;
      log = logger;
      const wait = lastLineAt + intervalMs - now();
      if (wait <= 0) logCount();
      else if (timer === undefined) {
        timer = setTimeout(logCount, wait);
        timer.unref();
      }
    },
    get full() {
      return full;
    },
    async hasRoom(probe, logger) {
      if (!full) return true;
      probing ??= probeOnce(probe, logger).finally(() => {
        probing = undefined;
      });
      return probing;
    },
    close() {
      logCount();
    },
  };
}
