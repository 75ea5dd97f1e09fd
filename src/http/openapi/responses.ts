/**
 * The responses of every operation, as route schemas declare them: status,
 * description, headers and body. One declaration serves the serializer (the
 * body schema), the OpenAPI document (everything) and, through the document, the
 * test suite that validates every response it receives (CONTRACT §6).
 *
 * Headers are written in @fastify/swagger's form (a JSON schema per header);
 * `x-required` marks the ones always sent, and api-document.ts turns it into the
 * header object's `required`.
 */
import { Type, type TSchema } from 'typebox';
import { PROBLEM_CONTENT_TYPE } from '../problems.js';

export interface HeaderSpec {
  name: string;
  description: string;
  schema: TSchema;
  /** Sent on every response this spec is attached to. */
  required: boolean;
}

const header = (name: string, description: string, required: boolean, schema: TSchema = Type.String()): HeaderSpec => ({ name, description, schema, required });

/** Response headers, by role. */
export const H = {
  requestId: header('X-Request-Id', "The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it.", true, Type.String({ pattern: '^[A-Za-z0-9_-]{1,128}$' })),
  etag: header('ETag', "Strong entity tag of the user's current version; send it back in If-Match or If-None-Match.", true, Type.String({ pattern: '^"[\\x21\\x23-\\x7e]*"$' })),
  location: header('Location', 'The canonical URL of the created user: /users/{uid}, absolute under PUBLIC_URL when the service has one.', true),
  contentLocation: header('Content-Location', 'The canonical URL of the user: /users/{uid}, absolute under PUBLIC_URL when the service has one.', true),
  cacheControl: header('Cache-Control', '`no-cache` on representations (revalidate with If-None-Match), `no-store` on errors.', true),
  link: header('Link', 'RFC 8288: `<…>; rel="next"` when more results follow (root-relative, or absolute under PUBLIC_URL when the service has one).', false),
  totalCount: header(
    'Total-Count',
    'With `count=true`: how many users match, an RFC 8941 integer. Exact when the directory holds at most 10,000 users or an indexed condition (a word of `q`, a profile filter, a key, `active=false`, a time bound) names at most 10,000; otherwise estimated from a sample of 2,000 users and marked `; estimate` (`123000; estimate`).',
    false,
    Type.String({ pattern: '^[0-9]+(; estimate)?$' }),
  ),
  allow: header('Allow', 'The methods this path defines.', true),
  retryAfter: header('Retry-After', 'Seconds to wait before retrying.', true, Type.String({ pattern: '^[0-9]+$' })),
  wwwAuthenticate: header('WWW-Authenticate', 'RFC 6750 Bearer challenge, with `error` and `scope` when a token was sent.', true),
  acceptEncoding: header('Accept-Encoding', '`identity`: the service decodes no content coding (sent when Content-Encoding was the reason).', false),
  vary: header('Vary', '`Accept`: the answer depends on it (a JSON page or an event stream).', true),
  acceptPatch: header('Accept-Patch', 'RFC 5789: the media types PATCH takes, `application/merge-patch+json, application/json` (both an RFC 7396 merge patch).', true),
  idempotentReplayed: header('Idempotent-Replayed', '`true` when this is the stored answer to an earlier request with the same Idempotency-Key.', false),
  rateLimitLimit: header('x-ratelimit-limit', "The client's request budget per window (when rate limits are on).", false, Type.String({ pattern: '^[0-9]+$' })),
  rateLimitRemaining: header('x-ratelimit-remaining', 'Requests left in the window (when rate limits are on).', false, Type.String({ pattern: '^[0-9]+$' })),
  rateLimitReset: header('x-ratelimit-reset', 'Seconds until the window resets (when rate limits are on).', false, Type.String({ pattern: '^[0-9]+$' })),
} as const;

/** Headers every response of a rate-limited route may carry. */
const RATE_LIMITED = [H.rateLimitLimit, H.rateLimitRemaining, H.rateLimitReset];

/** The `headers` member of a response entry. */
function headersOf(specs: readonly HeaderSpec[]): Record<string, unknown> {
  return Object.fromEntries(specs.map((h) => [h.name, { ...h.schema, description: h.description, 'x-required': h.required }]));
}

export interface ResponseOptions {
  description: string;
  headers?: readonly HeaderSpec[];
  /** The body and its media type; none for 204 and 304. */
  body?: { schema: TSchema; mediaType?: string };
  /** Other media types the same response may be sent in (chosen by Accept). */
  alternatives?: readonly { schema: TSchema; mediaType: string }[];
}

/** A response entry of a route schema. Every response names its request id. */
export function response({ description, headers = [], body, alternatives = [] }: ResponseOptions): Record<string, unknown> {
  const all = headersOf([H.requestId, ...headers]);
  if (body === undefined) return { type: 'null', description, headers: all };
  const content = { [body.mediaType ?? 'application/json']: { schema: body.schema } };
  for (const other of alternatives) content[other.mediaType] = { schema: other.schema };
  return { description, headers: all, content };
}

