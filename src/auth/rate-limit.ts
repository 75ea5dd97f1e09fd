/**
 * Rate limiting (CONTRACT §8): RATE_LIMIT_MAX requests per RATE_LIMIT_WINDOW_S
 * per credential, or per client address for requests without a valid one. With
 * REDIS_URL the counters live in Redis, so all instances share one budget per
 * client. If Redis fails, requests are let through (and logged): a limiter outage
 * must not become a directory outage.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimitConfig } from '../config.js';
import { clientAddress } from '../http/client-address.js';
import { ProblemError } from '../http/problems.js';

export type RateLimiter = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

function clientKey(request: FastifyRequest): string {
  return request.credential ? `credential:${request.credential.id}` : `address:${clientAddress(request)}`;
}

/** Registers the limiter's store and returns the check; it throws a 429 problem when the budget is spent. */
export async function createRateLimiter(app: FastifyInstance, config: RateLimitConfig): Promise<RateLimiter> {
  let redis: import('ioredis').Redis | undefined;
  if (config.redisUrl) {
    const { Redis } = await import('ioredis');
    redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2000, enableOfflineQueue: false, lazyConnect: true });
    redis.on('error', (error: Error) => app.log.warn({ err: error }, 'rate-limit store error'));
    // Connected before the first request, so no request is let through uncounted while connecting.
    await redis.connect().catch((error: unknown) => app.log.warn({ err: error }, 'rate-limit store unreachable at start; limiting resumes when it connects'));
    app.addHook('onClose', async () => {
      await redis?.quit().catch(() => redis?.disconnect());
    });
  }
  await app.register(rateLimit, {
    // Applied by the access-control hook, after authentication has named the client.
    global: false,
    max: config.max,
    timeWindow: config.windowS * 1000,
    ...(redis ? { redis } : {}),
    nameSpace: 'user-service-rate-limit:',
    skipOnError: true,
    keyGenerator: clientKey,
    errorResponseBuilder: (_request, context) =>
      new ProblemError('rate-limited', `At most ${context.max} requests per ${config.windowS} s; retry after ${context.after}.`, {}, {
        'retry-after': String(Math.max(1, Math.ceil(context.ttl / 1000))),
      }),
  });
  return app.rateLimit();
}
