/**
 * A warning for failures of background work that retries by itself (the change
 * feed's sequencer, hub and retention): the first failure is logged at once,
 * then at most one line per interval, counting the ones left out, so an outage
 * of the store is a few lines, not one per second per task.
 */
import type { FastifyBaseLogger } from 'fastify';

export function throttledWarning(log: () => FastifyBaseLogger | undefined, message: string, intervalMs = 60_000): (error: unknown) => void {
  let lastAt = -Infinity;
  let suppressed = 0;
  return (error) => {
    const now = Date.now();
    if (now - lastAt < intervalMs) {
      suppressed += 1;
      return;
    }
    log()?.warn({ err: error, ...(suppressed > 0 ? { suppressed } : {}) }, message);
    lastAt = now;
    suppressed = 0;
  };
}
