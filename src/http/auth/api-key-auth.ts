// Bearer API-key authentication and per-route scopes. Runs at onRequest, before the
// body is parsed or validated: a key without qr:write gets 403 even for a missing id.
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { type Scope, hashApiKey, looksLikeApiKey } from '../../domain/accounts/api-key.ts';
import { keyRefusal } from '../../domain/accounts/key-lifecycle.ts';
import type { ApiKeysRepository } from '../../db/accounts/api-keys-repository.ts';
import type { AuthThrottle } from './auth-throttle.ts';
import { addressKey } from '../../domain/address-key.ts';
import type { SessionMember } from './session-auth.ts';

export interface AuthContext {
  /** The API key used; null when the request came with a signed-in session. */
  keyId: string | null;
  accountId: string;
  scopes: Scope[];
  /** The signed-in member (see session-auth.ts); null for API-key requests. */
  member: SessionMember | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    /** The scope a route needs; routes without one are public. */
    scope?: Scope;
  }
}

/** lastUsedAt is written at most this often per key, so reads do not turn into writes. */
const TOUCH_INTERVAL_MS = 60_000;

export function createAuthHook(keys: ApiKeysRepository, throttle: AuthThrottle): onRequestHookHandler {
  const lastTouched = new Map<string, number>();
  return async function authenticate(req: FastifyRequest, reply: FastifyReply) {
    const scope = req.routeOptions.config.scope;
    if (scope === undefined) return;
    const token = bearerToken(req.headers.authorization);
    const hash = token !== null && looksLikeApiKey(token) ? hashApiKey(token) : null;
    const secret = hash === null ? undefined : `key:${hash}`;
    // An address past its failures waits out the window before any key is even looked up
    // (unless the key was seen valid lately: no guess).
    const wait = throttle.retryAfter(req.ip, secret);
    if (wait > 0) return tooManyFailures(reply, wait);
    const refuse = (message: string) => {
      throttle.recordFailure(req.ip);
      return unauthorized(reply, message);
    };
    if (token === null) return refuse('missing or malformed Authorization header: expected "Bearer <API key>"');
    if (hash === null || secret === undefined) return refuse('invalid API key');
    const key = await throttle.lookup(req.ip, secret, () => keys.findByHash(hash));
    if (!key) return refuse('invalid API key');
    // Expiry is checked against the clock on every request (the lookup is never cached).
    const refusal = keyRefusal(key, Date.now());
    if (refusal !== null) return refuse(refusal);
    if (key.replacedAt !== null && key.expiresAt !== null) announceSunset(reply, key.replacedAt, key.expiresAt);
    throttle.vouch(secret);
    req.auth = { keyId: key.id, accountId: key.accountId, scopes: key.scopes, member: null };
    touch(keys, lastTouched, key.id, req);
    if (!key.scopes.includes(scope)) {
      return reply.code(403).send({ error: `insufficient scope: requires ${scope}` });
    }
  };
}

/**
 * A rotated key in its grace period: every answer says it is deprecated (RFC 9745, since the
 * rotation) and when it stops working (RFC 8594), so a client's logs show it before it breaks.
 */
function announceSunset(reply: FastifyReply, replacedAt: string, expiresAt: string): void {
  reply.header('deprecation', `@${Math.floor(Date.parse(replacedAt) / 1000)}`);
  reply.header('sunset', new Date(expiresAt).toUTCString());
}

function touch(keys: ApiKeysRepository, lastTouched: Map<string, number>, keyId: string, req: FastifyRequest): void {
  const now = Date.now();
  if (now - (lastTouched.get(keyId) ?? 0) < TOUCH_INTERVAL_MS) return;
  lastTouched.set(keyId, now);
  // Bookkeeping must never fail a request; a failure is logged and retried next time.
  keys.touchLastUsed(keyId, new Date(now).toISOString()).catch((err: unknown) => {
    lastTouched.delete(keyId);
    req.log.warn({ err }, 'could not record lastUsedAt');
  });
}

function bearerToken(header: string | undefined): string | null {
  if (header === undefined) return null;
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return m?.[1] ?? null;
}

function unauthorized(reply: FastifyReply, message: string) {
  return reply.code(401).header('WWW-Authenticate', 'Bearer realm="qrtrack"').send({ error: message });
}

/** 429 for an address past its failed authentications (keys or session cookies). */
export function tooManyFailures(reply: FastifyReply, retryAfter: number) {
  return reply
    .code(429)
    .header('retry-after', String(retryAfter))
    .send({ error: `too many failed authentication attempts from this address; retry in ${retryAfter} seconds` });
}

/** What a request is counted under for rate limits: its key, its signed-in user, or its address. */
export function rateLimitKey(req: FastifyRequest): string {
  if (req.auth?.keyId) return `key:${req.auth.keyId}`;
  if (req.auth?.member) return `user:${req.auth.member.userId}`;
  return `ip:${addressKey(req.ip)}`;
}

/** The authenticated account; routes with a scope can rely on it. */
export function accountOf(req: FastifyRequest): string {
  if (!req.auth) throw new Error('route reached without authentication');
  return req.auth.accountId;
}
