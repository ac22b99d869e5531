// Logged request lines (every level: debug and trace log each request, warn and error the
// failing ones) must not carry a secret: a setup, invite or reset token or an API key in a log
// file would let its reader in. The API's paths (/v1/invites/…), the web app's pages
// (/app/invite/…), a token in a query string and any secret-shaped segment are all hidden.
import net from 'node:net';
import type { FastifyRequest } from 'fastify';

const REDACTED = '[token]';
/** A segment after a one-time link's path: /v1/setup/…, /v1/invites/…, /v1/password-resets/…, /app/setup|invite|reset/…. */
const AFTER_LINK_PATH = /(\/(?:setup|invites?|reset|password-resets)\/)[^/?#]+/gi;
/** Secrets anywhere else: API keys (qrt_…) and 43-character tokens (session ids, link tokens). */
const SECRET_SHAPED = /qrt_[A-Za-z0-9_]{16,}|(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g;
/** Query parameters whose value is a secret whatever its shape. */
const SECRET_PARAM = /([?&](?:token|key|secret|password|api_key|apikey|access_token|session)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(AFTER_LINK_PATH, `$1${REDACTED}`).replace(SECRET_PARAM, `$1${REDACTED}`).replace(SECRET_SHAPED, REDACTED);
}

/** The request as a log line carries it: no secret, and the client's network, never its address. */
export const requestSerializer = (req: FastifyRequest) => ({
  method: req.method,
  url: redactUrl(req.url),
  host: req.host,
  remoteAddress: maskAddress(req.ip),
});

/**
 * A client address as the access log keeps it: never whole. IPv4 keeps its /24 (203.0.113.0),
 * IPv6 its /48 (2001:db8:1::), enough to tell networks apart, not people; an IPv4-mapped
 * address is its IPv4. Anything else (a unix socket's empty address) is "-".
 */
export function maskAddress(ip: string): string {
  const v4 = /^(?:::ffff:)?(\d+)\.(\d+)\.(\d+)\.\d+$/i.exec(ip);
  if (v4 !== null && net.isIPv4(ip.replace(/^::ffff:/i, ''))) return `${v4[1]}.${v4[2]}.${v4[3]}.0`;
  if (!net.isIPv6(ip)) return '-';
  const bare = ip.split('%')[0] as string;
  const [head = '', tail] = bare.split('::') as [string, string | undefined];
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined ? headGroups : [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  const kept = groups.slice(0, 3).map((g) => (g.includes('.') ? '0' : (parseInt(g, 16) || 0).toString(16)));
  while (kept.at(-1) === '0') kept.pop();
  return `${kept.join(':')}::`;
}
