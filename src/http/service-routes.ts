/**
 * Routes that serve operators rather than users (CONTRACT §2): liveness,
 * readiness and the OpenAPI document. They live outside `/users/` and need no
 * credential; the probes are never rate limited or shed (route-access.ts).
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { overloadedProblem, type OverloadMonitor } from '../observability/overload.js';
import type { UserStore } from '../store/user-store.js';
import { H, operationErrors, response, successHeaders } from './openapi/responses.js';
import { sendProblem } from './problem-handler.js';
import { ProblemError } from './problems.js';

/** Seconds before a balancer need ask again whether an instance whose store is full is ready. */
const STORE_FULL_READY_RETRY_S = '10';

/** Readiness while writes fail for lack of space: the `store-full` problem, answered as 503 "not ready". */
function notReadyStoreFull(): ProblemError {
  return new ProblemError(
    'store-full',
    'Writes fail because the user store is out of space or read-only (the error log says which): this instance is not ready until an operator acts. It is ready again as soon as the store takes a write.',
    {},
    { 'retry-after': STORE_FULL_READY_RETRY_S },
  );
}

export interface ServiceRoutesOptions {
  store: UserStore;
  overload: OverloadMonitor;
}

export async function serviceRoutes(app: FastifyInstance, { store, overload }: ServiceRoutesOptions): Promise<void> {
  const status = (value: string, description: string) =>
    response({ description, headers: [H.cacheControl], body: { schema: Type.Object({ status: Type.Literal(value) }, { additionalProperties: false }) } });
  const tags = ['service'];

  /** The process is alive and serving HTTP. Never touches the store. */
  const healthz = { operationId: 'getLiveness', summary: 'Liveness: the process serves HTTP', tags, response: { 200: status('ok', 'The process serves HTTP.'), ...operationErrors({ kind: 'probe' }) } };
  app.get('/healthz', { config: { access: 'probe' }, schema: healthz }, async (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }));

  /**
   * Ready when the store answers, the instance is not shedding load and writes do not
   * fail for lack of space; otherwise 503 with Retry-After, so a balancer routes around
   * this instance exactly while it refuses work.
   *
   * Out of space: once a write failed with StoreFullError (the problem handler reports it to
   * app.storeSpace), each readiness check runs a write probe of its own (store.probeWrite: a
   * committed write of 64 KiB that leaves the data as it was) until one succeeds; then
   * the instance is ready again. No client write can clear it, since a balancer sends none to
   * an instance that is not ready. While no write failed, readiness writes nothing.
   */
  const readyz = {
    operationId: 'getReadiness',
    summary: 'Readiness: the store answers and the instance is not shedding load',
    tags,
    response: { 200: status('ready', 'The store answers.'), ...operationErrors({ kind: 'probe' }) },
  };
  app.get('/readyz', { config: { access: 'probe' }, schema: readyz }, async (request, reply) => {
    if (overload.isOverloaded()) return sendProblem(request, reply, overloadedProblem());
    // A store that cannot be reached throws StoreUnavailableError: the error handler answers the 503 and logs the outage.
    await store.ping();
    const space = app.storeSpace;
    if (space !== undefined && !(await space.hasRoom(() => store.probeWrite(), request.log))) return sendProblem(request, reply, notReadyStoreFull(), 503);
    return reply.header('cache-control', 'no-store').send({ status: 'ready' });
  });

  const document = {
    operationId: 'getOpenApiDocument',
    summary: 'This OpenAPI 3.1 document',
    tags,
    response: {
      200: response({ description: 'The document, for this configuration (its security follows AUTH_MODE).', headers: successHeaders('public', [H.cacheControl]), body: { schema: Type.Object({}, { additionalProperties: true }) } }),
      ...operationErrors({ kind: 'public' }),
    },
  };
  app.get('/openapi.json', { config: { access: 'public' }, schema: document }, async (_request, reply) => reply.header('cache-control', 'no-cache').send(app.swagger()));
}
