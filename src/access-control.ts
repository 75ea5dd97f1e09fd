/**
 * The request step that decides whether a request may proceed, in this order:
 * authenticate (naming the client), count it against the client's rate limit
 * (so failed credentials are limited too, by address), then refuse it if
 * authentication failed. The probes are never limited: orchestrators poll them.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createAuthenticator } from './auth/authenticate.js';
import type { Config } from './config.js';
import type { ProblemError } from './problems.js';
import { createRateLimiter } from './rate-limit.js';
import { pathOf, type RequestStep } from './request-hooks.js';

/** Never rate limited or shed: orchestrators and scrapers poll them. */
export const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

/** Undefined when authentication and rate limiting are both off. */
export async function createAccessControl(app: FastifyInstance, config: Readonly<Config>): Promise<RequestStep | undefined> {
  // Declared up front so every request object has the same shape (no hidden-class change per request).
  app.decorateRequest('credential', undefined);
  const authenticate = createAuthenticator(config.auth);
  const limit = config.rateLimit ? await createRateLimiter(app, config.rateLimit) : undefined;
  if (!authenticate && !limit) return undefined;
  const limitThenRefuse = async (request: FastifyRequest, reply: FastifyReply, refusal: ProblemError | undefined): Promise<void> => {
    if (limit && !PROBES.has(pathOf(request.url))) await limit(request, reply);
    if (refusal) throw refusal;
  };
  return (request, reply) => {
    const refusal = authenticate?.(request);
    if (refusal instanceof Promise) return refusal.then((verdict) => limitThenRefuse(request, reply, verdict));
    if (limit) return limitThenRefuse(request, reply, refusal);
    // Synchronous when nothing has to wait: no promise per request.
    if (refusal) throw refusal;
  };
}
