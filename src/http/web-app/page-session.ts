// Who opened a page of the web app, read from the session cookie without touching it: the
// page's HTML may then carry what that member's first screen needs (the studio's files, its
// first preview). Nothing is refused, cleared or counted here: /v1/session, which the app
// calls next with the same cookie, does that (counted here too, a stale cookie would count twice
// against its address). An address /v1 holds back for failures gets the plain page, no lookup.
import type { FastifyRequest } from 'fastify';
import type { Role } from '../../domain/accounts/roles.ts';
import { hashSecretToken, looksLikeSecretToken } from '../../domain/accounts/secret-token.ts';
import { sessionAlive } from '../../domain/accounts/session-policy.ts';
import type { AppServices } from '../../services.ts';
import type { AuthThrottle } from '../auth/auth-throttle.ts';
import { cookieName, publicOf } from '../auth/session-auth.ts';

export interface PageSession {
  userId: string;
  accountName: string;
  role: Role;
  /** How many accounts the user is a member of (more than one: the header shows a switcher). */
  accounts: number;
}

/** The signed-in member of a page request, or null (no cookie, an unknown or ended session, a throttled address). */
export async function pageSession(req: FastifyRequest, services: AppServices, throttle: AuthThrottle): Promise<PageSession | null> {
  const token = req.cookies[cookieName(publicOf(services))];
  if (token === undefined || !looksLikeSecretToken(token)) return null;
  const idHash = hashSecretToken(token);
  const secret = `session:${idHash}`;
  if (throttle.retryAfter(req.ip, secret) > 0) return null;
  const record = await throttle.lookup(req.ip, secret, () => services.sessions.find(idHash));
  if (record === null || record.role === null || !sessionAlive(record.createdAt, record.lastSeenAt, Date.now())) return null;
  throttle.vouch(secret);
  const accounts = await services.members.accountsOf(record.userId);
  return { userId: record.userId, accountName: record.accountName, role: record.role, accounts: accounts.length };
}
