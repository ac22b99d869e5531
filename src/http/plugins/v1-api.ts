// The /v1 API: one encapsulated scope, registered with the /v1 prefix, whose hooks (query
// check, session or key authentication, rate limit) run for its routes only, in this order.
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Redis } from 'ioredis';
import type { Config } from '../../config.ts';
import type { AppServices } from '../../services.ts';
import { createAuthHook, rateLimitKey } from '../auth/api-key-auth.ts';
import type { AuthThrottle } from '../auth/auth-throttle.ts';
import { createAccessHook } from '../auth/session-auth.ts';
import { refuseBadlyEncodedQuery } from '../request/query-string.ts';
import { designRoutes } from '../routes/designs.ts';
import { imageRoutes } from '../routes/images.ts';
import { qrBatchRoutes } from '../routes/qr-batch.ts';
import { qrBulkRoutes } from '../routes/qr-bulk.ts';
import { qrItemsRoutes } from '../routes/qr-items.ts';
import { qrRulesRoutes } from '../routes/qr-rules.ts';
import { qrTransferRoutes } from '../routes/qr-transfer.ts';
import { statsRoutes } from '../routes/stats.ts';
import { tagRoutes } from '../routes/tags.ts';
import { webAccountRoutes } from '../routes/web-accounts.ts';
import { webhookRoutes } from '../routes/webhooks.ts';

export interface V1Options {
  config: Config;
  services: AppServices;
  redis: Redis | null;
  /** Failed authentication per address, shared with the app's pages (they read the session cookie too). */
  throttle: AuthThrottle;
}

export const v1Api: FastifyPluginAsyncTypebox<V1Options> = async (v1, { services, redis, throttle, config }) => {
  // Before authentication, so a 16 MiB import with a broken query is not parsed first.
  v1.addHook('onRequest', refuseBadlyEncodedQuery);
  await v1.register(cookie);
  // A signed-in session or a bearer key, on the same routes; session-only routes refuse keys.
  // One failure count per address for guessed keys and guessed session cookies alike.
  v1.addHook('onRequest', createAccessHook(createAuthHook(services.keys, throttle), services, throttle));
  await v1.register(rateLimit, {
    global: true,
    hook: 'preParsing',
    max: config.rateLimitPerMinute,
    timeWindow: 60_000,
    enableDraftSpec: true,
    ...(redis ? { redis, nameSpace: 'qrtrack-rl-', skipOnError: true } : {}),
    keyGenerator: rateLimitKey,
    errorResponseBuilder: (_req, ctx) => ({
      statusCode: 429,
      message: `rate limit exceeded: ${ctx.max} requests per minute; retry in ${ctx.after}`,
    }),
  });
  // Read your writes: every scan answered before this request began is in the roll-ups it reads.
  // POST answers carry no scan counts of codes that existed before (a new code has none).
  v1.addHook('preHandler', async (req) => {
    if (req.method !== 'POST') await services.rollups.catchUp();
  });
  await v1.register(qrItemsRoutes, { services });
  await v1.register(qrRulesRoutes, { services });
  await v1.register(statsRoutes, { services });
  await v1.register(imageRoutes, { services });
  await v1.register(webAccountRoutes, { services });
  // Big accounts: bulk create, tags, import and export.
  await v1.register(qrBatchRoutes, { services });
  await v1.register(qrBulkRoutes, { services });
  await v1.register(tagRoutes, { services });
  await v1.register(designRoutes, { services });
  await v1.register(qrTransferRoutes, { services });
  await v1.register(webhookRoutes, { services });
};
