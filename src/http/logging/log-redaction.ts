// Logged request lines (every level: debug and trace log each request, warn and error the
// failing ones) must not carry a secret: a setup, invite or reset token or an API key in a log
// file would let its reader in. The API's paths (/v1/invites/…), the web app's pages
// (/app/invite/…), a token in a query string and any secret-shaped segment are all hidden.
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

export const requestSerializer = (req: FastifyRequest) => ({
  method: req.method,
  url: redactUrl(req.url),
  host: req.host,
  remoteAddress: req.ip,
});
