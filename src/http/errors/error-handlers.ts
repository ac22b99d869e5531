// One error handler: domain errors and framework errors become `{ "error": "…" }`
// with the right 4xx; anything unexpected is logged and answered 500 without details.
import type { FastifyError, FastifyInstance } from 'fastify';
import { DomainError, ServiceBusyError } from '../../domain/errors.ts';
import { SHORT_LINK_HEADERS } from '../short-links/short-link-handler.ts';

const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Content-Type: must be application/json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'body: must not be empty when Content-Type is application/json',
  FST_ERR_CTP_INVALID_JSON_BODY: 'body: is not valid JSON',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Content-Length: does not match the body',
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The body type a route takes when it is not JSON, named when another is sent. */
    bodyType?: string;
  }
}

export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof ServiceBusyError) reply.header('retry-after', String(err.retryAfterSeconds));
    if (err instanceof DomainError) return reply.code(err.status).send({ error: err.message });
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const bodyType = req.routeOptions.config?.bodyType;
      const known =
        err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' && bodyType
          ? `Content-Type: must be ${bodyType}`
          : err.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
            ? `body: must be at most ${formatBytes(req.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? 0)}` // the route's own limit (imports and batches take 16 MiB)
            : FRAMEWORK_MESSAGES[err.code];
      const message = known ?? (err instanceof SyntaxError ? 'body: is not valid JSON' : err.message);
      return reply.code(status).send({ error: message || 'bad request' });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ error: 'internal error' });
  });

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    if (path.startsWith('/r/')) {
      // Like every answer under /r/, these are neither cached nor indexed. A short link
      // answers only GET and HEAD; with those, a path that is no short link (/r/a/b) is a 404.
      if (req.method === 'GET' || req.method === 'HEAD')
        return reply
          .code(404)
          .headers(SHORT_LINK_HEADERS)
          .send({ error: `no short link at ${path}` });
      return reply
        .code(405)
        .headers({ ...SHORT_LINK_HEADERS, allow: 'GET, HEAD' })
        .send({ error: `method: a short link answers GET and HEAD, not ${req.method}` });
    }
    return reply.code(404).send({ error: `no route for ${req.method} ${path}` });
  });
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}
