// buildApp(config, db): plugins in a fixed order (external → app → routes), error and
// not-found handlers. It never listens; server.ts and the tests decide that.
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import { type TypeBoxTypeProvider, registerAjvFormats } from '@fastify/type-provider-typebox';
import http from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply, LogController } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import { startSaltPurge } from './db/salts-repository.ts';
import { startQuarterDimsPrune } from './db/quarter-dims-retention.ts';
import { ValidationError } from './domain/errors.ts';
import { createAuthHook, rateLimitKey } from './http/auth.ts';
import { AuthThrottle } from './http/auth-throttle.ts';
import { registerDocs } from './http/docs.ts';
import { installErrorHandlers } from './http/errors.ts';
import { MAX_JSON_DEPTH, MAX_JSON_VALUES, jsonShapeProblem } from './http/json-depth.ts';
import { loggerOptions } from './http/log-options.ts';
import { hoistNamedSchemas } from './http/schemas/openapi-components.ts';
import { imageRoutes } from './http/routes/images.ts';
import { qrBatchRoutes } from './http/routes/qr-batch.ts';
import { qrBulkRoutes } from './http/routes/qr-bulk.ts';
import { tagRoutes } from './http/routes/tags.ts';
import { designRoutes } from './http/routes/designs.ts';
import { qrTransferRoutes } from './http/routes/qr-transfer.ts';
import { qrItemsRoutes } from './http/routes/qr-items.ts';
import { shortLinkRoutes } from './http/routes/short-links.ts';
import { trustFunction } from './http/client-address.ts';
import { parseQueryString, refuseBadlyEncodedQuery } from './http/query-string.ts';
import { FailureWatch, type ShortLinkHealth } from './http/failure-watch.ts';
import { openedFileOf, readinessProblems, sharedReadiness } from './http/readiness.ts';
import { createShortLinkHandler, rawShortLinkResponder } from './http/short-link-handler.ts';
import { statsRoutes } from './http/routes/stats.ts';
import { webAccountRoutes } from './http/routes/web-accounts.ts';
import { handleClientError } from './http/client-errors.ts';
import { utf8Body } from './http/utf8-body.ts';
import { createAccessHook } from './http/session-auth.ts';
import { webAppRoutes } from './http/web-app.ts';
import { requestSerializer } from './http/log-redaction.ts';
import { validatorCompiler } from './http/validation.ts';
import { type AppServices, createServices } from './services.ts';

registerAjvFormats();

export interface BuiltApp {
  app: FastifyInstance;
  services: AppServices;
}

