/**
 * The operators' routes as a plugin (service-routes.ts: liveness, readiness, the OpenAPI
 * document), over the store routes read (`userStore`) and the overload monitor when load
 * shedding's plugin is in (without it, readiness never reports overload).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { monitorOverload } from '../observability/overload.js';
import { serviceRoutes } from './service-routes.js';

async function serviceRoutesPlugin(app: FastifyInstance): Promise<void> {
  const overload = app.hasDecorator('overload') ? app.overload : monitorOverload(0);
  await app.register(serviceRoutes, { store: app.userStore, overload });
}

export default fp(serviceRoutesPlugin, { name: 'service-routes', dependencies: ['openapi'] });
