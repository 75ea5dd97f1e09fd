/**
 * The access step of a route, composed from the route's declared access
 * (route-access.ts), in this order: authenticate (naming the client), count the
 * request against the client's rate limit (so failed credentials are limited
 * too, by address), then refuse it if authentication failed. Public routes are
 * only rate limited; probes are neither authenticated nor limited.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthSection } from '../config.js';
import type { ProblemError } from '../http/problems.js';
import type { RouteAccess } from '../http/route-access.js';
import type { RequestStep } from '../http/request-steps.js';
import { createAuthenticator } from './authenticate.js';
import { createRateLimiter } from './rate-limit.js';

export interface AccessControl {
  /** The step for a route of this access, or undefined when it has nothing to do. */
  stepFor(access: RouteAccess): RequestStep | undefined;
  /** The rate limit alone (for requests no route matched), or undefined when limits are off. */
  limitOnly: RequestStep | undefined;
}

export async function createAccessControl(app: FastifyInstance, config: Readonly<AuthSection>): Promise<AccessControl> {
  // Declared up front so every request object has the same shape (no hidden-class change per request).
  app.decorateRequest('credential', undefined);
  const authenticate = createAuthenticator(config.auth);
  const limit = config.rateLimit ? await createRateLimiter(app, config.rateLimit) : undefined;
  const limitOnly: RequestStep | undefined = limit && ((request, reply) => limit(request, reply).then(() => undefined));

  const limitThenRefuse = async (request: FastifyRequest, reply: FastifyReply, refusal: ProblemError | undefined): Promise<void> => {
    if (limit) await limit(request, reply);
    if (refusal) throw refusal;
  };

  return {
    limitOnly,
    stepFor(access) {
      if (access === 'probe') return undefined;
      if (access === 'public' || !authenticate) return limitOnly;
      const scope = access === 'credential' ? undefined : access;
      return (request, reply) => {
        const refusal = authenticate(request, scope);
        if (refusal instanceof Promise) return refusal.then((verdict) => limitThenRefuse(request, reply, verdict));
        if (limit) return limitThenRefuse(request, reply, refusal);
        // Synchronous when nothing has to wait: no promise per request.
        if (refusal) throw refusal;
      };
    },
  };
}
