/**
 * SCIM 2.0 as a plugin: its routes under /scim/v2 (scim-routes.ts), in their own context, over
 * the user service and Idempotency-Key of the user resource's plugin. SCIM's error format is a
 * plugin of its own (scim-error-plugin.ts): it must answer for paths no SCIM route matched.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AdmissionSection } from '../config.js';
import { SCIM_PREFIX, scimRoutes } from './scim-routes.js';

async function scimPlugin(app: FastifyInstance, { config }: { config: Pick<AdmissionSection, 'requestBudgetMs'> }): Promise<void> {
  await app.register(scimRoutes, { prefix: SCIM_PREFIX, service: app.userService, idempotency: app.idempotency, notFoundStep: app.requestPath.unrouted, budgetMs: config.requestBudgetMs });
}

export default fp(scimPlugin, { name: 'scim', dependencies: ['request-path', 'users'] });
