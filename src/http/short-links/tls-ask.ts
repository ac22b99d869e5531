// GET /tls/ask?domain=: a reverse proxy with on-demand TLS (Caddy's `ask`) asks before it gets a
// certificate for a hostname. 200 for the instance's own hosts and active domains, 404 for any
// other, so a stranger pointing a name at the server cannot make it request certificates.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppServices } from '../../services.ts';
import { ErrorResponse, OkResponse } from '../schemas/common.ts';

export const tlsAskRoute: FastifyPluginAsyncTypebox<{ services: AppServices }> = async (app, { services }) => {
  app.get(
    '/tls/ask',
    {
      schema: {
        summary: 'Whether a reverse proxy may get a TLS certificate for a hostname (on-demand TLS)',
        tags: ['domains'],
        security: [],
        querystring: Type.Object({ domain: Type.String({ minLength: 1, maxLength: 253 }) }),
        response: { 200: OkResponse, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req, reply) => {
      if (services.addresses.mayIssueCertificateFor(req.query.domain)) return { ok: true };
      return reply.code(404).send({ error: 'domain: not a host of this instance' });
    },
  );
};
