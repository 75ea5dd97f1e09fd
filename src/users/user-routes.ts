/**
 * HTTP routes of the user resource (CONTRACT §2–5). Handlers are thin: they
 * translate headers to and from the service and set the contract's headers.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LOOKUP } from '../allowed-methods.js';
import { ifMatchHolds, ifNoneMatchMatches } from '../conditional-requests.js';
import { sendProblem } from '../problem-handler.js';
import { problemResponses } from '../problem-schema.js';
import { ProblemError } from '../problems.js';
import { MALFORMED_QUERY, type ParsedQuery } from '../query-string.js';
import type { Precondition } from '../store/user-store.js';
import type { User } from './user.js';
import { etagOf } from './user-etag.js';
import { assertStorableBody } from './user-input.js';
import { isKeyRef } from './user-ref.js';
import { CreateUserBody, ReplaceUserBody, SearchQuery, UserList, UserRefParams, UserResourceRef } from './user-schemas.js';
import type { UserService } from './user-service.js';

const NotModified = Type.Null({ description: 'Not Modified: the If-None-Match tag is current.' });
const Deleted = Type.Null({ description: 'Deleted; no body.' });

const canonicalPath = (user: User) => `/users/${user.uid}`;

/** PUT and DELETE exist only on the canonical path: 405 on `/users/{key}:{value}`. */
function onlyCanonical(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  const { ref } = request.params as { ref: string };
  if (isKeyRef(ref)) {
    sendProblem(request, reply, new ProblemError('method-not-allowed', `${request.method} exists only on /users/{uid}.`, {}, { allow: LOOKUP }));
    return;
  }
  done();
}

/** A query the parser could not read is a 400 before the schema sees it. */
async function wellFormedQuery(request: FastifyRequest): Promise<void> {
  const malformed = (request.query as ParsedQuery)[MALFORMED_QUERY];
  if (malformed !== undefined) throw new ProblemError('invalid-query', `The query string is malformed: ${malformed}.`);
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
    { schema: { body: CreateUserBody, response: { 201: UserResourceRef, ...problemResponses(400, 401, 403, 409, 413, 415, 429, 503) } }, preValidation: storableBody },
    async (request, reply) => {
      const user = await service.create(request.body);
      return representationHeaders(reply.code(201), user).header('location', canonicalPath(user)).send(user);
    },
  );

  const searchSchema = { querystring: SearchQuery, response: { 200: UserList, ...problemResponses(400, 401, 403, 429, 503) } };
  app.get('/users', { schema: searchSchema, preValidation: wellFormedQuery }, async (request, reply) => {
    const { users, nextCursor } = await service.search(request.query);
    if (nextCursor !== undefined) reply.header('link', `<${nextPageUrl(request.query, nextCursor)}>; rel="next"`);
    return reply.header('cache-control', 'no-cache').send(users);
  });

  const readSchema = { params: UserRefParams, response: { 200: UserResourceRef, 304: NotModified, ...problemResponses(400, 401, 403, 404, 429, 503) } };
  // GET and HEAD share one route: Fastify's automatic HEAD route would give a 304 a Content-Length
  // (RFC 9110 §8.6 forbids it); Node itself drops the body of a HEAD response.
  app.route({
    method: ['GET', 'HEAD'],
    url: '/users/:ref',
    schema: readSchema,
    handler: async (request, reply) => {
      const user = await service.read(request.params.ref);
      representationHeaders(reply, user);
      const ifNoneMatch = request.headers['if-none-match'];
      // No body: a 304 carries neither Content-Length nor Content-Type (RFC 9110 §15.4.5).
      if (ifNoneMatch !== undefined && ifNoneMatchMatches(ifNoneMatch, etagOf(user))) return reply.code(304).send(undefined as never);
      return reply.send(user);
    },
  });

  app.put(
    '/users/:ref',
    {
      schema: { params: UserRefParams, body: ReplaceUserBody, response: { 200: UserResourceRef, ...problemResponses(400, 401, 403, 404, 405, 409, 412, 413, 415, 429, 503) } },
      onRequest: onlyCanonical,
      preValidation: storableBody,
    },
    async (request, reply) => {
      const user = await service.replace(request.params.ref, request.body, ifMatch(request));
      return representationHeaders(reply, user).send(user);
    },
  );

  const deleteSchema = { params: UserRefParams, response: { 204: Deleted, ...problemResponses(401, 403, 404, 405, 412, 429, 503) } };
  app.delete('/users/:ref', { schema: deleteSchema, onRequest: onlyCanonical }, async (request, reply) => {
    await service.delete(request.params.ref, ifMatch(request));
    return reply.code(204).send(undefined as never);
  });
};
