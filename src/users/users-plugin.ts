/**
 * The user resource as a plugin: the user service and Idempotency-Key over the store routes
 * read (`userStore`), decorated as `userService` and `idempotency` for SCIM, and the REST
 * routes (user-routes.ts) registered in their own context.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AdmissionSection, UsersSection } from '../config.js';
import { createIdempotency, purgeExpiredKeys, type Idempotency } from '../http/idempotency.js';
import { userRoutes } from './user-routes.js';
import { createUserService, type UserService } from './user-service.js';

declare module 'fastify' {
  interface FastifyInstance {
    userService: UserService;
    idempotency: Idempotency;
  }
}

async function usersPlugin(app: FastifyInstance, { config }: { config: UsersSection & Pick<AdmissionSection, 'requestBudgetMs'> }): Promise<void> {
  const store = app.userStore;
  const idempotency = createIdempotency({ store, ttlMs: config.idempotencyTtlMs, delayAfterWriteMs: config.delayAfterWriteMs });
  purgeExpiredKeys(app, store);
  const service = createUserService({ store });
  app.decorate('userService', service);
  app.decorate('idempotency', idempotency);
  await app.register(userRoutes, { service, idempotency, budgetMs: config.requestBudgetMs });
}

export default fp(usersPlugin, { name: 'users', dependencies: ['request-path', 'openapi'] });
