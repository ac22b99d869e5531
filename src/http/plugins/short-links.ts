// The short links /r/{code}: one handler, reached through Fastify (app.inject, and any server
// built by buildApp) and through the listening server's fast path, which answers before Fastify.
// On an account's domain, `GET /` answers too (its root redirect), and GET /tls/ask tells a
// reverse proxy which hosts it may get a certificate for.
import type http from 'node:http';
import type { AppServices } from '../../services.ts';
import type { AccessLog } from '../logging/access-log.ts';
import type { TrustFunction } from '../request/client-address.ts';
import type { ShortLinkHealth } from '../short-links/failure-watch.ts';
import { createRootAnswer, createShortLinkHandler, isRootPath, rawShortLinkResponder } from '../short-links/short-link-handler.ts';
import { shortLinkRoutes } from '../short-links/short-link-routes.ts';
import { tlsAskRoute } from '../short-links/tls-ask.ts';
import { unencapsulated } from './unencapsulated.ts';

export type FastPath = (req: http.IncomingMessage, res: http.ServerResponse) => boolean;

export interface ShortLinksOptions {
  services: AppServices;
  health: ShortLinkHealth;
  trust: TrustFunction | false;
  /** ACCESS_LOG's line writer; null: no access log. */
  accessLog: AccessLog | null;
  setFastPath: (fastPath: FastPath) => void;
}

export const shortLinks = unencapsulated<ShortLinksOptions>(async (app, { services, health, trust, accessLog, setFastPath }) => {
  await services.links.start?.();
  const handleShortLink = createShortLinkHandler(services, health);
  const root = createRootAnswer(services);
  setFastPath(rawShortLinkResponder(handleShortLink, trust, app.log, root, accessLog));
  // The same for app.inject (and any server buildApp made without the fast path).
  app.addHook('onRequest', async (req, reply) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !isRootPath(req.url)) return;
    const r = root(req.headers.host);
    if (r !== null) return reply.code(r.status).headers(r.headers).send(r.body);
  });
  await app.register(shortLinkRoutes, { handle: handleShortLink });
  await app.register(tlsAskRoute, { services });
});
