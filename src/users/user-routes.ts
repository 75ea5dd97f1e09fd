/**
 * HTTP routes of the user resource (CONTRACT §2–5). Handlers are thin: they
 * translate headers to and from the service and set the contract's headers.
 */
import { deadlineOf } from '../http/request-budget.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ifNoneMatchMatches } from '../http/conditional-requests.js';
import { allowHeader, registerMethodNotAllowed } from '../http/method-not-allowed.js';
import { sendProblem } from '../http/problem-handler.js';
import { ProblemError } from '../http/problems.js';
import { wellFormedQuery } from '../http/query-string.js';
import { assertLinkable, linkQuery } from '../http/link-query.js';
import { originOf } from '../events/event-origin.js';
import type { StoredResponse } from '../store/user-store.js';
import type { Idempotency } from '../http/idempotency.js';
import type { User } from './user.js';
import { representationOf, type UserRepresentation } from './user-representation.js';
import { assertStorableBody } from './user-input.js';
import { isKeyRef, loggableRef } from './user-ref.js';
import { createSchema, deleteSchema, IDEMPOTENCY_KEY, IF_NONE_MATCH, patchSchema, readSchema, replaceSchema, searchSchema, writeConditions } from './user-route-schemas.js';
import { writePrecondition } from './write-precondition.js';
import type { UserService } from './user-service.js';
import { FEED_POSITION } from '../events/event-schemas.js';

const canonicalPath = (user: Pick<User, 'uid'>) => `/users/${user.uid}`;
/** Turns a root-relative path into the URL answers name (PUBLIC_URL: http/public-url.ts). */
type Publish = (path: string) => string;

/** Methods of `/users/{uid}`; the lookup path `/users/{key}:{value}` is read-only (seed §4 rule 5, also for `uid:`). */
const CANONICAL_METHODS = ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE'];
const LOOKUP_ALLOW = allowHeader(['GET', 'HEAD']);
/** RFC 5789 §3.1: where PATCH is allowed, the formats it takes are advertised, also in the 405 that answers OPTIONS. */
const MERGE_PATCH = 'application/merge-patch+json';
/**
 * A merge patch is a JSON document, and generated clients send `application/json` (CONTRACT §9):
 * PATCH reads that type as the same merge patch. JSON Patch (RFC 6902) is not taken.
 */
const PATCH_ALSO_ACCEPTED = ['application/json'];
const ACCEPT_PATCH = [MERGE_PATCH, ...PATCH_ALSO_ACCEPTED].join(', ');
const CANONICAL_HEADERS = { allow: allowHeader(CANONICAL_METHODS), 'accept-patch': ACCEPT_PATCH };
const allowOfRef = (request: FastifyRequest) => (isKeyRef((request.params as { ref: string }).ref) ? { allow: LOOKUP_ALLOW } : CANONICAL_HEADERS);

/** PUT and DELETE exist only on the canonical path: 405 on `/users/{key}:{value}`. */
function onlyCanonical(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  const { ref } = request.params as { ref: string };
  if (isKeyRef(ref)) {
    sendProblem(request, reply, new ProblemError('method-not-allowed', `${request.method} exists only on /users/{uid}.`, {}, { allow: LOOKUP_ALLOW }));
    return;
  }
  done();
}

/** Logs show a uid, or a lookup's key name, never a lookup value (observability/request-log.ts). */
const refRoute = { logPath: (params: Record<string, string>) => `/users/${loggableRef(params.ref ?? '')}` };

async function storableBody(request: FastifyRequest): Promise<void> {
  assertStorableBody(request.body);
}

const JSON_UTF8 = 'application/json; charset=utf-8';

/**
 * The headers of every answer that carries a user's representation, its 304 included.
 * The body is sent as the stored text (a string with a JSON content type passes
 * Fastify's serialiser untouched), so a read, a write's answer and the change event
 * carry the same bytes.
 */
function representationHeaders(representation: UserRepresentation, publish: Publish): Record<string, string> {
  return { etag: representation.etag, 'content-location': publish(canonicalPath(representation)), 'cache-control': 'no-cache' };
}

/** The answer to a write, as sent and as an Idempotency-Key keeps it. */
function userResponse(status: number, user: User, publish: Publish, extra: Record<string, string> = {}): StoredResponse {
  const representation = representationOf(user);
  return { status, headers: { 'content-type': JSON_UTF8, ...representationHeaders(representation, publish), ...extra }, body: representation.json };
}

/** `GET /users?…` URL of the next page: the same filters and limit, the new cursor. */
function nextPageUrl(query: Record<string, string | number | undefined>, cursor: string): string {
  const { cursor: _sent, ...filters } = query;
  return `/users?${linkQuery({ ...filters, cursor })}`;
}

export interface UserRoutesOptions {
  service: UserService;
  idempotency: Idempotency;
  /** REQUEST_BUDGET_MS: how long a search may run (http/request-budget.ts). */
  budgetMs: number;
}

