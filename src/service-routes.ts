/**
 * Routes that serve operators rather than users (CONTRACT §2): liveness,
 * readiness and the OpenAPI document. They live outside `/users/`.
 */
import type { FastifyInstance } from 'fastify';
import { sendProblem, storeUnavailableProblem } from './problem-handler.js';
import type { UserStore } from './store/user-store.js';

export async function serviceRoutes(app: FastifyInstance, { store }: { store: UserStore }): Promise<void> {
  const hidden = { schema: { hide: true } };

  /** The process is alive and serving HTTP. Never touches the store. */
  app.get('/healthz', hidden, async (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }));

  /** The store answers; otherwise 503 with Retry-After, so a balancer routes around this instance. */
  app.get('/readyz', hidden, async (request, reply) => {
    try {
      await store.ping();
    } catch (error) {
      request.log.warn({ err: error }, 'store not ready');
      return sendProblem(request, reply, storeUnavailableProblem());
    }
    return reply.header('cache-control', 'no-store').send({ status: 'ready' });
  });

  app.get('/openapi.json', hidden, async (_request, reply) => reply.header('cache-control', 'no-cache').send(app.swagger()));
}
