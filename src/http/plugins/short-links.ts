// The short links /r/{code}: one handler, reached through Fastify (app.inject, and any server
// built by buildApp) and through the listening server's fast path, which answers before Fastify.
import type http from 'node:http';
import type { AppServices } from '../../services.ts';
import type { TrustFunction } from '../request/client-address.ts';
import type { ShortLinkHealth } from '../short-links/failure-watch.ts';
import { createShortLinkHandler, rawShortLinkResponder } from '../short-links/short-link-handler.ts';
import { shortLinkRoutes } from '../short-links/short-link-routes.ts';
import { unencapsulated } from './unencapsulated.ts';

export type FastPath = (req: http.IncomingMessage, res: http.ServerResponse) => boolean;

export interface ShortLinksOptions {
  services: AppServices;
  health: ShortLinkHealth;
  trust: TrustFunction | false;
  setFastPath: (fastPath: FastPath) => void;
}

export const shortLinks = unencapsulated<ShortLinksOptions>(async (app, { services, health, trust, setFastPath }) => {
  await services.links.start?.();
  const handleShortLink = createShortLinkHandler(services, health);
  setFastPath(rawShortLinkResponder(handleShortLink, trust, app.log));
  await app.register(shortLinkRoutes, { handle: handleShortLink });
});
