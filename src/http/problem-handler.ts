/**
 * The one place where errors become responses. Every error answer is an RFC 9457
 * problem document with `Cache-Control: no-store`. Expected errors keep their
 * problem type; anything unexpected is logged in full (with the request id) and
 * answered as `internal-error` without its message, stack, SQL or driver text.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { problemInstance } from './problem-instance.js';
import { PROBLEM_CONTENT_TYPE, ProblemError, problemDocument, type ProblemType } from './problems.js';
import { bodyValidationItems, describe, listedItems, queryValidationItems, type AjvError } from './validation-items.js';
import { describeCause } from '../observability/error-log.js';
import { createStoreSpace, type StoreSpace } from '../observability/store-space.js';
import type { RequestStep } from './request-steps.js';
import { BudgetExceededError, ReadsSaturatedError, StoreFullError, StoreUnavailableError } from '../store/store-errors.js';
import { overloadedProblem } from '../observability/overload.js';

// The items of a failed validation are made in validation-items.ts; the import command and PATCH use them from here too.
export { bodyValidationItems, describe, listedItems, type AjvError } from './validation-items.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether writes fail for lack of space (store-space.ts); set by ProblemHandlers.install(), read by /readyz. */
    storeSpace?: StoreSpace;
  }
}

/** Seconds a client should wait before retrying while the store is down. */
const STORE_RETRY_AFTER_S = '1';

/** Maps a request-validation failure to its problem. */
function validationProblem(error: FastifyError): ProblemError {
  const errors = (error.validation ?? []) as unknown as AjvError[];
  if (error.validationContext === 'querystring') {
    const items = listedItems(queryValidationItems(errors));
    return new ProblemError('invalid-query', describe(items), { errors: items });
  }
  const items = listedItems(bodyValidationItems(errors));
  return new ProblemError('validation-failed', describe(items), { errors: items });
}

/** Fastify's own client errors, by code, with a detail that names no internals. */
const FRAMEWORK_PROBLEMS: Record<string, [ProblemType, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['unsupported-media-type', 'The Content-Type header is not a valid media type.'],
  FST_ERR_CTP_BODY_TOO_LARGE: ['payload-too-large', 'The body exceeds the configured limit.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['malformed-request', 'Content-Length does not match the body.'],
  FST_ERR_BAD_URL: ['malformed-request', 'The path is not valid percent-encoded UTF-8.'],
  FST_ERR_MAX_PARAM_LENGTH: ['uri-too-long', 'A path segment is longer than the limit.'],
};

/**
 * Other client errors a plugin raises with a status (the docs page's static
 * files: a path outside its folder is a 403, a missing file a 404). Answered by
 * status with a fixed problem type; a path that may not be served is
 * indistinguishable from one that does not exist.
 */
const CLIENT_ERROR_PROBLEMS: Record<number, [ProblemType, string]> = {
  400: ['malformed-request', 'The request could not be parsed.'],
  403: ['not-found', 'No resource exists at this path.'],
  404: ['not-found', 'No resource exists at this path.'],
  412: ['precondition-failed', 'A precondition of the request did not hold.'],
  413: ['payload-too-large', 'The body exceeds the configured limit.'],
  415: ['unsupported-media-type', 'The body is not in a media type this route accepts.'],
};
const OTHER_CLIENT_ERROR: [ProblemType, string] = ['malformed-request', 'The request cannot be served as sent.'];

export function storeUnavailableProblem(error?: StoreUnavailableError): ProblemError {
  if (error?.outcomeUnknown) {
    return new ProblemError(
      'store-unavailable',
      'The connection to the user store was lost while the write was being committed, so whether it took effect is unknown. Sending the same request again with the same Idempotency-Key is safe: it returns the first answer if the write took effect, and makes the write if it did not.',
      {},
      { 'retry-after': STORE_RETRY_AFTER_S },
    );
  }
  return new ProblemError('store-unavailable', 'The user store cannot be reached; retry shortly.', {}, { 'retry-after': STORE_RETRY_AFTER_S });
}

/**
 * A request ran past REQUEST_BUDGET_MS and its reads were stopped (CONTRACT §7). Retry-After
 * as for an outage: the same request may fit when the instance is less busy; a narrower one
 * (a rarer word, fewer sort keys, no count) costs less.
 */
export function budgetExceededProblem(): ProblemError {
  return new ProblemError(
    'budget-exceeded',
    'The request ran past its time budget and its work was stopped; nothing was changed. Retry shortly, or narrow the request (rarer words, fewer sort keys, no count, a smaller page).',
    {},
    { 'retry-after': STORE_RETRY_AFTER_S },
  );
}

/** A write failed for lack of space. No Retry-After: a retry fails the same way until an operator frees space. */
export function storeFullProblem(error?: StoreFullError): ProblemError {
  if (error?.readOnly) return new ProblemError('store-full', 'The user store is read-only; nothing was written. A retry will not succeed until an operator makes it writable again.');
  return new ProblemError('store-full', 'The user store is out of space; nothing was written. A retry will not succeed until an operator frees space.');
}

/** Turns any error into the problem it is answered with; `undefined` for an unexpected one. */
export function toProblem(error: unknown): ProblemError | undefined {
  if (error instanceof ProblemError) return error;
  if (error instanceof StoreUnavailableError) return storeUnavailableProblem(error);
  if (error instanceof StoreFullError) return storeFullProblem(error);
  if (error instanceof BudgetExceededError) return budgetExceededProblem();
  if (error instanceof ReadsSaturatedError) return overloadedProblem();
  const e = error as FastifyError;
  if (e?.validation) return validationProblem(e);
  const known = e?.code ? FRAMEWORK_PROBLEMS[e.code] : undefined;
  if (known) return new ProblemError(known[0], known[1]);
  const status = e?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const [type, detail] = CLIENT_ERROR_PROBLEMS[status] ?? OTHER_CLIENT_ERROR;
    return new ProblemError(type, detail);
  }
  return undefined;
}