export async function buildApp(config: Config, db: Db): Promise<BuiltApp> {
  // Several processes share one count per key through Redis; one process counts in memory.
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : null;
  const services = createServices(config, db, redis);
  // Set once the app exists: the listening server answers /r/* before Fastify sees it.
  let fastPath: ((req: http.IncomingMessage, res: http.ServerResponse) => boolean) | null = null;
  // Once closing, every answer ends its connection: a client scanning over kept-alive
  // connections never let the server close (9.8 s under a flood, past the 8 s grace), since
  // /r/* answers before Fastify, which would otherwise have said 503 and closed.
  let closing = false;
  const trust = trustFunction(config.trustProxy);
  const app = Fastify({
    serverFactory: (handler) =>
      http.createServer((req, res) => {
        if (closing) res.setHeader('connection', 'close');
        if (!fastPath?.(req, res)) handler(req, res);
      }),
    logger: loggerOptions(config, { req: requestSerializer }),
    bodyLimit: 1024 * 1024,
    trustProxy: trust,
    // Errors are logged by the error handler; a log line per request would cost the redirect more than its scan.
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace' }),
    // Short codes and uuids are case-sensitive; trailing slashes are forgiven.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200, querystringParser: parseQueryString },
    // Requests the HTTP parser refuses (headers too large, a bad Content-Length): `{error}` too.
    clientErrorHandler: handleClientError,
    // Errors raised while routing, before any handler: same `{error}` shape as the rest.
    frameworkErrors: (err, _req, reply: FastifyReply) => {
      const tooLong = err.code === 'FST_ERR_MAX_PARAM_LENGTH';
      void reply.code(tooLong ? 414 : 400).send({ error: tooLong ? 'path: a path segment is too long' : 'path: is not a valid URL' });
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.decorateRequest('auth', null);
  // Only JSON bodies are accepted: text/plain would otherwise slip through as a string.
  app.removeContentTypeParser('text/plain');
  // An empty JSON body (common on DELETE from generated clients) is no body, not an error;
  // routes that need a body still say so through their schema.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    const text = utf8Body(req, body as Buffer);
    if (text instanceof Error) return done(text, undefined);
    if (text === '') return done(null, undefined);
    const maxValues = req.routeOptions.config.maxJsonValues ?? MAX_JSON_VALUES;
    const problem = jsonShapeProblem(text, MAX_JSON_DEPTH, maxValues);
    if (problem === 'depth') return done(new ValidationError(`body: must not nest deeper than ${MAX_JSON_DEPTH} levels`), undefined);
    if (problem === 'values') return done(new ValidationError(`body: must not hold more than ${maxValues} values (array elements and fields)`), undefined);
    parseJson(req, text, (err, value) => {
      // The parser refuses __proto__ (and constructor.prototype) in the same words as broken
      // JSON; text that parses plainly was refused for that, so say so (error path only).
      if (err && isPlainJson(text)) return done(new ValidationError('body: a field named __proto__, or constructor holding prototype, is not allowed'), undefined);
      done(err, value);
    });
  });
  installErrorHandlers(app);
  // No answer of ours is meant to be sniffed into another type (JSON as HTML, say).
  app.addHook('onRequest', (_req, reply, done) => {
    reply.header('x-content-type-options', 'nosniff');
    done();
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'qrtrack API', version: '1.0.0', description: 'Dynamic QR codes with honest scan statistics.' },
      servers: [{ url: config.publicBaseUrl }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'API key: qrt_…' },
          session: { type: 'apiKey', in: 'cookie', name: 'qrtrack_session', description: 'Web app session; state-changing requests also need X-CSRF-Token' },
        },
      },
      security: [{ bearer: [] }, { session: [] }],
    },
    // Schemas named in src/http/schemas/qr-items.ts (and in any route) become components.schemas and $refs.
    transformObject: (doc) => ('openapiObject' in doc ? hoistNamedSchemas(doc.openapiObject) : doc.swaggerObject),
  });
  await registerDocs(app);

  const stopSaltPurge = startSaltPurge(services.salts, (err) => app.log.warn({ err }, 'could not purge expired salts'));
  const stopQuarterPrune = startQuarterDimsPrune(services.db, (err) => app.log.warn({ err }, 'could not prune old quarter-hour breakdowns'));
  let drain: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    closing = true;
    // A connection whose answer began before closing goes idle after it, kept alive: close
    // such ones as they come (once was not enough; they waited for the grace period's cut).
    app.server.closeIdleConnections();
    drain = setInterval(() => app.server.closeIdleConnections(), 50).unref();
  });
  // Scans still queued are committed before the process lets go of the database.
  app.addHook('onClose', async () => {
    clearInterval(drain);
    await stopSaltPurge();
    await stopQuarterPrune();
    await services.tracker.drain();
    await services.links.close?.();
    await services.renderer.close();
  });
  await services.links.start?.();
  const health: ShortLinkHealth = { scans: new FailureWatch(app.log, 'scans not recorded'), lookups: new FailureWatch(app.log, 'short links not answered: the database cannot be read') };
  const handleShortLink = createShortLinkHandler(services, health);
  fastPath = rawShortLinkResponder(handleShortLink, trust, app.log);
  await app.register(shortLinkRoutes, { handle: handleShortLink });
  // Liveness: the process serves. Readiness: it can also read and write its database.
  app.get('/healthz', { schema: { hide: true } }, async () => ({ ok: true }));
  const openedFile = openedFileOf(services.db);
  const readinessErrors = new FailureWatch(app.log, 'readiness: the database is not usable');
  const readiness = sharedReadiness(() => readinessProblems(services.db, health, openedFile, (err) => readinessErrors.failed(err)));
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    const problems = await readiness();
    return reply.code(problems.length === 0 ? 200 : 503).send(problems.length === 0 ? { ok: true } : { ok: false, problems });
  });
  await app.register(webAppRoutes);
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  if (redis) {
    // While Redis is away requests go unlimited (skipOnError below: the links keep answering);
    // say so once a minute, not at every reconnect attempt.
    let warnedAt = 0;
    redis.on('error', (err: Error) => {
      if (Date.now() - warnedAt < 60_000) return;
      warnedAt = Date.now();
      app.log.warn({ error: err.message }, 'rate-limit store (REDIS_URL) unavailable: requests are not rate limited until it is back');
    });
    app.addHook('onClose', async () => void (await redis.quit().catch(() => redis.disconnect())));
  }

  await app.register(
    async (v1) => {
      // Before authentication, so a 16 MiB import with a broken query is not parsed first.
      v1.addHook('onRequest', refuseBadlyEncodedQuery);
      await v1.register(cookie);
      // A signed-in session or a bearer key, on the same routes; session-only routes refuse keys.
      // One failure count per address for guessed keys and guessed session cookies alike.
      const throttle = new AuthThrottle(config.authFailuresPerMinute);
      v1.addHook('onRequest', createAccessHook(createAuthHook(services.keys, throttle), services, throttle));
      await v1.register(rateLimit, {
        global: true,
        hook: 'preParsing',
        max: config.rateLimitPerMinute,
        timeWindow: 60_000,
        enableDraftSpec: true,
        ...(redis ? { redis, nameSpace: 'qrtrack-rl-', skipOnError: true } : {}),
        keyGenerator: rateLimitKey,
        errorResponseBuilder: (_req, ctx) => ({ statusCode: 429, message: `rate limit exceeded: ${ctx.max} requests per minute; retry in ${ctx.after}` }),
      });
      await v1.register(qrItemsRoutes, { services });
      await v1.register(statsRoutes, { services });
      await v1.register(imageRoutes, { services });
      await v1.register(webAccountRoutes, { services });
      // Big accounts: bulk create, tags, import and export.
      await v1.register(qrBatchRoutes, { services });
      await v1.register(qrBulkRoutes, { services });
      await v1.register(tagRoutes, { services });
      await v1.register(designRoutes, { services });
      await v1.register(qrTransferRoutes, { services });
    },
    { prefix: '/v1' },
  );

  return { app, services };
}

/**
 * Connects to the rate-limit store before anything else starts: a REDIS_URL that cannot be
 * reached at start is a configuration error (it started with no rate limit at all, silently).
 */
async function connectRedis(url: string): Promise<Redis> {
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

function isPlainJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
