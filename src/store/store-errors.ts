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

/** The store cannot be reached or is shutting down; the request may be retried. */
export class StoreUnavailableError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('the user store is unavailable', options);
    this.name = 'StoreUnavailableError';
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