/** What each problem status means, and the headers it always or may carry. */
const PROBLEMS: Record<number, { description: string; headers?: HeaderSpec[] }> = {
  400: { description: 'Malformed request (JSON, UTF-8, percent-encoding, headers), invalid body, lookup key or query' },
  401: { description: 'Missing or invalid credentials (when authentication is on)', headers: [H.wwwAuthenticate] },
  403: { description: 'Credentials lack the scope this operation needs', headers: [H.wwwAuthenticate] },
  404: { description: 'No such user, or no such resource' },
  405: { description: 'Method not defined on this path (see Allow)', headers: [H.allow] },
  408: { description: 'The request was not received in time' },
  409: { description: 'A unique key is taken (see `key`), or a request with the same Idempotency-Key is still running; nothing was written' },
  410: { description: 'On the change feed: the events after this position were deleted by retention (or the position is ahead of the feed): resync from a listing. On an idempotent write: the Idempotency-Key\'s first request wrote a user that has since been deleted, and its stored answer was erased with it' },
  412: { description: 'If-Match did not match, or If-None-Match did; nothing was written' },
  413: { description: 'Body larger than the limit' },
  414: { description: 'A path segment longer than 2048 characters' },
  415: { description: 'Body not in an accepted media type, charset or content coding', headers: [H.acceptEncoding] },
  417: { description: 'An Expect other than 100-continue' },
  422: { description: 'The Idempotency-Key was used for a different request' },
  429: { description: "The client's rate limit is spent (when rate limits are on)", headers: [{ ...H.retryAfter }] },
  431: { description: 'Request line and headers larger than the limit' },
  500: { description: 'Unexpected failure; the detail quotes the request id, nothing internal' },
  507: { description: 'The store is out of space (disk full or read-only): nothing was written, and a retry will not succeed until an operator frees space' },
  503: { description: 'Store unreachable, instance overloaded or stopping, signing keys unavailable, or (on an event stream) as many streams as the instance serves (see Retry-After)', headers: [H.retryAfter] },
};

/** Problem responses for these statuses (RFC 9457 documents, `application/problem+json`). */
export function problemResponses(statuses: readonly number[], extraHeaders: readonly HeaderSpec[] = []): Record<number, Record<string, unknown>> {
  return Object.fromEntries(
    statuses.map((status) => {
      const known = PROBLEMS[status];
      if (known === undefined) throw new Error(`no problem description for status ${status}`);
      const headers = [H.cacheControl, ...(known.headers ?? []), ...extraHeaders];
      return [status, response({ description: known.description, headers, body: { schema: Type.Ref('Problem'), mediaType: PROBLEM_CONTENT_TYPE } })];
    }),
  );
}

/**
 * Statuses any operation can answer: errors raised before or below routing (a
 * malformed head, a slow or oversized request, a bad Expect), the unexpected, and
 * a 503 while the instance sheds load or stops.
 */
const ANY_OPERATION = [400, 408, 417, 431, 500, 503];

export type OperationKind = 'probe' | 'public' | 'protected';

export interface OperationErrors {
  kind: OperationKind;
  /** Headers every error of the operation may carry (Idempotent-Replayed on an idempotent write). */
  headers?: readonly HeaderSpec[];
  /** Headers particular to one status (Accept-Patch on the 415 of PATCH). */
  statusHeaders?: Readonly<Record<number, readonly HeaderSpec[]>>;
  /** Statuses particular to the operation (404, 409, …). */
  statuses?: readonly number[];
  /** The path has a parameter (a segment over the limit is a 414). */
  pathParameter?: boolean;
  /** The operation reads a request body (413, 415). */
  body?: boolean;
}

/** Every error an operation can answer, for its route schema. */
export function operationErrors({ kind, statuses = [], pathParameter = false, body = false, headers = [], statusHeaders = {} }: OperationErrors): Record<number, Record<string, unknown>> {
  const all = new Set<number>([...ANY_OPERATION, ...statuses]);
  if (kind !== 'probe') all.add(429);
  if (kind === 'protected') [401, 403].forEach((s) => all.add(s));
  if (pathParameter) all.add(414);
  if (body) [413, 415].forEach((s) => all.add(s));
  const extra = kind === 'probe' ? [...headers] : [...RATE_LIMITED, ...headers];
  return Object.assign({}, ...[...all].sort((a, b) => a - b).map((status) => problemResponses([status], [...extra, ...(statusHeaders[status] ?? [])])));
}

/** The headers a success of a rate-limited (non-probe) operation may carry. */
export function successHeaders(kind: OperationKind, headers: readonly HeaderSpec[]): HeaderSpec[] {
  return kind === 'probe' ? [...headers] : [...headers, ...RATE_LIMITED];
}
