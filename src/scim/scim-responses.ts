/**
 * SCIM's answers: the media type, and every error in SCIM's error schema
 * (RFC 7644 §3.12). The service's problems (validation, conflicts, preconditions,
 * authentication, outages) are made in one place for both doors and rewritten here
 * into SCIM errors on the way out, so a SCIM client never sees problem+json and no
 * rule is written twice.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PROBLEM_CONTENT_TYPE } from '../http/problems.js';
import { ScimFilterError } from './filter/filter-error.js';
import { SCIM_ERROR_SCHEMA, ScimError, type ScimType } from './scim-error.js';
import { scimPathOf } from './scim-mapping.js';

export const SCIM_MEDIA_TYPE = 'application/scim+json';
const SCIM_CONTENT_TYPE = `${SCIM_MEDIA_TYPE}; charset=utf-8`;

/** The service's unique keys by their SCIM attribute names. */
const SCIM_KEY_NAMES: Record<string, string> = { username: 'userName', email_address: 'emails (the primary email)', external_id: 'externalId', legacy_id: 'a legacy id' };

/** scimType of the problems that have one (RFC 7644 Table 9). */
const SCIM_TYPES: Record<string, ScimType> = {
  'validation-failed': 'invalidValue',
  'malformed-request': 'invalidSyntax',
  'invalid-query': 'invalidValue',
  'key-conflict': 'uniqueness',
};

/**
 * A validation problem's items as SCIM clients name things (`name.givenName`, not
 * `/name/given_name`). Their details are already sentences, never a pattern
 * (http/validation-items.ts).
 */
function scimItems(items: { pointer?: string; detail: string }[]): string[] {
  return items.map((item) => `${scimPathOf(item.pointer ?? '')} ${item.detail}`);
}

export function scimErrorBody(status: number, detail: string, scimType?: ScimType): string {
  return JSON.stringify({ schemas: [SCIM_ERROR_SCHEMA], status: String(status), ...(scimType === undefined ? {} : { scimType }), detail });
}

/** The SCIM errors this door throws, answered here; anything else goes on to the service's problem handler. */
export function scimErrorHandler(error: unknown, _request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof ScimError) return sendScimError(reply, error.status, error.message, error.scimType);
  if (error instanceof ScimFilterError) return sendScimError(reply, 400, error.message, error.scimType);
  throw error;
}

function sendScimError(reply: FastifyReply, status: number, detail: string, scimType?: ScimType): FastifyReply {
  return reply.code(status).header('cache-control', 'no-store').type(SCIM_CONTENT_TYPE).send(scimErrorBody(status, detail, scimType));
}

/**
 * Whether an answer goes to a SCIM client: its route is under /scim/v2 (the SCIM routes and
 * the 405s of their paths), or no route matched a path under it (a malformed target).
 */
function isScimRequest(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  if (route !== undefined) return route.startsWith('/scim/v2/');
  return /^\/scim\/v2(\/|$|\?)/.test(request.url);
}

/**
 * onSend, for the whole app: a problem document answering a SCIM request becomes a SCIM
 * error with the same status and headers, wherever it was made (authentication, rate limit,
 * 405, the parsers, the service).
 */
export async function problemsAsScimErrors(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  const type = String(reply.getHeader('content-type') ?? '');
  if (!type.startsWith(PROBLEM_CONTENT_TYPE) || typeof payload !== 'string' || !isScimRequest(request)) return payload;
  const problem = JSON.parse(payload) as { type?: string; status?: number; detail?: string; key?: string; errors?: { pointer?: string; detail: string }[] };
  const name = problem.type?.split('/').pop() ?? '';
  const detail =
    name === 'key-conflict' && problem.key !== undefined
      ? `${SCIM_KEY_NAMES[problem.key] ?? problem.key} is already taken by another user.`
      : name === 'validation-failed' && problem.errors?.every((item) => item.pointer !== undefined)
        ? `The user is not valid: ${scimItems(problem.errors).join('; ').replace(/\.?$/, '.')}`
        : (problem.detail ?? '');
  reply.type(SCIM_CONTENT_TYPE);
  return scimErrorBody(problem.status ?? reply.statusCode, detail, SCIM_TYPES[name]);
}

export { SCIM_CONTENT_TYPE };
