// GET/HEAD /r/{code} and /r/{code}.vcf through Fastify (app.inject and any server built
// by buildApp); the listening server answers the same GET/HEAD requests on its fast path.
// POST /r/{code} is a protected code's password form, only here. All call the one handler
// in ./short-link-handler.ts.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { parse as parseQuery } from 'fast-querystring';
import type { ShortLinkHandler } from './short-link-handler.ts';

/** A password form is one short field: nothing larger is read. */
const FORM_BODY_LIMIT = 4 * 1024;

function queryOf(url: string): string {
  const at = url.indexOf('?');
  return at === -1 ? '' : url.slice(at + 1);
}

export const shortLinkRoutes: FastifyPluginAsync<{ handle: ShortLinkHandler }> = async (app, { handle }) => {
  app.get('/r/:code', { schema: { hide: true } }, async (req: FastifyRequest<{ Params: { code: string } }>, reply) => {
    const res = await handle({
      method: req.method,
      code: req.params.code,
      query: queryOf(req.url),
      headers: req.headers,
      host: req.headers.host,
      ip: req.ip,
    });
    return reply.code(res.status).headers(res.headers).send(res.body);
  });

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_req, body, done) => {
    done(null, parseQuery(body as string));
  });
  app.post(
    '/r/:code',
    { schema: { hide: true }, bodyLimit: FORM_BODY_LIMIT },
    async (req: FastifyRequest<{ Params: { code: string }; Body: unknown }>, reply) => {
      const form = typeof req.body === 'object' && req.body !== null ? (req.body as Record<string, unknown>) : {};
      const given = form.password;
      const password = typeof given === 'string' ? given : Array.isArray(given) && typeof given[0] === 'string' ? given[0] : '';
      const res = await handle({
        method: 'POST',
        code: req.params.code,
        query: queryOf(req.url),
        headers: req.headers,
        host: req.headers.host,
        ip: req.ip,
        password,
      });
      return reply.code(res.status).headers(res.headers).send(res.body);
    },
  );
};
