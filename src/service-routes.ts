/**
 * Routes that serve operators rather than users (CONTRACT §2): liveness,
 * readiness and the OpenAPI document. They live outside `/users/`.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { problemResponses } from './problem-schema.js';
import { sendProblem, storeUnavailableProblem } from './problem-handler.js';
import type { UserStore } from './store/user-store.js';

export async function serviceRoutes(app: FastifyInstance, { store }: { store: UserStore }): Promise<void> {
  const status = (value: string, description: string) =>
    Type.Object({ status: Type.Literal(value) }, { description });

  /** The process is alive and serving HTTP. Never touches the store. */
  app.get('/healthz', { schema: { summary: 'Liveness', response: { 200: status('ok', 'The process serves HTTP.') } } }, async (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }));

  /** The store answers; otherwise 503 with Retry-After, so a balancer routes around this instance. */
  app.get('/readyz', { schema: { summary: 'Readiness', response: { 200: status('ready', 'The store answers.'), ...problemResponses(503) } } }, async (request, reply) => {
    try {
      await store.ping();
    } catch (error) {
      request.log.warn({ err: error }, 'store not ready');
      return sendProblem(request, reply, storeUnavailableProblem());
    }
    return reply.header('cache-control', 'no-store').send({ status: 'ready' });
  });

  const document = Type.Object({}, { additionalProperties: true, description: 'This OpenAPI 3.1 document.' });
  app.get('/openapi.json', { schema: { summary: 'The OpenAPI document', response: { 200: document } } }, async (_request, reply) => reply.header('cache-control', 'no-cache').send(app.swagger()));
}
