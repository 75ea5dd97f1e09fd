/**
 * The one onRequest hook that decides whether a request may proceed, in this
 * order: authenticate (naming the client), count it against the client's rate
 * limit (so failed credentials are limited too, by address), then refuse it if
 * authentication failed. The probes are never limited: orchestrators poll them.
 */
import type { FastifyInstance } from 'fastify';
import { createAuthenticator } from './auth/authenticate.js';
import type { Config } from './config.js';
import { createRateLimiter } from './rate-limit.js';

/** Never rate limited or shed: orchestrators and scrapers poll them. */
export const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

export async function installAccessControl(app: FastifyInstance, config: Readonly<Config>): Promise<void> {
  const authenticate = createAuthenticator(config.auth);
  const limit = config.rateLimit ? await createRateLimiter(app, config.rateLimit) : undefined;
  if (!authenticate && !limit) return;
  app.addHook('onRequest', async (request, reply) => {
    const refusal = authenticate ? await authenticate(request) : undefined;
    if (limit && !PROBES.has(request.routeOptions.url ?? '')) await limit(request, reply);
    if (refusal) throw refusal;
  });
}
