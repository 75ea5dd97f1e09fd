/**
 * Which PostgreSQL and postgres.js errors mean "the store is unavailable, retry
 * later" (503), which mean "the store is out of space" (507: a retry will not
 * succeed until an operator frees space) and which mean "this transaction lost a
 * race, run it again". Anything else is a defect and becomes a 500.
 */
import { StoreFullError, StoreUnavailableError } from '../store-errors.js';

/** SQLSTATEs worth re-running the whole transaction for: deadlock, serialization failure. */
const RETRYABLE = new Set(['40P01', '40001']);

/** SQLSTATE classes and codes that mean the server cannot serve now. */
const UNAVAILABLE_CLASSES = ['08', '53', '57', '58']; // connection, resources, operator intervention, system
const UNAVAILABLE_CODES = new Set(['57014']); // statement timeout (class 57) is named for clarity

/** postgres.js and Node socket error codes for a connection that failed or broke. */
const CONNECTION_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

function codeOf(error: unknown): string {
  return String((error as { code?: unknown })?.code ?? '');
}

export function isRetryable(error: unknown): boolean {
  return RETRYABLE.has(codeOf(error));
}

/**
 * SQLSTATEs of a server that cannot take writes for lack of room: 53100 disk_full
 * (a relation or the WAL could not be extended), and 25006
 * read_only_sql_transaction, which a server (or a managed service that sets
 * `default_transaction_read_only` as its storage fills, or a standby left behind
 * a failover) answers to every write while it is read-only. Neither clears on a retry.
 */
const FULL_CODES = new Set(['53100', '25006']);

/** The server cannot take writes for lack of space (or is read-only): StoreFullError. */
export function isStoreFull(error: unknown): boolean {
  return (error as { name?: string })?.name === 'PostgresError' && FULL_CODES.has(codeOf(error));
}

/** The server cannot serve now. Also true of disk_full (class 53): translatePostgresError() asks isStoreFull() first. */
export function isUnavailable(error: unknown): boolean {
  const code = codeOf(error);
  if (CONNECTION_CODES.has(code) || UNAVAILABLE_CODES.has(code)) return true;
  // postgres.js marks server errors with name 'PostgresError' and a five-character SQLSTATE.
  return (error as { name?: string })?.name === 'PostgresError' && code.length === 5 && UNAVAILABLE_CLASSES.includes(code.slice(0, 2));
}

/** A unique constraint refused the statement (23505): with user_keys, a key another user holds. */
export function isUniqueViolation(error: unknown): boolean {
  return codeOf(error) === '23505';
}

/** StoreFullError for an error that means no room; any other error as it is (left to retries and translation). */
export function storeFullOr(error: unknown): unknown {
  return isStoreFull(error) ? new StoreFullError({ cause: error, readOnly: codeOf(error) === '25006' }) : error;
}

/**
 * The store error a driver error stands for, once retries are spent: StoreFullError,
 * StoreUnavailableError (also for a race lost every time), or the error itself (a
 * defect, or a store error already).
 */
export function translatePostgresError(error: unknown): unknown {
  if (isStoreFull(error)) return storeFullOr(error);
  if (isUnavailable(error) || isRetryable(error)) return new StoreUnavailableError({ cause: error });
  return error;
}

/**
 * SQLSTATEs of a server that went away or stopped being the primary: administrator or
 * crash shutdown (57P01, 57P02), still starting or recovering (57P03), and a read-only
 * server (25006: a standby, or an old primary that turned read-only).
 */
const PRIMARY_LOST_CODES = new Set(['57P01', '57P02', '57P03', '25006']);

/** The error may mean that the primary died, was demoted or turned read-only: worth looking for the primary again. */
export function mayMeanPrimaryLost(error: unknown): boolean {
  const code = codeOf(error);
  return CONNECTION_CODES.has(code) || PRIMARY_LOST_CODES.has(code) || code.startsWith('08');
}

/**
 * Failures that happen before a statement reaches a server that could run it: no
 * connection could be made (refused, timed out, name not resolved), the client had
 * been ended (moved to another primary), or a read-only server refused the statement
 * (it wrote nothing, and its transaction rolled back). Running the work again is safe.
 */
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'CONNECT_TIMEOUT', 'CONNECTION_ENDED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', '57P03', '25006', '08001', '08004']);

export function neverSent(error: unknown): boolean {
  return NEVER_SENT_CODES.has(codeOf(error));
}

/**
 * The connection broke while a statement may have been running or committing: whether a
 * write took effect is unknown (its answer was lost).
 */
export function answerLost(error: unknown): boolean {
  return mayMeanPrimaryLost(error) && !neverSent(error);
}
