/**
 * Errors every store raises in domain terms, so the service and the HTTP layer
 * never see a driver's error. Anything else a store throws is a defect (500).
 */
import type { UniqueKey } from '../users/user.js';

/** A unique key of the write is held by another user; the write changed nothing. */
export class KeyConflictError extends Error {
  constructor(readonly key: UniqueKey) {
    super(`unique key ${key} is taken`);
    this.name = 'KeyConflictError';
  }
}

/**
 * The store cannot be reached or is shutting down; the request may be retried.
 * `outcomeUnknown`: the connection broke while a write was running or committing
 * (a failover), so whether it took effect is unknown; a retry with the same
 * Idempotency-Key gets its answer if it did, and runs it if it did not.
 */
export class StoreUnavailableError extends Error {
  readonly outcomeUnknown: boolean;
  constructor(options?: { cause?: unknown; outcomeUnknown?: boolean }) {
    super(options?.outcomeUnknown ? 'the outcome of the write is unknown' : 'the user store is unavailable', options);
    this.name = 'StoreUnavailableError';
    this.outcomeUnknown = options?.outcomeUnknown === true;
  }
}

/**
 * The store is out of space: the disk (or volume, or quota) is full, or the
 * database became read-only while the service ran. The write changed nothing,
 * and retrying it will not succeed until an operator frees space: unlike
 * StoreUnavailableError, this is not "retry shortly".
 */
export class StoreFullError extends Error {
  /** The store refuses writes because it became read-only (not for lack of space): said as such. */
  readonly readOnly: boolean;
  constructor(options?: { cause?: unknown; readOnly?: boolean }) {
    super(options?.readOnly ? 'the store is read-only' : 'the store is out of space', options);
    this.name = 'StoreFullError';
    this.readOnly = options?.readOnly === true;
  }
}

/** The Idempotency-Key of a write is already recorded (by an earlier or concurrent request): nothing was written. */
export class IdempotencyKeyTaken extends Error {
  constructor() {
    super('the idempotency key is already recorded');
    this.name = 'IdempotencyKeyTaken';
  }
}

/**
 * Thrown by a store inside its own write to roll it back and answer `outcome`
 * instead (not found, precondition failed): nothing the write did is kept, a
 * claimed Idempotency-Key included. Never leaves the store.
 */
export class AbandonedWrite<T> extends Error {
  constructor(readonly outcome: T) {
    super('the write is abandoned');
    this.name = 'AbandonedWrite';
  }
}

/**
 * A read ran past the deadline its request gave it (CONTRACT §7, the time budget): its work
 * was stopped (the running statement interrupted or cancelled, no further one started).
 * Retrying the same request costs the same; a narrower one may fit.
 */
export class BudgetExceededError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('the read ran past its time budget', options);
    this.name = 'BudgetExceededError';
  }
}

/**
 * As many expensive reads (searches, counts, list walks) wait for their turn as the store
 * lets wait (read-lane.ts): this one was refused before it started, so the reads that
 * cost little (by key) keep being served.
 */
export class ReadsSaturatedError extends Error {
  constructor() {
    super('too many expensive reads are waiting');
    this.name = 'ReadsSaturatedError';
  }
}