/** A search naming a unique key (`username`, `email_address`, `legacy_id`, `external_id`): it reads one user at most, so it is no expensive request. */
const byUniqueKey = (query: unknown) => ['username', 'email_address', 'legacy_id', 'external_id'].some((key) => typeof (query as Record<string, unknown>)[key] === 'string');

export const userRoutes: FastifyPluginAsyncTypebox<UserRoutesOptions> = async (app, { service, idempotency, budgetMs }) => {
  const publish: Publish = (path) => app.publishedUrl(path);
  app.post('/users', { config: { access: 'users:write', requestHeaders: IDEMPOTENCY_KEY }, schema: createSchema, preValidation: storableBody }, async (request, reply) =>
    idempotency.run(request, reply, {
      path: '/users',
      execute: (pending) => service.create(request.body, originOf(request, 'rest'), pending),
      respond: (user) => userResponse(201, user, publish, { location: publish(canonicalPath(user)) }),
    }),
  );

  app.get('/users', { config: { access: 'users:read', cost: (request) => !byUniqueKey(request.query) }, schema: searchSchema, preValidation: wellFormedQuery(['limit']) }, async (request, reply) => {
    // Checked before the search, so a query is refused whether or not a next page follows.
    assertLinkable(request.query, ['cursor']);
    const { users, nextCursor, position, count } = await service.search(request.query, deadlineOf(reply, budgetMs));
    if (nextCursor !== undefined) reply.header('link', `<${publish(nextPageUrl(request.query, nextCursor))}>; rel="next"`);
    // An RFC 8941 integer; an estimate is marked so.
    if (count !== undefined) reply.header('total-count', count.exact ? String(count.value) : `${count.value}; estimate`);
    // Each user as its representation's text, so a search answers the same bytes as a read by uid.
    const body = `[${users.map((user) => representationOf(user).json).join(',')}]`;
    return reply.header('cache-control', 'no-cache').header(FEED_POSITION, String(position)).type(JSON_UTF8).send(body as never);
  });

  // GET and HEAD share one route: Fastify's automatic HEAD route would give a 304 a Content-Length
  // (RFC 9110 §8.6 forbids it); Node itself drops the body of a HEAD response.
  app.route({
    method: ['GET', 'HEAD'],
    url: '/users/:ref',
    config: { access: 'users:read', requestHeaders: IF_NONE_MATCH, ...refRoute },
    schema: readSchema,
    handler: async (request, reply) => {
      const { user, position } = await service.read(request.params.ref);
      reply.headers(representationHeaders(user, publish)).header(FEED_POSITION, String(position));
      const ifNoneMatch = request.headers['if-none-match'];
      // No body: a 304 carries neither Content-Length nor Content-Type (RFC 9110 §15.4.5).
      if (ifNoneMatch !== undefined && ifNoneMatchMatches(ifNoneMatch, user.etag)) return reply.code(304).send(undefined as never);
      return reply.type(JSON_UTF8).send(user.json as never);
    },
  });

  const canonicalWrite = { access: 'users:write', ...refRoute } as const;
  app.put('/users/:ref', { config: { ...canonicalWrite, requestHeaders: writeConditions('Replace') }, schema: replaceSchema, onRequest: onlyCanonical, preValidation: storableBody }, async (request, reply) => {
    const representation = representationOf(await service.replace(request.params.ref, request.body, originOf(request, 'rest'), writePrecondition(request)));
    return reply.headers(representationHeaders(representation, publish)).type(JSON_UTF8).send(representation.json as never);
  });

  const patchConfig = {
    ...canonicalWrite,
    requestHeaders: { ...writeConditions('Patch'), ...IDEMPOTENCY_KEY },
    // Another media type is a 415 naming the ones PATCH takes (RFC 5789 §2.2).
    bodyType: { mediaType: MERGE_PATCH, alsoAccepted: PATCH_ALSO_ACCEPTED, unsupportedHeaders: { 'accept-patch': ACCEPT_PATCH } },
  };
  app.patch('/users/:ref', { config: patchConfig, schema: patchSchema, onRequest: onlyCanonical, preValidation: storableBody }, async (request, reply) => {
    // Read before the Idempotency-Key is claimed: a malformed header is refused, never kept as the key's answer.
    const precondition = writePrecondition(request);
    return idempotency.run(request, reply, {
      path: `/users/${service.writableUid(request.params.ref)}`,
      execute: (pending) => service.patch(request.params.ref, request.body, originOf(request, 'rest'), precondition, pending),
      respond: (user) => userResponse(200, user, publish),
    });
  });

  app.delete('/users/:ref', { config: { ...canonicalWrite, requestHeaders: writeConditions('Delete') }, schema: deleteSchema, onRequest: onlyCanonical }, async (request, reply) => {
    await service.delete(request.params.ref, originOf(request, 'rest'), writePrecondition(request));
    return reply.code(204).send(undefined as never);
  });

  // Every other method on /users/{ref}: 405, with the Allow of the canonical or the lookup path.
  const otherMethods = app.supportedMethods.filter((method) => !CANONICAL_METHODS.includes(method));
  registerMethodNotAllowed(app, '/users/:ref', otherMethods, allowOfRef, 'users:write');
};