/** The `instance` of a problem: the request's path as problem-instance.ts makes it (the target as rewritten before routing). */
function instanceOf(request: FastifyRequest): string {
  return request.server.publishedUrl(problemInstance(request.raw.url ?? request.url));
}

/**
 * Answers `problem`. Every problem names its request id, also when it is raised
 * before any request step ran. A problem sent before the request's body was
 * received (a refusal in a request step) closes the connection: otherwise it
 * would stay open for a body nobody will read, and a graceful stop would wait for it.
 * `status` answers it with another status than its type's (and says so in the
 * document): readiness reports `store-full` as 503, "not ready".
 */
export function sendProblem(request: FastifyRequest, reply: FastifyReply, problem: ProblemError, status?: number): FastifyReply {
  if (!request.raw.complete) reply.header('connection', 'close');
  const answer = problemResponse(request, problem, status);
  return reply.code(answer.status).header('x-request-id', request.id).headers(answer.headers).send(answer.body);
}

/** The status, headers and body a problem is answered with (also what an Idempotency-Key keeps of it). */
export function problemResponse(request: FastifyRequest, problem: ProblemError, status = problem.status): { status: number; headers: Record<string, string>; body: string } {
  const document = { ...problemDocument(problem.problemType, problem.detail, instanceOf(request), problem.extras), status };
  return {
    status,
    headers: { ...problem.headers, 'cache-control': 'no-store', 'content-type': `${PROBLEM_CONTENT_TYPE}; charset=utf-8` },
    body: JSON.stringify(document),
  };
}

/** How often a 5xx caused by an outage is logged, per problem type: once per window, with the count suppressed. */
const OUTAGE_LOG_WINDOW_MS = 10_000;

export interface ProblemHandlers {
  /** Turns any error into its problem response; also Fastify's `frameworkErrors`. */
  handleError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply;
  /**
   * Installs the error and not-found handlers. A request no route matched runs no
   * route's steps; `notFoundStep` (admission and the rate limit) runs for it before the 404.
   */
  install(app: FastifyInstance, notFoundStep?: RequestStep): void;
  /** Writes that failed for lack of space, for logs and readiness (also `app.storeSpace` once installed). */
  readonly storeSpace: StoreSpace;
}

export function createProblemHandlers(): ProblemHandlers {
  // Per problem type: when its cause was last logged, and how many were not logged since.
  const lastLogged = new Map<ProblemType, { at: number; suppressed: number }>();
  const storeSpace = createStoreSpace();

  /**
   * A client's mistake is not the service's: nothing is logged (clients must not be
   * able to fill the log). A 5xx caused by an outage (the store or the key set is
   * unreachable) is logged as a warning naming the cause, without a stack, at most
   * once per window per type, however many requests it refuses.
   */
  function warnOutage(request: FastifyRequest, problem: ProblemError, cause: unknown): void {
    const now = Date.now();
    const last = lastLogged.get(problem.problemType);
    if (last !== undefined && now - last.at < OUTAGE_LOG_WINDOW_MS) {
      last.suppressed++;
      return;
    }
    lastLogged.set(problem.problemType, { at: now, suppressed: 0 });
    request.log.warn({ cause: describeCause(cause), ...(last?.suppressed ? { suppressed: last.suppressed } : {}) }, problem.detail);
  }

  function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
    const problem = toProblem(error);
    if (problem) {
      const cause = error instanceof ProblemError ? error.cause : error;
      // A write that failed for lack of space: an error line (counted) and readiness (store-space.ts).
      if (problem.problemType === 'store-full') storeSpace.writeFailed(cause, request.log);
      else if (problem.status >= 500 && cause !== undefined) warnOutage(request, problem, cause);
      return sendProblem(request, reply, problem);
    }
    request.log.error({ err: error }, 'unexpected error');
    return sendProblem(request, reply, new ProblemError('internal-error', `The request failed; quote request id ${request.id} to an operator.`));
  }

  return {
    handleError,
    storeSpace,
    install(app, notFoundStep) {
      app.setErrorHandler(handleError);
      // Routes registered after this (the readiness probe) find it; a count not logged yet is logged on close.
      app.decorate('storeSpace', storeSpace);
      app.addHook('onClose', async () => storeSpace.close());
      const notFound = () => new ProblemError('not-found', 'No resource exists at this path.');
      app.setNotFoundHandler(async (request, reply) => {
        await notFoundStep?.(request, reply);
        return sendProblem(request, reply, notFound());
      });
    },
  };
}
