/**
 * The mark a restore leaves in the feed (docs/deployment.md, "Restore"). The lost store
 * may have given positions above the restored position S to consumers, for events the
 * restored store lacks; it must never give them again for other events. So the restored
 * feed's next position follows S + RESTORE_POSITION_GAP, and the feed_state row
 * `restore-gap:S` (holding that position) makes GET /events answer 410 for a position
 * between (event-routes.ts): such a consumer resyncs, as for one retention passed.
 */
import type { RestoreGap } from '../events/event-log.js';

/**
 * How far above the restored position the feed goes on: more positions than a store gives
 * in decades (30 years at 1,000 writes a second), so none the lost store gave is given
 * again; positions stay below 10^15 (what Last-Event-ID takes) for a thousand restores.
 */
export const RESTORE_POSITION_GAP = 1_000_000_000_000;

export const RESTORE_GAP_PREFIX = 'restore-gap:';

/** The gap a feed_state row describes. */
export const restoreGapOf = (row: { name: string; position: number | string }): RestoreGap => ({ after: Number(row.name.slice(RESTORE_GAP_PREFIX.length)), through: Number(row.position) });
