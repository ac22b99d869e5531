// Request lines in the log (LOG_LEVEL=debug or trace) must not carry one-time link
// tokens: a setup, invite or reset token in a log file would let its reader in.
import type { FastifyRequest } from 'fastify';

const TOKEN_IN_PATH = /(\/(?:setup|invites|password-resets)\/)[A-Za-z0-9_-]{20,}/g;

export function redactUrl(url: string): string {
  return url.replace(TOKEN_IN_PATH, '$1[token]');
}

export const requestSerializer = (req: FastifyRequest) => ({
  method: req.method,
  url: redactUrl(req.url),
  host: req.host,
  remoteAddress: req.ip,
});
