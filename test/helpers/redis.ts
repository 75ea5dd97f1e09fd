/**
 * Redis for tests (TEST_REDIS_URL, default redis://127.0.0.1:6379). Under CI=true
 * an unreachable Redis is a failure; elsewhere the Redis tests skip with a reason.
 */
import { Redis } from 'ioredis';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export async function redisSkipReason(): Promise<string | undefined> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
    await redis.ping();
    return undefined;
  } catch (error) {
    const reason = `Redis at ${REDIS_URL} is unreachable (${(error as Error).message})`;
    if (process.env.CI === 'true') throw new Error(`CI requires Redis: ${reason}`);
    return reason;
  } finally {
    redis.disconnect();
  }
}
