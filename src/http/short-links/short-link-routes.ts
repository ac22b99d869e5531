// GET/HEAD /r/{code} and /r/{code}.vcf through Fastify (app.inject and any server built
// by buildApp); the listening server answers the same requests on its fast path. Both
// call the one handler in ../short-link-handler.ts.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ShortLinkHandler } from './short-link-handler.ts';

export const shortLinkRoutes: FastifyPluginAsync<{ handle: ShortLinkHandler }> = async (app, { handle }) => {
  app.get('/r/:code', { schema: { hide: true } }, async (req: FastifyRequest<{ Params: { code: string } }>, reply) => {
    const res = await handle({ method: req.method, code: req.params.code, headers: req.headers, ip: req.ip });
    return reply.code(res.status).headers(res.headers).send(res.body);
  });
};
