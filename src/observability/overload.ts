/**
 * Load shedding: requests get a 503 `overloaded` problem while the longest
 * event-loop delay of the last second exceeds OVERLOAD_MAX_EVENT_LOOP_DELAY_MS,
 * measured with Node's own `monitorEventLoopDelay`. The longest, not the mean:
 * a stalled loop takes few samples, so one stall of seconds among a hundred
 * normal samples would barely move a mean that is weighted by samples, not time.
 * Probes are never shed; `/readyz` answers 503 while shedding, so readiness and shedding agree and a
 * balancer routes around the instance for exactly as long as it refuses work.
 *
 * Measuring starts when the server listens: the instance's own start-up
 * (compiling schemas, opening the store) blocks the loop and is not overload.
 * A window without a single sample carries no evidence either way and keeps the
 * previous verdict; a loop stalled for the whole window shows as one long sample
 * in the next one.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { ProblemError } from '../http/problems.js';
import type { RequestStep } from '../http/request-steps.js';

/** How often the timer samples the loop (ms); its own expected delay is subtracted. */
const RESOLUTION_MS = 10;
/** The window over which the longest delay is taken and the verdict renewed. */
const SAMPLE_INTERVAL_MS = 1000;

export interface OverloadMonitor {
  /** False when shedding is turned off (OVERLOAD_MAX_EVENT_LOOP_DELAY_MS=0): no step needs to ask. */
  readonly enabled: boolean;
  /** True while the last window with samples had an event-loop delay beyond the limit. */
  isOverloaded(): boolean;
  start(): void;
  stop(): void;
}

/** A monitor; `maxDelayMs` 0 makes one that never reports overload. */
export function monitorOverload(maxDelayMs: number): OverloadMonitor {
  if (maxDelayMs === 0) return { enabled: false, isOverloaded: () => false, start() {}, stop() {} };
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  let overloaded = false;
  let timer: NodeJS.Timeout | undefined;
  return {
    enabled: true,
    isOverloaded: () => overloaded,
    start() {
      if (timer !== undefined) return;
      histogram.reset();
      histogram.enable();
      // The window's own timer is a sample too: a stall that began just before the window
      // closed delays this callback, possibly before the histogram's timer has recorded it.
      let due = performance.now() + SAMPLE_INTERVAL_MS;
      timer = setInterval(() => {
        const now = performance.now();
        const late = now - due;
        due = now + SAMPLE_INTERVAL_MS;
        if (late > maxDelayMs) overloaded = true;
        else if (histogram.count > 0) overloaded = Math.max(0, histogram.max / 1e6 - RESOLUTION_MS) > maxDelayMs;
        histogram.reset();
      }, SAMPLE_INTERVAL_MS);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
      histogram.disable();
      overloaded = false;
    },
  };
}

export function overloadedProblem(): ProblemError {
  return new ProblemError('overloaded', 'The instance is overloaded; retry shortly.', {}, { 'retry-after': '2' });
}

/** Starts measuring when the app listens and stops when it closes. */
export function attachOverloadMonitor(app: FastifyInstance, monitor: OverloadMonitor): void {
  app.addHook('onListen', async () => monitor.start());
  app.addHook('onClose', async () => monitor.stop());
}

/** The request step shedding non-probe routes while overloaded. */
export function sheddingStep(monitor: OverloadMonitor): RequestStep {
  return () => {
    if (monitor.isOverloaded()) throw overloadedProblem();
  };
}
