/**
 * The route schemas of the user resource (CONTRACT §2–5): what each operation
 * takes and every answer it can give, with its headers. They validate requests,
 * serialise responses and are the OpenAPI document's operations.
 */
import { Type } from 'typebox';
import { H, operationErrors, response, successHeaders } from '../http/openapi/responses.js';
import { FEED_POSITION_HEADER } from '../events/event-schemas.js';
import { CreateUserBody, ReplaceUserBody, SearchQuery, UserList, UserPatch, UserRefParams, UserResourceRef, UserUidParams } from './user-schemas.js';

const TAGS = ['users'];

/** Headers of a user representation (read, lookup, create, replace). */
const REPRESENTATION = [H.etag, H.contentLocation, H.cacheControl];

const user = (description: string, extra = [] as typeof REPRESENTATION) =>
  response({ description, headers: successHeaders('protected', [...REPRESENTATION, ...extra]), body: { schema: UserResourceRef } });

/** Request headers the routes read (declared in the document, not validated). */
export const IF_NONE_MATCH = {
  'if-none-match': Type.String({ description: 'Answer 304 (no body) if the user is still at one of these entity tags, or exists (`*`). Weak comparison: `W/"…"` matches the same tag. Members that are not entity tags never match.' }),
};

/**
 * The preconditions of a write (RFC 9110 §13.1.1, §13.1.2), described for its verb:
 * `Replace`, `Patch` or `Delete`. Both are evaluated inside the write's transaction,
 * If-Match first (§13.2.2).
 */
export function writeConditions(verb: 'Replace' | 'Patch' | 'Delete') {
  return {
    'if-match': Type.String({
      description: `${verb} only if the user is still at one of these entity tags, or exists (\`*\`); else 412 and nothing is written. Strong comparison: a \`W/"…"\` tag never matches. Evaluated before If-None-Match.`,
    }),
    'if-none-match': Type.String({
      description: `${verb} only if the user is at none of these entity tags (weak comparison: \`W/"…"\` matches the same tag); else 412 and nothing is written. \`*\` matches any existing user, so it is always a 412 here (a missing user is a 404: writes never create). A value that is not \`*\` or a list of quoted entity tags is a 400.`,
    }),
  };
}
export const IDEMPOTENCY_KEY = {
  'idempotency-key': Type.String({
    description:
      'Makes the write safe to retry: a retry with the same key and the same request gets the first answer (and `Idempotent-Replayed: true`) without running again. A quoted string (`"8e03978e-…"`) or a bare token, 1–255 visible ASCII characters. Scoped to the credential; kept for IDEMPOTENCY_TTL_S (default 24 h).',
    examples: ['"8e03978e-40d5-43e8-bc93-6894a57f9324"'],
  }),
};

/** Headers an idempotent write's answers may carry. */
const IDEMPOTENT = [H.idempotentReplayed];

export const createSchema = {
  operationId: 'createUser',
  summary: 'Create a user',
  description: 'The service assigns `uid`, `created_at`, `updated_at` and `version`. Every unique key must be free (else 409 naming it).',
  tags: TAGS,
  body: CreateUserBody,
  response: {
    201: user('Created; `Location` is its canonical path.', [H.location, ...IDEMPOTENT]),
    ...operationErrors({ kind: 'protected', statuses: [409, 410, 422, 507], body: true, headers: IDEMPOTENT }),
  },
};

export const searchSchema = {
  operationId: 'searchUsers',
  summary: 'Search users',
  description:
    'Filters combine with AND. `q` finds people by any word of their names, username or email local part (docs/api.md, "Search"). Keyset pages in `sort` order (default uid); follow `Link: rel="next"` for the next page, which keeps the filters and the sort.',
  tags: TAGS,
  querystring: SearchQuery,
  response: {
    200: response({
      description: 'A page of matching users (maybe empty), in the order of `sort`: exact username or email matches of `q` first.',
      headers: successHeaders('protected', [H.cacheControl, H.link, H.totalCount, FEED_POSITION_HEADER]),
      body: { schema: UserList },
    }),
    ...operationErrors({ kind: 'protected' }),
  },
};

export const readSchema = {
  operationId: 'getUser',
  summary: 'Read a user by uid, or look one up by a secondary key',
  description: '`/users/{uid}` and `/users/{key}:{value}` answer alike: the same status, body, `ETag` and `Content-Location` (the canonical path).',
  tags: TAGS,
  params: UserRefParams,
  response: {
    200: user('The user.', [FEED_POSITION_HEADER]),
    304: response({ description: 'Not modified: a tag in If-None-Match is current (or it is `*`). No body: the client keeps its copy. Generated clients type a 304 as neither data nor error, so check the status.', headers: successHeaders('protected', [...REPRESENTATION, FEED_POSITION_HEADER]) }),
    ...operationErrors({ kind: 'protected', statuses: [404], pathParameter: true }),
  },
};

export const replaceSchema = {
  operationId: 'replaceUser',
  summary: 'Replace a user',
  description: 'Full replacement of the writable fields: omitted optional fields reset to their defaults. Only on the canonical path (`PUT /users/{key}:{value}` is a 405).',
  tags: TAGS,
  params: UserUidParams,
  body: ReplaceUserBody,
  response: {
    200: user('The replaced user.'),
    ...operationErrors({ kind: 'protected', statuses: [404, 405, 409, 412, 507], pathParameter: true, body: true }),
  },
};

export const patchSchema = {
  operationId: 'patchUser',
  summary: 'Change some fields of a user (JSON Merge Patch)',
  description:
    'RFC 7396 merge patch, as `application/merge-patch+json` or `application/json` (read alike: the same merge patch): `null` removes an optional field or an attribute, objects merge, arrays are replaced whole. The patched user is validated as a PUT body; `{}` (or a patch changing nothing) keeps the version. Only on the canonical path (`PATCH /users/{key}:{value}` is a 405).',
  tags: TAGS,
  params: UserUidParams,
  // The two media types PATCH takes, both one merge patch (any other is a 415 with Accept-Patch): a generator picks one it can send.
  consumes: ['application/merge-patch+json', 'application/json'],
  body: UserPatch,
  response: {
    200: user('The patched user (unchanged, with the same version, when the patch changes nothing).', IDEMPOTENT),
    ...operationErrors({ kind: 'protected', statuses: [404, 405, 409, 410, 412, 422, 507], pathParameter: true, body: true, headers: IDEMPOTENT, statusHeaders: { 415: [H.acceptPatch] } }),
  },
};

export const deleteSchema = {
  operationId: 'deleteUser',
  summary: 'Delete a user',
  description: 'Frees every key of the user for reuse and erases its personal data from the change feed and from stored Idempotency-Key answers, in the same transaction (docs/security.md, "Erasure"). Only on the canonical path (`DELETE /users/{key}:{value}` is a 405). Takes no body.',
  tags: TAGS,
  params: UserUidParams,
  response: {
    204: response({ description: 'Deleted.', headers: successHeaders('protected', []) }),
    ...operationErrors({ kind: 'protected', statuses: [404, 405, 412, 507], pathParameter: true, body: true }),
  },
};
