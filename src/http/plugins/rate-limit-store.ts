// Redis as the rate-limit store, when REDIS_URL is set: several processes share one count per
// key through it (one process counts in memory).
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { unencapsulated } from './unencapsulated.ts';

/**
 * Connects to the rate-limit store before anything else starts: a REDIS_URL that cannot be
 * reached at start is a configuration error (it started with no rate limit at all, silently).
 */
export async function connectRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, { connectTimeout: 1_000, maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true });
  // Until the app's own handler is attached: the failure is reported by connect() below.
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
    return redis;
  } catch (err) {
    redis.disconnect();
    const shown = new URL(url);
    if (shown.password) shown.password = '***';
    throw new Error(`REDIS_URL: cannot reach ${shown.toString()} (${err instanceof Error ? err.message : String(err)})`);
  }
}

/** Says when the store goes away (requests then go unlimited) and quits it when the app closes. */
export const rateLimitStore = unencapsulated<{ redis: Redis }>(async (app: FastifyInstance, { redis }) => {
  // While Redis is away requests go unlimited (skipOnError in the /v1 rate limit: the links keep
  // answering); say so once a minute, not at every reconnect attempt.
  let warnedAt = 0;
  redis.on('error', (err: Error) => {
    if (Date.now() - warnedAt < 60_000) return;
    warnedAt = Date.now();
    app.log.warn({ error: err.message }, 'rate-limit store (REDIS_URL) unavailable: requests are not rate limited until it is back');
  });
  app.addHook('onClose', async () => void (await redis.quit().catch(() => redis.disconnect())));
});
