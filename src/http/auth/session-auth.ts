// Sessions in the /v1 API: a signed-in member's cookie is accepted wherever an API key
// is, with the scopes of the member's role. Session-only routes (keys, members, invites)
// refuse API keys. Every state-changing request made with a session must carry the
// session's CSRF token and must not come from another site.
import type {} from '@fastify/cookie';
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Config } from '../../config.ts';
import { type Role, scopesOfRole } from '../../domain/accounts/roles.ts';
import { hashSecretToken, looksLikeSecretToken, newSecretToken } from '../../domain/accounts/secret-token.ts';
import {
  SESSION_ABSOLUTE_MS,
  SESSION_IDLE_MS,
  SESSION_TOUCH_MS,
  csrfTokenFor,
  sessionAlive,
} from '../../domain/accounts/session-policy.ts';
import type { AppServices } from '../../services.ts';
import { tooManyFailures } from './api-key-auth.ts';
import { SESSIONS_PER_USER } from '../../domain/accounts/account-limits.ts';
import type { AuthThrottle } from './auth-throttle.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Routes only a signed-in member may call (never with an API key); 'owner' also needs the
     * owner role; 'user' routes are about the user and the session, not an account, so a tab's
     * stale account (see tabAccount) does not stop them.
     */
    session?: 'user' | 'member' | 'owner';
  }
}

