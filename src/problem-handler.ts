/**
 * The one place where errors become responses. Every error answer is an RFC 9457
 * problem document with `Cache-Control: no-store`. Expected errors keep their
 * problem type; anything unexpected is logged in full (with the request id) and
 * answered as `internal-error` without its message, stack, SQL or driver text.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PROBLEM_CONTENT_TYPE, ProblemError, problemDocument, type ProblemItem, type ProblemType } from './problems.js';
import { pointerToken } from './json-pointer.js';
import { StoreUnavailableError } from './store/store-errors.js';

/** Seconds a client should wait before retrying while the store is down. */
const STORE_RETRY_AFTER_S = '1';

const READ_ONLY_FIELDS = new Set(['uid', 'created_at', 'updated_at', 'version']);

export interface AjvError {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  message?: string;
  parentSchema?: { description?: string };
}

function bodyItem(e: AjvError): ProblemItem | undefined {
  // Branch failures of a union are summarised by the union's own error.
  if (e.schemaPath.includes('/anyOf/')) return undefined;
  switch (e.keyword) {
    case 'additionalProperties': {
      const name = String(e.params.additionalProperty);
      const pointer = `${e.instancePath}/${pointerToken(name)}`;
      const detail = e.instancePath === '' && READ_ONLY_FIELDS.has(name) ? 'is read-only; the service assigns it' : 'is not a known field';
      return { pointer, detail };
    }
    case 'required':
      return { pointer: `${e.instancePath}/${pointerToken(String(e.params.missingProperty))}`, detail: 'is required' };
    case 'format':
    case 'anyOf':
      return { pointer: e.instancePath, detail: `is not valid: ${e.parentSchema?.description ?? `expected format ${String(e.params.format)}`}` };
    case 'type':
      return { pointer: e.instancePath, detail: `must be of type ${String(e.params.type)}` };
    default:
      return { pointer: e.instancePath, detail: e.message ?? 'is not valid' };
  }
}

function queryItem(e: AjvError): ProblemItem {
  if (e.keyword === 'additionalProperties') return { parameter: String(e.params.additionalProperty), detail: 'is not a known parameter' };
  const parameter = e.instancePath.slice(1);
  if (e.keyword === 'type') return { parameter, detail: 'must be given once' };
  if (e.keyword === 'minLength') return { parameter, detail: 'must not be empty' };
  return { parameter, detail: `is not valid: ${e.parentSchema?.description ?? e.message ?? 'see the OpenAPI document'}` };
}

/** The `errors` entries (JSON pointers) of a failed body validation. */
export function bodyValidationItems(errors: AjvError[]): ProblemItem[] {
  return errors.map(bodyItem).filter((item): item is ProblemItem => item !== undefined);
}

/** Maps a request-validation failure to its problem. */
function validationProblem(error: FastifyError): ProblemError {
  const errors = (error.validation ?? []) as unknown as AjvError[];
  if (error.validationContext === 'querystring') {
    const items = errors.map(queryItem);
    return new ProblemError('invalid-query', describe(items), { errors: items });
  }
  const items = bodyValidationItems(errors);
  return new ProblemError('validation-failed', describe(items), { errors: items });
}

export function describe(items: ProblemItem[]): string {
  return items.map((item) => `${'pointer' in item ? item.pointer || '(body)' : item.parameter} ${item.detail}`).join('; ');
}

/** Fastify's own client errors, by code, with a detail that names no internals. */
const FRAMEWORK_PROBLEMS: Record<string, [ProblemType, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['unsupported-media-type', 'Send the body as application/json.'],
  FST_ERR_CTP_BODY_TOO_LARGE: ['payload-too-large', 'The body exceeds the configured limit.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['malformed-request', 'The body is empty; a JSON object is required.'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['malformed-request', 'The body is not valid JSON.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['malformed-request', 'Content-Length does not match the body.'],
  FST_ERR_BAD_URL: ['malformed-request', 'The path is not valid percent-encoded UTF-8.'],
  FST_ERR_MAX_PARAM_LENGTH: ['uri-too-long', 'A path segment is longer than the limit.'],
};

export function storeUnavailableProblem(): ProblemError {
  return new ProblemError('store-unavailable', 'The user store cannot be reached; retry shortly.', {}, { 'retry-after': STORE_RETRY_AFTER_S });
}

/** Turns any error into the problem it is answered with; `undefined` for an unexpected one. */
export function toProblem(error: unknown): ProblemError | undefined {
  if (error instanceof ProblemError) return error;
  if (error instanceof StoreUnavailableError) return storeUnavailableProblem();
  const e = error as FastifyError;
  if (e?.validation) return validationProblem(e);
  const known = e?.code ? FRAMEWORK_PROBLEMS[e.code] : undefined;
  if (known) return new ProblemError(known[0], known[1]);
  // JSON syntax errors (and secure-json-parse's __proto__/constructor refusals) arrive as 400 SyntaxErrors.
  if (e instanceof SyntaxError && e.statusCode === 400) return new ProblemError('malformed-request', 'The body is not valid JSON.');
  if (e?.statusCode === 413) return new ProblemError('payload-too-large', 'The body exceeds the configured limit.');
  if (e?.statusCode === 415) return new ProblemError('unsupported-media-type', 'Send the body as application/json.');
  if (e?.statusCode === 400) return new ProblemError('malformed-request', 'The request could not be parsed.');
  return undefined;
}

/** The `instance` of a problem: the request's path, without its query. */
function instanceOf(request: FastifyRequest): string {
  const url = request.raw.url ?? request.url;
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

export function sendProblem(request: FastifyRequest, reply: FastifyReply, problem: ProblemError): FastifyReply {
  const body = problemDocument(problem.problemType, problem.detail, instanceOf(request), problem.extras);
  return reply
    .code(problem.status)
    .headers(problem.headers)
    .header('cache-control', 'no-store')
    .type(PROBLEM_CONTENT_TYPE)
    .send(JSON.stringify(body));
}

function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const problem = toProblem(error);
  if (problem) {
    if (problem.status >= 500) request.log.warn({ err: error }, problem.detail);
    return sendProblem(request, reply, problem);
  }
  request.log.error({ err: error }, 'unexpected error');
  return sendProblem(request, reply, new ProblemError('internal-error', `The request failed; quote request id ${request.id} to an operator.`));
}

/** Installs the error and not-found handlers. Framework errors before routing are passed through `frameworkErrors` in app.ts. */
export function installProblemHandlers(app: FastifyInstance): void {
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) => sendProblem(request, reply, new ProblemError('not-found', 'No resource exists at this path.')));
}

/** For Fastify's `frameworkErrors` option: errors raised before a route is chosen. */
export const frameworkErrors = handleError;
