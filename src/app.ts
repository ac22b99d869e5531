// buildApp(config, db): plugins in a fixed order (external → app → routes), error and
// not-found handlers. It never listens; server.ts and the tests decide that.
import { type TypeBoxTypeProvider, registerAjvFormats } from '@fastify/type-provider-typebox';
import http from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import { handleClientError } from './http/errors/client-errors.ts';
import { installErrorHandlers } from './http/errors/error-handlers.ts';
import { loggerOptions } from './http/logging/log-options.ts';
import { requestSerializer } from './http/logging/log-redaction.ts';
import { type AccessLog, createAccessLog } from './http/logging/access-log.ts';
import { backgroundJobs } from './http/plugins/background-jobs.ts';
import { healthRoutes } from './http/plugins/health.ts';
import { openApiDocs } from './http/plugins/openapi-docs.ts';
import { connectRedis, rateLimitStore } from './http/plugins/rate-limit-store.ts';
import { requestParsing } from './http/plugins/request-parsing.ts';
import { type FastPath, shortLinks } from './http/plugins/short-links.ts';
import { v1Api } from './http/plugins/v1-api.ts';
import { webAppRoutes } from './http/plugins/web-app.ts';
import { AuthThrottle } from './http/auth/auth-throttle.ts';
import { trustFunction } from './http/request/client-address.ts';
import { ConnectionLimiter, bodyDeadline } from './http/request/connection-limits.ts';
import { parseQueryString } from './http/request/query-string.ts';
import { FailureWatch, type ShortLinkHealth } from './http/short-links/failure-watch.ts';
import { type AppServices, createServices } from './services.ts';

registerAjvFormats();

/** A year; subdomains are not ours to decide. */
const HSTS = 'max-age=31536000';
/** Bodies of every route but imports and batches (16 MiB). */
const DEFAULT_BODY_LIMIT = 1024 * 1024;
/** Fastify's own default; Node announces it in each answer's Keep-Alive header (timeout=72). */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

export interface BuiltApp {
  app: FastifyInstance;
  services: AppServices;
}

export interface BuildOptions {
  /** Where the JSON log lines go instead of stdout (tests read them). */
  logStream?: DestinationStream;
  /**
   * Compile every response schema's validators with the routes (the server does; about 0.35 s
   * more at start). Otherwise fast-json-stringify compiles a route's at its first answer: 40–70 ms
   * of the thread that answers the short links, once per route and process. In-process tests,
   * which build hundreds of apps, leave it off; the answers are the same.
   */
  compileSerializers?: boolean;
}

export async function buildApp(config: Config, db: Db, options: BuildOptions = {}): Promise<BuiltApp> {
  // Several processes share one count per key through Redis; one process counts in memory.
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : null;
  const services = createServices(config, db, redis);
  // The stored public address and the domains, before anything builds a link or answers a Host.
  await services.addresses.refresh();
  // Set once the app exists: the listening server answers /r/* before Fastify sees it.
  let fastPath: FastPath | null = null;
  // Once closing, every answer ends its connection: kept-alive scans would hold the server past
  // its grace (docs/operations.md), since /r/* answers before Fastify, which would say 503 and close.
  let closing = false;
  const trust = trustFunction(config.trustProxy);
  const connections = new ConnectionLimiter(config.connections.maxPerAddress, trust);
  // A browser that once reached us over https keeps to https (every answer, /r/* too).
  const hsts = () => services.addresses.isHttps();
  const app = Fastify({
    serverFactory: (handler) => {
      const server = http.createServer(
        {
          headersTimeout: config.connections.headersTimeoutMs,
          // One value for the whole server: the large-body routes'; the others are held to less (bodyDeadline).
          requestTimeout: config.connections.largeBodyTimeoutMs,
          // Node checks these timeouts every 30 s by default, far too late (docs/security.md).
          connectionsCheckingInterval: 1000,
        },
        (req, res) => {
          connections.requestBegan(req, res);
          if (closing) res.setHeader('connection', 'close');
          if (hsts()) res.setHeader('strict-transport-security', HSTS);
          if (!fastPath?.(req, res)) handler(req, res);
        },
      );
      // Fastify sets its keep-alive timeout (72 s, longer than the usual proxy's idle timeout) only
      // on servers it creates itself (Node's 5 s otherwise). A client, or proxy, that reuses an idle
      // connection just as the server drops it gets "other side closed".
      server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
      connections.attach(server);
      return server;
    },
    logger: loggerOptions(config, { req: requestSerializer }, options.logStream),
    bodyLimit: DEFAULT_BODY_LIMIT,
    trustProxy: trust,
    // A response schema's unions are checked by Ajv validators (BuildOptions.compileSerializers).
    serializerOpts: { compileValidators: options.compileSerializers === true },
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
  const health: ShortLinkHealth = {
    scans: new FailureWatch(app.log, 'scans not recorded'),
    lookups: new FailureWatch(app.log, 'short links not answered: the database cannot be read'),
  };

  // The order matters: a parser, hook or handler applies to what is registered after it.
  await app.register(requestParsing);
  installErrorHandlers(app);
  app.addHook('onRequest', bodyDeadline(config.connections.requestTimeoutMs, DEFAULT_BODY_LIMIT));
  // No answer of ours is meant to be sniffed into another type (JSON as HTML, say).
  app.addHook('onRequest', (_req, reply, done) => {
    reply.header('x-content-type-options', 'nosniff');
    done();
  });
  const metrics = services.metrics;
  if (metrics !== null) {
    // By route template (never the path: no code or id as a label); /r/* on the fast path is
    // counted by outcome in the short-link handler instead.
    app.addHook('onResponse', (req, reply, done) => {
      metrics.observeRequest(req.method, req.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
  }
  const accessLog = config.accessLog ? createAccessLog(app.log) : null;
  if (accessLog !== null) logEachRequest(app, accessLog);
  await app.register(openApiDocs, { publicBaseUrl: services.addresses.publicUrl() });
  await app.register(backgroundJobs, { services, onClosing: () => void (closing = true) });
  await app.register(shortLinks, { services, health, trust, accessLog, setFastPath: (answer) => void (fastPath = answer) });
  await app.register(healthRoutes, { services, health });
  // One failure count per address for guessed keys and session cookies, on /v1 and the app's pages alike.
  const throttle = new AuthThrottle(config.authFailuresPerMinute);
  await app.register(webAppRoutes, { services, throttle });
  if (redis) await app.register(rateLimitStore, { redis });
  await app.register(v1Api, { prefix: '/v1', config, services, redis, throttle });

  return { app, services };
}

/** ACCESS_LOG: a line for each request answered through Fastify (the fast path logs its own). */
function logEachRequest(app: FastifyInstance, log: AccessLog): void {
  // A streamed answer (an export) has no Content-Length: its size is what its connection sent.
  const sentBefore = new WeakMap<FastifyRequest, number>();
  app.addHook('onRequest', (req, _reply, done) => {
    sentBefore.set(req, req.raw.socket?.bytesWritten ?? 0);
    done();
  });
  app.addHook('onResponse', (req, reply, done) => {
    const declared = reply.getHeader('content-length');
    const sent = (req.raw.socket?.bytesWritten ?? 0) - (sentBefore.get(req) ?? 0);
    log({
      method: req.method,
      url: req.url,
      route: req.routeOptions.url,
      status: reply.statusCode,
      ms: reply.elapsedTime,
      bytes: declared !== undefined ? Number(declared) : sent,
      ip: req.ip,
    });
    done();
  });
}
