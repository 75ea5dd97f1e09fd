/**
 * Which PostgreSQL and postgres.js errors mean "the store is unavailable, retry
 * later" (503) and which mean "this transaction lost a race, run it again".
 * Anything else is a defect and becomes a 500.
 */

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
