/**
 * HTTP routes of the user resource (CONTRACT §2–5). Handlers are thin: they
 * translate headers to and from the service and set the contract's headers.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ifMatchHolds, ifNoneMatchMatches } from '../conditional-requests.js';
import { sendProblem } from '../problem-handler.js';
import { ProblemError } from '../problems.js';
import type { Precondition } from '../store/user-store.js';
import type { User } from './user.js';
import { etagOf } from './user-etag.js';
import { assertStorableBody } from './user-input.js';
import { isKeyRef } from './user-ref.js';
import { CreateUserBody, ReplaceUserBody, SearchQuery, UserList, UserRefParams, UserResourceRef } from './user-schemas.js';
import type { UserService } from './user-service.js';

const ALLOW_COLLECTION = 'GET, HEAD, POST, OPTIONS';
const ALLOW_CANONICAL = 'GET, HEAD, PUT, DELETE, OPTIONS';
/** Seed §4 rule 5: the lookup path is read-only (also for `uid:`). */
const ALLOW_LOOKUP = 'GET, HEAD';

const NotModified = Type.Null({ description: 'Not Modified: the If-None-Match tag is current.' });

const canonicalPath = (user: User) => `/users/${user.uid}`;

function allowFor(ref: string | undefined): string {
  if (ref === undefined) return ALLOW_COLLECTION;
  return isKeyRef(ref) ? ALLOW_LOOKUP : ALLOW_CANONICAL;
}

/** onRequest hook answering 405 before the body is read, so a 405 wins over 413/415. */
function methodNotAllowed(request: FastifyRequest, reply: FastifyReply): void {
  const allow = allowFor((request.params as { ref?: string }).ref);
  if (request.method === 'OPTIONS') {
    reply.code(204).header('allow', allow).send();
    return;
  }
  sendProblem(request, reply, new ProblemError('method-not-allowed', `${request.method} is not defined here; allowed: ${allow}.`, {}, { allow }));
}

/** PUT and DELETE exist only on the canonical path: 405 on `/users/{key}:{value}`. */
function onlyCanonical(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  const { ref } = request.params as { ref: string };
  if (isKeyRef(ref)) {
    sendProblem(request, reply, new ProblemError('method-not-allowed', `${request.method} exists only on /users/{uid}.`, {}, { allow: ALLOW_LOOKUP }));
    return;
  }
  done();
}

async function storableBody(request: FastifyRequest): Promise<void> {
  assertStorableBody(request.body);
}

function ifMatch(request: FastifyRequest): Precondition | undefined {
  const header = request.headers['if-match'];
  return header === undefined ? undefined : (current) => ifMatchHolds(header, etagOf(current));
}

function representationHeaders(reply: FastifyReply, user: User): FastifyReply {
  return reply.header('etag', etagOf(user)).header('content-location', canonicalPath(user)).header('cache-control', 'no-cache');
}

/** `GET /users?…` URL of the next page: the same filters and limit, the new cursor. */
function nextPageUrl(query: Record<string, string | undefined>, cursor: string): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (name !== 'cursor' && value !== undefined) params.set(name, value);
  params.set('cursor', cursor);
  // URLSearchParams writes a space as '+'; '%20' reads the same and is unambiguous to every client.
  return `/users?${params.toString().replace(/\+/g, '%20')}`;
}

export const userRoutes: FastifyPluginAsyncTypebox<{ service: UserService }> = async (app, { service }) => {
  app.post(
    '/users',
    { schema: { body: CreateUserBody, response: { 201: UserResourceRef } }, preValidation: storableBody },
    async (request, reply) => {
      const user = await service.create(request.body);
      return representationHeaders(reply.code(201), user).header('location', canonicalPath(user)).send(user);
    },
  );

  app.get('/users', { schema: { querystring: SearchQuery, response: { 200: UserList } } }, async (request, reply) => {
    const { users, nextCursor } = await service.search(request.query);
    if (nextCursor !== undefined) reply.header('link', `<${nextPageUrl(request.query, nextCursor)}>; rel="next"`);
    return reply.header('cache-control', 'no-cache').send(users);
  });

  app.get('/users/:ref', { schema: { params: UserRefParams, response: { 200: UserResourceRef, 304: NotModified } } }, async (request, reply) => {
    const user = await service.read(request.params.ref);
    representationHeaders(reply, user);
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch !== undefined && ifNoneMatchMatches(ifNoneMatch, etagOf(user))) return reply.code(304).send(null);
    return reply.send(user);
  });

  app.put(
    '/users/:ref',
    { schema: { params: UserRefParams, body: ReplaceUserBody, response: { 200: UserResourceRef } }, onRequest: onlyCanonical, preValidation: storableBody },
    async (request, reply) => {
      const user = await service.replace(request.params.ref, request.body, ifMatch(request));
      return representationHeaders(reply, user).send(user);
    },
  );

  app.delete('/users/:ref', { schema: { params: UserRefParams }, onRequest: onlyCanonical }, async (request, reply) => {
    await service.delete(request.params.ref, ifMatch(request));
    return reply.code(204).send();
  });

  const notAllowed = { schema: { hide: true }, onRequest: methodNotAllowed };
  const unreachable = async () => undefined; // onRequest always answers first
  app.route({ method: ['PUT', 'DELETE', 'PATCH', 'TRACE', 'QUERY', 'OPTIONS'], url: '/users', ...notAllowed, handler: unreachable });
  app.route({ method: ['POST', 'PATCH', 'TRACE', 'QUERY', 'OPTIONS'], url: '/users/:ref', ...notAllowed, handler: unreachable });
};
