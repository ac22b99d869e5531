// ACCESS_LOG=true: one line per request through the app's pino logger, for the API, the web app
// and the short links' fast path alike. What a line holds is chosen so that no secret and no
// person is in it: the route template (never a path with ids, except /r/{code} whose code is
// printed on paper anyway), no query string (a short link's can carry a visitor's token, the
// API's a search), no header (so no key or cookie), and the client's network, not its address.
import type { FastifyBaseLogger } from 'fastify';
import { maskAddress, redactUrl } from './log-redaction.ts';

export interface AccessEntry {
  method: string;
  /** The raw URL; only its path is logged, and only where no route template stands for it. */
  url: string;
  /** The matched route's template; undefined for a 404 of no route and for the fast path. */
  route: string | undefined;
  status: number;
  ms: number;
  /** The body's length; for a streamed answer, what went out on the connection (headers and framing included). */
  bytes: number | null;
  ip: string;
}

export type AccessLog = (entry: AccessEntry) => void;

/** At info whatever LOG_LEVEL says (short of silent): asking for an access log is asking for these lines. */
export function createAccessLog(log: FastifyBaseLogger): AccessLog {
  const access = log.child({}, { level: 'info' });
  return (e) => {
    access.info(
      {
        method: e.method,
        path: accessPath(e.url, e.route),
        status: e.status,
        ms: Math.round(e.ms * 10) / 10,
        bytes: e.bytes,
        client: maskAddress(e.ip),
      },
      'request',
    );
  };
}

/** The route template; a short link's path or an unmatched path without its query, redacted as every logged URL is. */
export function accessPath(url: string, route: string | undefined): string {
  const path = url.split(/[?#]/, 1)[0] ?? '';
  if (route !== undefined && !route.startsWith('/r/')) return route;
  return redactUrl(path);
}