export interface SessionMember {
  userId: string;
  email: string;
  role: Role;
  /** SHA-256 of the cookie's id: names the session in the database. */
  sessionHash: string;
  csrfToken: string;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const CSRF_HEADER = 'x-csrf-token';
/** The account a browser tab works in (see tabAccount). */
export const ACCOUNT_HEADER = 'x-qrtrack-account';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function cookieName(config: PublicOrigin): string {
  // __Host- binds the cookie to this exact origin over https (no Domain, Path=/, Secure).
  return isHttps(config) ? '__Host-qrtrack_session' : 'qrtrack_session';
}

/** The address in force; PUBLIC_BASE_URL's shape, so a config fits too. */
export type PublicOrigin = Pick<Config, 'publicBaseUrl'>;

export function isHttps(config: PublicOrigin): boolean {
  // Schemes are case-insensitive (HTTPS://… is https); the parsed URL lower-cases it.
  return new URL(config.publicBaseUrl).protocol === 'https:';
}

/** The public address in force now (stored at first run, or PUBLIC_BASE_URL). */
export function publicOf(services: AppServices): PublicOrigin {
  return { publicBaseUrl: services.addresses.publicUrl() };
}

type HookFn = (this: FastifyInstance, req: FastifyRequest, reply: FastifyReply, done: () => void) => unknown;

/** The /v1 onRequest hook: session-only routes, sessions on scoped routes, otherwise the bearer-key hook. */
export function createAccessHook(bearer: onRequestHookHandler, services: AppServices, throttle: AuthThrottle): onRequestHookHandler {
  const bearerFn = bearer as unknown as HookFn;
  const name = cookieName(publicOf(services));
  return async function access(this: FastifyInstance, req: FastifyRequest, reply: FastifyReply) {
    const { session, scope } = req.routeOptions.config;
    if (session !== undefined) {
      if (req.headers.authorization !== undefined) {
        return reply.code(403).send({ error: 'this route needs a signed-in session: API keys cannot manage keys, members or invites' });
      }
      const member = await authenticateSession(req, reply, services, name, throttle);
      if (member === null) return reply;
      if (session === 'owner' && member.role !== 'owner')
        return reply.code(403).send({ error: `role: only an owner of the account can do this (your role is ${member.role})` });
      return;
    }
    if (scope === undefined) return;
    if (req.headers.authorization === undefined && req.cookies[name] !== undefined) {
      const member = await authenticateSession(req, reply, services, name, throttle);
      if (member === null) return reply;
      if (!req.auth?.scopes.includes(scope))
        return reply.code(403).send({ error: `insufficient scope: requires ${scope} (your role is ${member.role})` });
      return;
    }
    return bearerFn.call(this, req, reply, () => {});
  };
}

/** Sets req.auth from the session cookie, or answers 401/403 and returns null. */
async function authenticateSession(
  req: FastifyRequest,
  reply: FastifyReply,
  services: AppServices,
  name: string,
  throttle: AuthThrottle,
): Promise<SessionMember | null> {
  const token = req.cookies[name];
  const idHash = token !== undefined && looksLikeSecretToken(token) ? hashSecretToken(token) : null;
  const secret = idHash === null ? undefined : `session:${idHash}`;
  // An address that guessed too many session ids waits before another is even looked up
  // (unless this one was seen valid lately).
  const wait = throttle.retryAfter(req.ip, secret);
  if (wait > 0) {
    void tooManyFailures(reply, wait);
    return null;
  }
  if (token === undefined || idHash === null || secret === undefined) {
    if (token !== undefined) clearSessionCookie(reply, publicOf(services));
    void reply.code(401).send({ error: 'not signed in: sign in, or send an API key as "Authorization: Bearer <key>"' });
    return null;
  }
  const record = await throttle.lookup(req.ip, secret, () => services.sessions.find(idHash));
  const now = Date.now();
  if (record === null || record.role === null || !sessionAlive(record.createdAt, record.lastSeenAt, now)) {
    // An id we never issued (or already deleted) is a guess; an expired one is a returning member.
    if (record === null) throttle.recordFailure(req.ip);
    else await services.sessions.delete(idHash);
    clearSessionCookie(reply, publicOf(services));
    void reply.code(401).send({ error: 'session: has expired or was ended; sign in again' });
    return null;
  }
  throttle.vouch(secret);
  const csrfToken = csrfTokenFor(token);
  if (!SAFE_METHODS.has(req.method)) {
    const refusal = crossSiteRefusal(req, publicOf(services)) ?? csrfRefusal(req.headers[CSRF_HEADER], csrfToken);
    if (refusal !== null) {
      void reply.code(403).send({ error: refusal });
      return null;
    }
  }
  if (now - Date.parse(record.lastSeenAt) > SESSION_TOUCH_MS) {
    await services.sessions.touch(idHash, new Date(now).toISOString());
  }
  const account = await tabAccount(req, services, record.userId, record.accountId, record.role);
  if (account === null) {
    void reply
      .code(403)
      .send({ error: `account: you are no longer a member of the account this page shows (${ACCOUNT_HEADER}); reload the page` });
    return null;
  }
  const member: SessionMember = { userId: record.userId, email: record.email, role: account.role, sessionHash: idHash, csrfToken };
  req.auth = { keyId: null, accountId: account.accountId, scopes: scopesOfRole(account.role), member };
  return member;
}

/**
 * The account a request works in. The session keeps the account last chosen, but the web app
 * may be open in several tabs on different accounts: each tab names its own in this header,
 * so switching in one tab cannot make another tab's "Create" land in the other account.
 * Null when the header names an account the user is not (or no longer) a member of; the
 * routes of the session itself then act for the session's account, so the page can start
 * over, sign out or switch.
 */
async function tabAccount(req: FastifyRequest, services: AppServices, userId: string, sessionAccountId: string, sessionRole: Role) {
  // Links (images, CSV downloads) cannot carry a header: they name the account as ?account=.
  const header = req.headers[ACCOUNT_HEADER];
  const linked = req.method === 'GET' ? (req.query as Record<string, unknown> | undefined)?.account : undefined;
  const asked = typeof header === 'string' ? header : linked;
  if (typeof asked !== 'string' || asked === sessionAccountId) return { accountId: sessionAccountId, role: sessionRole };
  const role = UUID.test(asked) ? await services.members.roleOf(asked, userId) : null;
  if (role !== null) return { accountId: asked, role };
  return req.routeOptions.config.session === 'user' ? { accountId: sessionAccountId, role: sessionRole } : null;
}

function csrfRefusal(header: string | string[] | undefined, expected: string): string | null {
  const given = typeof header === 'string' ? Buffer.from(header) : null;
  const want = Buffer.from(expected);
  if (given === null || given.length !== want.length || !timingSafeEqual(given, want)) {
    return 'csrf: a request made with a session needs the X-CSRF-Token header from GET /v1/session';
  }
  return null;
}

/** A browser tells us where a request comes from; another site's page is refused. Non-browser clients send neither header. */
export function crossSiteRefusal(req: FastifyRequest, config: PublicOrigin): string | null {
  const origin = req.headers.origin;
  if (typeof origin === 'string' && origin !== '') {
    const allowed = new Set([new URL(config.publicBaseUrl).origin, `${req.protocol}://${req.host}`]);
    return allowed.has(origin) ? null : 'origin: requests from another site are refused';
  }
  return req.headers['sec-fetch-site'] === 'cross-site' ? 'origin: requests from another site are refused' : null;
}

/** Starts a session for the user in the account and sets its cookie; returns the cookie's secret. */
export async function startSession(reply: FastifyReply, services: AppServices, userId: string, accountId: string): Promise<string> {
  const token = newSecretToken();
  const now = Date.now();
  const idHash = hashSecretToken(token);
  await services.sessions.create(idHash, userId, accountId, new Date(now).toISOString());
  await services.sessions.keepNewest(userId, SESSIONS_PER_USER, idHash);
  // Expired sessions of anyone are dropped now and then; signing in is a fine moment.
  await services.sessions.purgeExpired(new Date(now - SESSION_IDLE_MS).toISOString(), new Date(now - SESSION_ABSOLUTE_MS).toISOString());
  void reply.setCookie(cookieName(publicOf(services)), token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: isHttps(publicOf(services)),
    maxAge: SESSION_ABSOLUTE_MS / 1000,
  });
  return token;
}

export function clearSessionCookie(reply: FastifyReply, config: PublicOrigin): void {
  void reply.clearCookie(cookieName(config), { path: '/', httpOnly: true, sameSite: 'lax', secure: isHttps(config) });
}

/** The signed-in member; routes with `session` config can rely on it. */
export function memberOf(req: FastifyRequest): SessionMember {
  if (!req.auth?.member) throw new Error('route reached without a session');
  return req.auth.member;
}
