/**
 * Retention of the change feed: every EVENTS_RETENTION_CHECK_S, events older
 * than EVENTS_RETENTION_DAYS, or beyond the newest EVENTS_RETENTION_COUNT, are
 * deleted in batches, oldest first. When a relay publishes the feed, no event
 * it has not published is deleted. A consumer asking for a deleted position is
 * answered 410 (event-routes.ts).
 *
 * Every instance runs it; their batches delete disjoint or already-deleted rows,
 * so running twice at once costs a little and breaks nothing.
 */
import type { EventsConfig } from '../config.js';
import type { EventLog, RetentionRule } from './event-log.js';

/** Events deleted per statement: short transactions, never one huge delete. */
export const RETENTION_BATCH = 1000;

export interface RetentionOptions {
  events: EventLog;
  config: Pick<EventsConfig, 'retentionMs' | 'retentionCount' | 'retentionCheckMs'>;
  /** The relay whose progress bounds retention, when one is configured. */
  relayName?: string;
  onError: (error: unknown) => void;
  onDeleted?: (count: number) => void;
}

/** The rule for now; undefined when nothing is ever deleted. */
export async function retentionRule(options: Omit<RetentionOptions, 'onError'>, now = Date.now()): Promise<RetentionRule | undefined> {
  const { config, relayName, events } = options;
  if (config.retentionMs === 0 && config.retentionCount === 0) return undefined;
  return {
    ...(config.retentionMs > 0 ? { before: new Date(now - config.retentionMs).toISOString() } : {}),
    ...(config.retentionCount > 0 ? { keep: config.retentionCount } : {}),
    ...(relayName !== undefined ? { notAfter: await events.relayPosition(relayName) } : {}),
  };
}

/** Deletes what the rule allows, batch by batch; resolves with the count. */
export async function applyRetention(options: Omit<RetentionOptions, 'onError'>): Promise<number> {
  const rule = await retentionRule(options);
  if (rule === undefined) return 0;
  let total = 0;
  for (;;) {
    const deleted = await options.events.prune(rule, RETENTION_BATCH);
    total += deleted;
    options.onDeleted?.(deleted);
    if (deleted < RETENTION_BATCH) return total;
    // Let requests run between batches.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Runs retention periodically; returns the function that stops it. */
export function startRetention(options: RetentionOptions): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    applyRetention(options)
      .catch(options.onError)
      .finally(() => {
        running = false;
      });
  }, options.config.retentionCheckMs);
  timer.unref();
  return () => clearInterval(timer);
}
