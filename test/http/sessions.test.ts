import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashSecretToken, newSecretToken } from '../../src/domain/accounts/secret-token.ts';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../../src/domain/accounts/session-policy.ts';
import { cookieName } from '../../src/http/auth/session-auth.ts';
import { PASSWORD, type SignedIn, sessionFrom, setupOwner, setupToken, signIn } from '../support/sessions.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp();
});
afterEach(() => t.close());

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

describe('first-run setup', () => {
  it('reports that setup is needed until the owner used the link, then signs them in', async () => {
    expect((await t.request({ method: 'GET', url: '/v1/instance' })).json()).toMatchObject({ setupRequired: true, signup: 'invite' });
    const token = await setupToken(t);
    expect((await t.request({ method: 'GET', url: `/v1/setup/${token}` })).json()).toEqual({ ok: true });
    const res = await t.request({
      method: 'POST',
      url: '/v1/setup',
      payload: { token, accountName: 'Acme', email: ' Owner@Example.com ', password: PASSWORD },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.user.email).toBe('owner@example.com');
    expect(body.account).toMatchObject({ name: 'Acme', role: 'owner' });
    expect(body.scopes).toEqual(['qr:read', 'qr:write', 'webhooks:read', 'webhooks:write']);
    const cookie = res.cookies.find((c) => c.name === 'qrtrack_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.secure).toBeFalsy();
    expect((await t.request({ method: 'GET', url: '/v1/instance' })).json().setupRequired).toBe(false);
  });

  it('refuses a setup link used twice, and any other setup link once the owner exists', async () => {
    const token = await setupToken(t);
    const other = await setupToken(t);
    const first = await t.request({
      method: 'POST',
      url: '/v1/setup',
      payload: { token, accountName: 'Acme', email: 'a@example.com', password: PASSWORD },
    });
    expect(first.statusCode).toBe(201);
    const again = await t.request({
      method: 'POST',
      url: '/v1/setup',
      payload: { token, accountName: 'Evil', email: 'evil@example.com', password: PASSWORD },
    });
    expect(again.statusCode).toBe(410);
    expect(again.json().error).toMatch(/^token: .*already been used/);
    const second = await t.request({
      method: 'POST',
      url: '/v1/setup',
      payload: { token: other, accountName: 'Evil', email: 'evil@example.com', password: PASSWORD },
    });
    expect(second.statusCode).toBe(410);
    expect((await t.request({ method: 'GET', url: `/v1/setup/${token}` })).statusCode).toBe(410);
    expect(await t.services.users.findByEmail('evil@example.com')).toBeNull();
  });

  it('lets only one of two simultaneous setups win', async () => {
    const [a, b] = [await setupToken(t), await setupToken(t)];
    const results = await Promise.all(
      [a, b].map((token, i) =>
        t.request({
          method: 'POST',
          url: '/v1/setup',
          payload: { token, accountName: `A${i}`, email: `o${i}@example.com`, password: PASSWORD },
        }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 410]);
  });

  it('answers 404 for an unknown setup token and names each bad field', async () => {
    const unknown = 'x'.repeat(43);
    expect((await t.request({ method: 'GET', url: `/v1/setup/${unknown}` })).statusCode).toBe(404);
    const token = await setupToken(t);
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ token, accountName: 'A', email: 'not-an-email', password: PASSWORD }, /^email: must be an email address/],
      [{ token, accountName: 'A', email: 'a@example.com', password: 'short' }, /^password: must be at least 10 characters/],
      [{ token, accountName: '   ', email: 'a@example.com', password: PASSWORD }, /^accountName: must not be empty/],
      [{ token, accountName: 'A', email: 'a@example.com' }, /^password: is required/],
      [{ token: 'abc', accountName: 'A', email: 'a@example.com', password: PASSWORD }, /^token: must be the token from the link/],
      [{ token, accountName: 'A', email: 'a@example.com', password: PASSWORD, admin: true }, /^admin: is not a known field/],
    ];
    for (const [payload, message] of cases) {
      const res = await t.request({ method: 'POST', url: '/v1/setup', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toMatch(message);
    }
    expect((await t.request({ method: 'GET', url: `/v1/setup/${token}` })).statusCode).toBe(200);
  });

  it('adopts an account of the same name made earlier with the CLI, with its keys', async () => {
    const key = await t.key('Acme');
    const owner = await setupOwner(t, 'o@example.com', 'Acme');
    const keys = await owner.request({ method: 'GET', url: '/v1/account/keys' });
    expect(keys.json().keys).toHaveLength(1);
    expect(keys.json().keys[0].createdBy).toBeNull();
    expect((await t.request({ method: 'GET', url: '/v1/qr', key })).statusCode).toBe(200);
  });

  it('refuses a setup posted from another site', async () => {
    const token = await setupToken(t);
    const res = await t.request({
      method: 'POST',
      url: '/v1/setup',
      headers: { origin: 'https://evil.example' },
      payload: { token, accountName: 'A', email: 'a@example.com', password: PASSWORD },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatch(/^origin: /);
  });
});

describe('sign in and out', () => {
  it('signs in with the right password and reads the session; a wrong one is 401 without a cookie', async () => {
    await setupOwner(t, 'o@example.com');
    const wrong = await t.request({ method: 'POST', url: '/v1/session', payload: { email: 'o@example.com', password: 'wrong password!' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: 'password: email or password is wrong' });
    expect(wrong.cookies).toHaveLength(0);
    const unknown = await t.request({ method: 'POST', url: '/v1/session', payload: { email: 'nobody@example.com', password: PASSWORD } });
    expect(unknown.json()).toEqual(wrong.json());
    const s = await signIn(t, 'O@example.com');
    const me = await s.request({ method: 'GET', url: '/v1/session' });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ user: { email: 'o@example.com' }, account: { name: 'Acme', role: 'owner' }, csrfToken: s.csrf });
  });

  it('stores only a hash of the cookie', async () => {
    const s = await setupOwner(t);
    const raw = s.cookie.split('=')[1] as string;
    const rows = await t.db.kysely.selectFrom('sessions').select('id_hash').execute();
    expect(rows.map((r) => r.id_hash)).toContain(hashSecretToken(raw));
    expect(rows.map((r) => r.id_hash)).not.toContain(raw);
  });

  it('signs out: the cookie no longer works', async () => {
    const s = await setupOwner(t);
    const out = await s.request({ method: 'DELETE', url: '/v1/session' });
    expect(out.statusCode).toBe(200);
    expect(out.cookies.find((c) => c.name === 'qrtrack_session')?.value).toBe('');
    const after = await s.request({ method: 'GET', url: '/v1/session' });
    expect(after.statusCode).toBe(401);
    expect(after.json().error).toMatch(/^session: /);
  });

  it('signs out everywhere: every session of the user ends', async () => {
    const a = await setupOwner(t, 'o@example.com');
    const b = await signIn(t, 'o@example.com');
    expect((await b.request({ method: 'DELETE', url: '/v1/sessions' })).statusCode).toBe(200);
    expect((await a.request({ method: 'GET', url: '/v1/session' })).statusCode).toBe(401);
    expect((await b.request({ method: 'GET', url: '/v1/session' })).statusCode).toBe(401);
  });

  it('ends a session idle too long, and one older than the absolute limit however busy', async () => {
    const idle = await setupOwner(t, 'o@example.com');
    const old = await signIn(t, 'o@example.com');
    const fresh = await signIn(t, 'o@example.com');
    const hashOf = (s: SignedIn) => hashSecretToken(s.cookie.split('=')[1] as string);
    await t.db.kysely
      .updateTable('sessions')
      .set({ last_seen_at: ago(SESSION_IDLE_MS + 1000) })
      .where('id_hash', '=', hashOf(idle))
      .execute();
    await t.db.kysely
      .updateTable('sessions')
      .set({ created_at: ago(SESSION_ABSOLUTE_MS + 1000), last_seen_at: ago(1000) })
      .where('id_hash', '=', hashOf(old))
      .execute();
    for (const s of [idle, old]) {
      const res = await s.request({ method: 'GET', url: '/v1/qr' });
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe('session: has expired or was ended; sign in again');
    }
    expect((await fresh.request({ method: 'GET', url: '/v1/qr' })).statusCode).toBe(200);
  });

  it('rate limits failed sign-ins per email, even with the right password afterwards', async () => {
    await setupOwner(t, 'o@example.com');
    for (let i = 0; i < 5; i++) {
      expect(
        (await t.request({ method: 'POST', url: '/v1/session', payload: { email: 'o@example.com', password: `wrong ${i} password` } }))
          .statusCode,
      ).toBe(401);
    }
    const limited = await t.request({ method: 'POST', url: '/v1/session', payload: { email: 'o@example.com', password: PASSWORD } });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().error).toMatch(/too many failed sign-ins/);
  });

  it('rate limits failed sign-ins per address across many emails', async () => {
    await setupOwner(t, 'o@example.com');
    for (let i = 0; i < 20; i++) {
      await t.request({ method: 'POST', url: '/v1/session', payload: { email: `guess${i}@example.com`, password: 'wrong password' } });
    }
    const limited = await t.request({ method: 'POST', url: '/v1/session', payload: { email: 'o@example.com', password: PASSWORD } });
    expect(limited.statusCode).toBe(429);
    const elsewhere = await t.request({
      method: 'POST',
      url: '/v1/session',
      remoteAddress: '10.9.8.7',
      payload: { email: 'o@example.com', password: PASSWORD },
    });
    expect(elsewhere.statusCode).toBe(200);
  });

  it('holds wrong passwords sent all at once to the limit: an attempt counts while its hash runs', async () => {
    await setupOwner(t, 'burst@example.com');
    // 40 at once used to pass the check before any had failed: all got 401, none 429.
    const tries = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        t.request({
          method: 'POST',
          url: '/v1/session',
          remoteAddress: `198.51.100.${i + 1}`,
          payload: { email: 'burst@example.com', password: 'not the password' },
        }),
      ),
    );
    const codes = tries.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(5);
    expect(codes.filter((c) => c === 429)).toHaveLength(35);
    // The right password waits too, until the window is over.
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/v1/session',
          remoteAddress: '198.51.100.99',
          payload: { email: 'burst@example.com', password: PASSWORD },
        })
      ).statusCode,
    ).toBe(429);
  });

  it('limits guessed session cookies per address, like guessed API keys, but not an expired session', async () => {
    await t.close();
    t = await makeTestApp({ AUTH_FAILURES_PER_MINUTE: '3' });
    const s = await setupOwner(t, 'o@example.com');
    // A member coming back with an expired session is not guessing: no failures counted.
    const old = await signIn(t, 'o@example.com');
    await t.db.kysely
      .updateTable('sessions')
      .set({ last_seen_at: ago(SESSION_IDLE_MS + 1000) })
      .where('id_hash', '=', hashSecretToken(old.cookie.split('=')[1] as string))
      .execute();
    // (The answer deletes the session and clears the cookie, so a browser does not send it again.)
    expect((await old.request({ method: 'GET', url: '/v1/qr' })).statusCode).toBe(401);
    const guess = () => t.request({ method: 'GET', url: '/v1/qr', headers: { cookie: `qrtrack_session=${newSecretToken()}` } });
    for (let i = 0; i < 3; i++) expect((await guess()).statusCode).toBe(401);
    const limited = await guess();
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().error).toMatch(/^too many failed authentication attempts from this address/);
    // Guessed keys count against the same window; another address is not affected.
    expect((await t.request({ method: 'GET', url: '/v1/qr', headers: { authorization: 'Bearer qrt_nope' } })).statusCode).toBe(429);
    expect((await s.request({ method: 'GET', url: '/v1/qr', remoteAddress: '10.9.8.7' })).statusCode).toBe(200);
    // That session was seen valid: from the waiting address too it is no guess.
    expect((await s.request({ method: 'GET', url: '/v1/qr' })).statusCode).toBe(200);
  });

  it('changes the password: the old one stops working, other sessions end, this one stays', async () => {
    const a = await setupOwner(t, 'o@example.com');
    const b = await signIn(t, 'o@example.com');
    const bad = await a.request({
      method: 'PUT',
      url: '/v1/me/password',
      payload: { currentPassword: 'not it at all', newPassword: 'a brand new secret' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('currentPassword: is wrong');
    const short = await a.request({ method: 'PUT', url: '/v1/me/password', payload: { currentPassword: PASSWORD, newPassword: 'short' } });
    expect(short.json().error).toMatch(/^newPassword: must be at least 10/);
    expect(
      (
        await a.request({
          method: 'PUT',
          url: '/v1/me/password',
          payload: { currentPassword: PASSWORD, newPassword: 'a brand new secret' },
        })
      ).statusCode,
    ).toBe(200);
    expect((await a.request({ method: 'GET', url: '/v1/session' })).statusCode).toBe(200);
    expect((await b.request({ method: 'GET', url: '/v1/session' })).statusCode).toBe(401);
    expect(
      (await t.request({ method: 'POST', url: '/v1/session', payload: { email: 'o@example.com', password: PASSWORD } })).statusCode,
    ).toBe(401);
    await signIn(t, 'o@example.com', 'a brand new secret');
  });
});

describe('guessing the current password', () => {
  it('counts wrong current passwords against the sign-in limits: the sixth try in the window is a 429, sign-in too', async () => {
    const a = await setupOwner(t, 'guess@example.com');
    const change = (currentPassword: string) =>
      a.request({ method: 'PUT', url: '/v1/me/password', payload: { currentPassword, newPassword: 'a brand new secret' } });
    for (let i = 0; i < 5; i++) expect((await change(`wrong guess ${i}`)).statusCode).toBe(400);
    const limited = await change(PASSWORD);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().error).toMatch(/^too many wrong passwords: try again in \d+ s$/);
    expect(
      (await t.request({ method: 'POST', url: '/v1/session', payload: { email: 'guess@example.com', password: PASSWORD } })).statusCode,
    ).toBe(429);
    // The password did not change, and the session still works.
    expect((await a.request({ method: 'GET', url: '/v1/session' })).statusCode).toBe(200);
  });
});

