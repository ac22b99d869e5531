// A signed-in browser for inject tests: keeps the session cookie and the CSRF token and
// sends them the way the web app does.
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { makeSetupLink } from '../../src/first-run.ts';
import type { TestApp } from './test-app.ts';

export interface SignedIn {
  cookie: string;
  csrf: string;
  userId: string;
  accountId: string;
  /** Sends the cookie, and the CSRF token unless `csrf: false`. */
  request(opts: InjectOptions & { csrf?: boolean }): Promise<LightMyRequestResponse>;
}

export const PASSWORD = 'correct horse battery';

export function sessionFrom(t: TestApp, res: LightMyRequestResponse): SignedIn {
  if (res.statusCode >= 300) throw new Error(`expected a session, got ${res.statusCode} ${res.body}`);
  const set = res.cookies.find((c) => c.name === 'qrtrack_session');
  if (!set) throw new Error('no session cookie was set');
  const body = res.json() as { csrfToken: string; user: { id: string }; account: { id: string } };
  const cookie = `qrtrack_session=${set.value}`;
  return {
    cookie,
    csrf: body.csrfToken,
    userId: body.user.id,
    accountId: body.account.id,
    request({ csrf = true, headers, ...opts }) {
      return t.app.inject({ ...opts, headers: { cookie, ...(csrf ? { 'x-csrf-token': body.csrfToken } : {}), ...headers } });
    },
  };
}

/** Returns a setup link's token (the last path segment). */
export async function setupToken(t: TestApp): Promise<string> {
  const url = await makeSetupLink(t.services.users, t.services.oneTimeLinks, t.config.publicBaseUrl);
  if (url === null) throw new Error('instance already set up');
  return url.split('/').pop() as string;
}

export async function setupOwner(t: TestApp, email = 'owner@example.com', accountName = 'Acme'): Promise<SignedIn> {
  const token = await setupToken(t);
  const res = await t.request({ method: 'POST', url: '/v1/setup', payload: { token, accountName, email, password: PASSWORD } });
  return sessionFrom(t, res);
}

export async function signIn(t: TestApp, email: string, password = PASSWORD): Promise<SignedIn> {
  return sessionFrom(t, await t.request({ method: 'POST', url: '/v1/session', payload: { email, password } }));
}

/** The owner invites someone with `role`; they accept with a new user and are signed in. */
export async function inviteMember(t: TestApp, owner: SignedIn, email: string, role: 'owner' | 'editor' | 'viewer'): Promise<SignedIn> {
  const inv = await owner.request({ method: 'POST', url: '/v1/account/invites', payload: { role } });
  if (inv.statusCode !== 201) throw new Error(`invite failed: ${inv.body}`);
  const token = (inv.json() as { url: string }).url.split('/').pop() as string;
  return sessionFrom(t, await t.request({ method: 'POST', url: `/v1/invites/${token}/accept`, payload: { email, password: PASSWORD } }));
}
