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