describe('CSRF', () => {
  it('refuses a state-changing request made with a session but without the CSRF token', async () => {
    const s = await setupOwner(t);
    const res = await s.request({ method: 'POST', url: '/v1/qr', csrf: false, payload: { title: 'x', url: 'https://example.com' } });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatch(/^csrf: /);
    const wrong = await s.request({
      method: 'POST',
      url: '/v1/account/keys',
      csrf: false,
      headers: { 'x-csrf-token': 'nope' },
      payload: { name: 'k', scopes: ['qr:read'] },
    });
    expect(wrong.statusCode).toBe(403);
    expect((await s.request({ method: 'GET', url: '/v1/qr', csrf: false })).statusCode).toBe(200);
    expect((await s.request({ method: 'DELETE', url: '/v1/session', csrf: false })).statusCode).toBe(403);
  });

  it('refuses a session request from another site even with the token', async () => {
    const s = await setupOwner(t);
    const res = await s.request({
      method: 'POST',
      url: '/v1/qr',
      headers: { origin: 'https://evil.example' },
      payload: { title: 'x', url: 'https://example.com' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatch(/^origin: /);
    const ok = await s.request({
      method: 'POST',
      url: '/v1/qr',
      headers: { origin: 'http://qr.test' },
      payload: { title: 'x', url: 'https://example.com' },
    });
    expect(ok.statusCode).toBe(201);
  });

  it('does not ask bearer-key requests for a CSRF token', async () => {
    const key = await t.key();
    expect((await t.request({ method: 'POST', url: '/v1/qr', key, payload: { title: 'x', url: 'https://example.com' } })).statusCode).toBe(
      201,
    );
  });
});

describe('secure cookies', () => {
  it('marks the cookie Secure and __Host- when PUBLIC_BASE_URL is https', async () => {
    const https = await makeTestApp({ PUBLIC_BASE_URL: 'https://qr.example' });
    try {
      const token = await setupToken(https);
      const res = await https.request({
        method: 'POST',
        url: '/v1/setup',
        payload: { token, accountName: 'A', email: 'a@example.com', password: PASSWORD },
      });
      const cookie = res.cookies.find((c) => c.name === '__Host-qrtrack_session');
      expect(cookie).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax', path: '/' });
      const device = res.cookies.find((c) => c.name === '__Host-qrtrack_device');
      expect(device).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax', path: '/' });
    } finally {
      await https.close();
    }
  });

  it('reads the scheme of PUBLIC_BASE_URL case-insensitively: HTTPS:// is https too', async () => {
    const https = await makeTestApp({ PUBLIC_BASE_URL: 'HTTPS://qr.example' });
    try {
      const token = await setupToken(https);
      const res = await https.request({
        method: 'POST',
        url: '/v1/setup',
        payload: { token, accountName: 'A', email: 'a@example.com', password: PASSWORD },
      });
      expect(res.cookies.map((c) => c.name)).toEqual(['__Host-qrtrack_session', '__Host-qrtrack_device']);
      for (const c of res.cookies) expect(c).toMatchObject({ secure: true });
      // Also when the configured URL reaches the session code as written, not normalised.
      expect(cookieName({ ...https.config, publicBaseUrl: 'HTTPS://qr.example' })).toBe('__Host-qrtrack_session');
    } finally {
      await https.close();
    }
  });
});

describe('browsers the user signed in from (device cookies against lockout)', () => {
  const deviceOf = (res: { cookies: { name: string; value: string }[] }) => res.cookies.find((c) => c.name === 'qrtrack_device')?.value;
  const signInFrom = (email: string, password: string, device?: string, remoteAddress = '127.0.0.1') =>
    t.request({
      method: 'POST',
      url: '/v1/session',
      remoteAddress,
      headers: device ? { cookie: `qrtrack_device=${device}` } : {},
      payload: { email, password },
    });
  const lockOut = async (email: string) => {
    for (let i = 0; i < 5; i++) expect((await signInFrom(email, `wrong ${i} password`, undefined, '203.0.113.66')).statusCode).toBe(401);
  };

  it('a stranger’s wrong passwords do not lock the user out of a browser they signed in from before', async () => {
    await setupOwner(t, 'o@example.com');
    const first = await signInFrom('o@example.com', PASSWORD);
    const device = deviceOf(first) as string;
    expect(device).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await lockOut('o@example.com');
    // A browser never used by the user waits, as before; the user's own browser does not.
    expect((await signInFrom('o@example.com', PASSWORD)).statusCode).toBe(429);
    const mine = await signInFrom('o@example.com', PASSWORD, device);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(deviceOf(mine)).toBe(device); // the same token, kept
    // Changing the password from that browser works too.
    const s = sessionFrom(t, mine);
    const changed = await s.request({
      method: 'PUT',
      url: '/v1/me/password',
      headers: { cookie: `${s.cookie}; qrtrack_device=${device}` },
      payload: { currentPassword: PASSWORD, newPassword: 'a brand new secret' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
  });

  it('trusts a browser only for the user it signed in: another user’s token, or a made-up one, counts as a stranger', async () => {
    await setupOwner(t, 'o@example.com');
    const other = await inviteAndSignIn('other@example.com');
    await lockOut('o@example.com');
    expect((await signInFrom('o@example.com', PASSWORD, other)).statusCode).toBe(429);
    expect((await signInFrom('o@example.com', PASSWORD, newSecretToken())).statusCode).toBe(429);
    expect((await signInFrom('o@example.com', PASSWORD, 'not a token')).statusCode).toBe(429);
  });

  it('limits wrong passwords from a trusted browser per browser: five, then that browser waits', async () => {
    await setupOwner(t, 'o@example.com');
    const [a, b] = [
      deviceOf(await signInFrom('o@example.com', PASSWORD)) as string,
      deviceOf(await signInFrom('o@example.com', PASSWORD)) as string,
    ];
    expect(a).not.toBe(b);
    for (let i = 0; i < 5; i++) expect((await signInFrom('o@example.com', `wrong ${i} password`, a)).statusCode).toBe(401);
    expect((await signInFrom('o@example.com', PASSWORD, a)).statusCode).toBe(429);
    expect((await signInFrom('o@example.com', PASSWORD, b)).statusCode).toBe(200);
    // Those failures were this browser's: a new browser is not held back by them.
    expect((await signInFrom('o@example.com', PASSWORD)).statusCode).toBe(200);
  });

  it('sets a long-lived HttpOnly cookie, stores only its hash, and keeps a user’s 20 latest browsers', async () => {
    await setupOwner(t, 'o@example.com');
    const res = await signInFrom('o@example.com', PASSWORD);
    const cookie = res.cookies.find((c) => c.name === 'qrtrack_device') as {
      value: string;
      httpOnly?: boolean;
      sameSite?: string;
      maxAge?: number;
      path?: string;
    };
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 365 * 24 * 3600 });
    // setupOwner's sign-in trusted a browser too (the test's requests do not keep its cookie).
    const rows = await t.db.kysely.selectFrom('trusted_devices').select('token_hash').execute();
    expect(rows.map((r) => r.token_hash)).toContain(hashSecretToken(cookie.value));
    expect(rows).toHaveLength(2);
    for (let i = 0; i < 22; i++) await signInFrom('o@example.com', PASSWORD);
    expect(await t.db.kysely.selectFrom('trusted_devices').select('token_hash').execute()).toHaveLength(20);
  });

  async function inviteAndSignIn(email: string): Promise<string> {
    const owner = await signIn(t, 'o@example.com');
    const inv = await owner.request({ method: 'POST', url: '/v1/account/invites', payload: { role: 'viewer' } });
    const accepted = await t.request({
      method: 'POST',
      url: `/v1/invites/${(inv.json().url as string).split('/').pop()}/accept`,
      payload: { email, password: PASSWORD },
    });
    expect(accepted.statusCode, accepted.body).toBe(201);
    return deviceOf(accepted) as string;
  }
});
