/**
 * Overload detection for load shedding: the event loop's mean delay over the
 * last second, measured with Node's own `monitorEventLoopDelay`. Same measure
 * as @fastify/under-pressure, whose per-request hook read `request.routeOptions`
 * (an object built on every access) and cost more than the check itself; here
 * the request hook reads one boolean (request-hooks.ts).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** How often the timer samples the loop (ms); its own expected delay is subtracted. */
const RESOLUTION_MS = 10;
/** The window over which the mean delay is taken and the verdict renewed. */
const SAMPLE_INTERVAL_MS = 1000;

export interface OverloadMonitor {
  /** True while the last window's mean event-loop delay exceeded the limit. */
  isOverloaded(): boolean;
  stop(): void;
}

export function monitorOverload(maxDelayMs: number): OverloadMonitor {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  let overloaded = false;
  const timer = setInterval(() => {
    // No sample in a whole window means the loop never got to run its timer: overloaded.
    const delayMs = histogram.count === 0 ? Infinity : Math.max(0, histogram.mean / 1e6 - RESOLUTION_MS);
    overloaded = delayMs > maxDelayMs;
    histogram.reset();
  }, SAMPLE_INTERVAL_MS);
  timer.unref();
  return {
    isOverloaded: () => overloaded,
    stop() {
      clearInterval(timer);
      histogram.disable();
    },
  };
}
