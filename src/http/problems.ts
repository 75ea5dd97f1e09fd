/**
 * RFC 9457 problem details: the fixed list of problem types this service answers
 * with, and the error type that carries one through Fastify to the error handler.
 * The list is part of the contract (the README's Errors table); `type` and `status` are
 * stable, `title` is fixed per type, `detail` may change.
 */

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export const PROBLEM_TYPES = {
  'malformed-request': { status: 400, title: 'The request could not be parsed' },
  'validation-failed': { status: 400, title: 'The request body is not a valid user' },
  'invalid-lookup-key': { status: 400, title: 'The lookup key is not one of the allowed keys' },
  'invalid-query': { status: 400, title: 'The query parameters are not valid' },
  unauthorized: { status: 401, title: 'Credentials are missing or not valid' },
  forbidden: { status: 403, title: 'The credentials lack the scope this request needs' },
  'not-found': { status: 404, title: 'No such resource' },
  'method-not-allowed': { status: 405, title: 'The method is not defined on this path' },
  'events-gone': { status: 410, title: 'The change events asked for were deleted; resync from a listing' },
  'resource-erased': { status: 410, title: 'The user this request wrote has been deleted and its answer erased' },
  'key-conflict': { status: 409, title: 'A unique key is already taken' },
  'idempotency-key-in-use': { status: 409, title: 'A request with this Idempotency-Key is still being processed' },
  'precondition-failed': { status: 412, title: 'An If-Match or If-None-Match precondition did not hold' },
  'request-timeout': { status: 408, title: 'The request was not received in time' },
  'payload-too-large': { status: 413, title: 'The request body is larger than the limit' },
  'uri-too-long': { status: 414, title: 'The request path is longer than the limit' },
  'unsupported-media-type': { status: 415, title: 'The request body is not in a media type or encoding this route accepts' },
  'expectation-failed': { status: 417, title: 'The Expect header cannot be met' },
  'idempotency-key-reused': { status: 422, title: 'The Idempotency-Key was used for another request' },
  'rate-limited': { status: 429, title: 'Too many requests' },
  'request-header-fields-too-large': { status: 431, title: 'The request headers are larger than the limit' },
  'internal-error': { status: 500, title: 'The service failed unexpectedly' },
  'store-unavailable': { status: 503, title: 'The user store is unavailable' },
  overloaded: { status: 503, title: 'The instance is overloaded' },
  'budget-exceeded': { status: 503, title: 'The request ran past its time budget' },
  'subscriber-limit': { status: 503, title: 'The instance serves as many event streams as it may' },
  'authentication-unavailable': { status: 503, title: 'Credentials cannot be verified right now' },
  'store-full': { status: 507, title: 'The user store is out of space' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ProblemType = keyof typeof PROBLEM_TYPES;

/** Base of the `type` URIs: a path on this service, documented in the README's Errors table. */
export const PROBLEM_TYPE_BASE = '/problems/';

/** One entry of `errors`: where in the request and what is wrong there. */
export type ProblemItem = { pointer: string; detail: string } | { parameter: string; detail: string };

export interface ProblemExtras {
  errors?: ProblemItem[];
  /** On key-conflict: the unique key that was taken (never whose it is). */
  key?: string;
}

export interface ProblemDocument extends ProblemExtras {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
}

/** An error that is answered as a problem document; anything else becomes `internal-error`. */
export class ProblemError extends Error {
  readonly status: number;
  constructor(
    readonly problemType: ProblemType,
    readonly detail: string,
    readonly extras: ProblemExtras = {},
    /** Response headers the problem requires (`Allow` on 405, `Retry-After` on 503). */
    readonly headers: Record<string, string> = {},
    /** For a 5xx: what failed, logged as a warning (never sent). */
    options?: { cause?: unknown },
  ) {
    super(detail, options);
    this.name = 'ProblemError';
    this.status = PROBLEM_TYPES[problemType].status;
  }
}

export function problemDocument(type: ProblemType, detail: string, instance: string, extras: ProblemExtras = {}): ProblemDocument {
  const { status, title } = PROBLEM_TYPES[type];
  return { type: PROBLEM_TYPE_BASE + type, title, status, detail, instance, ...extras };
}
