/**
 * The change feed's storage port (CONTRACT §11): the transactional outbox every
 * store writes in the same transaction as each user write, read by position.
 *
 * Invariants every implementation holds (test/event-log-contract.ts checks them):
 * - One event per committed write: create → `user.created`, a replace or patch
 *   that changes the user → `user.updated`, delete → `user.deleted`, and each
 *   user an import creates or updates. No event without its write, no write
 *   without its event (a write that changes nothing has none).
 * - Positions only grow and follow commit order: once an event at position P is
 *   readable, no event at or below P becomes readable later. (SQLite assigns them
 *   as it commits, one writer at a time; PostgreSQL assigns them after commit, in
 *   one serialized sequencer: postgres-sequencer.ts.)
 * - Retention deletes the oldest events only, and remembers how far it went
 *   (`prunedThrough`): a reader asking to resume before it has lost events.
 */
import type { EventOrigin } from './event-origin.js';

export const EVENT_TYPES = ['user.created', 'user.updated', 'user.deleted'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * One event as stored: `data` is JSON text (the user as the API returns it; for a delete its
 * uid and last version; for an event of a user deleted since, its uid, version and
 * `"erased": true`: erasure.ts).
 */
export interface StoredEvent {
  position: number;
  type: EventType;
  /** The user's uid. */
  subject: string;
  /** When the write happened: RFC 3339 UTC with milliseconds. */
  time: string;
  data: string;
  /** Who wrote it and through which door; absent for events written before origins were kept. */
  origin?: EventOrigin;
}

export interface EventPage {
  /** Events after the asked position, in position order. */
  events: StoredEvent[];
  /** The highest position retention has deleted (0: none). Asking to resume before it means events were lost. */
  prunedThrough: number;
  /** The highest position readable when the page was read. */
  latest: number;
  /**
   * Positions this store never gives, each after a restore from a snapshot (exclusive
   * `after`, inclusive `through`): the lost store may have given them to a consumer for
   * events the snapshot lacks, so a consumer that read one must resync (410).
   */
  restoreGaps?: readonly RestoreGap[];
}

export interface RestoreGap {
  after: number;
  through: number;
}

export interface RetentionRule {
  /** Delete events older than this time (RFC 3339). */
  before?: string;
  /** Keep at most this many of the newest events. */
  keep?: number;
  /** Never delete beyond this position (a relay has not published past it). */
  notAfter?: number;
}

export interface EventLog {
  /**
   * At most `limit` readable events after `after`, with the horizon and the latest
   * position. With `subject`, only that user's events (read through the user's
   * chain of events, never a walk of the feed): a page shorter than `limit`
   * then means none of its events follow up to `latest`.
   */
  read(after: number, limit: number, subject?: string): Promise<EventPage>;

  /** The highest readable position (the horizon when every event was pruned; 0 when there was never one). */
  latest(): Promise<number>;

  /**
   * Resolves with the latest position once every event committed before the
   * call is readable. SQLite's are at commit; PostgreSQL runs its sequencer.
   * Writes never wait for this: a feed reader sees an event shortly after its write.
   */
  settle(): Promise<number>;

  /**
   * Calls `listener` with the latest readable position whenever new events may
   * have become readable: at once for this process's writes, and through the
   * database for other processes' (a notification, or a poll). May call it with
   * a position it announced before. Returns the function that stops it.
   */
  watch(listener: (latest: number) => void): () => void;

  /** Deletes at most `limit` of the oldest events the rule allows; returns how many. */
  prune(rule: RetentionRule, limit: number): Promise<number>;

  /** How far the relay named `name` has published (0 when never). */
  relayPosition(name: string): Promise<number>;

  /** Records that the relay named `name` has published every event up to `position`. */
  setRelayPosition(name: string, position: number): Promise<void>;
}
