// Per-address limits key an IPv6 address by its /64 (a host is handed 2^64 addresses), and an
// IPv4-mapped IPv6 address as its IPv4 address. Open sign-ups count only those that made an account.
import { afterEach, describe, expect, it } from 'vitest';
import { PASSWORD } from '../support/sessions.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';
import { SIGNUPS_PER_HOUR } from '../../src/http/routes/onboarding.ts';

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

describe('per-address limits and IPv6', () => {
  it('the request rate limit counts a whole /64 as one address, and ::ffff:a.b.c.d as a.b.c.d', async () => {
    t = await makeTestApp({ RATE_LIMIT_PER_MINUTE: '4' });
    const from = (remoteAddress: string) => t!.request({ method: 'GET', url: '/v1/instance', remoteAddress });
    for (let i = 1; i <= 4; i++) expect((await from(`2001:db8:0:1::${i}`)).statusCode).toBe(200);
    expect((await from('2001:db8:0:1:ffff:ffff:ffff:ffff')).statusCode).toBe(429);
    expect((await from('2001:db8:0:2::1')).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) expect((await from('198.51.100.20')).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) expect((await from('::ffff:198.51.100.20')).statusCode).toBe(200);
    expect((await from('198.51.100.20')).statusCode).toBe(429);
  });

  it('failed authentications from one /64 share one count', async () => {
    t = await makeTestApp({ AUTH_FAILURES_PER_MINUTE: '3' });
    const fresh = await t.key('fresh');
    const from = (remoteAddress: string, key: string) => t!.request({ method: 'GET', url: '/v1/qr', remoteAddress, key });
    for (let i = 1; i <= 3; i++) expect((await from(`2001:db8:0:1::${i}`, `qrt_${String(i).repeat(40)}`)).statusCode).toBe(401);
    expect((await from('2001:db8:0:1::99', fresh)).statusCode).toBe(429);
    expect((await from('2001:db8:0:2::1', fresh)).statusCode).toBe(200);
  });
});

describe('open sign-up limit', () => {
  const signUp = (i: number, remoteAddress: string, email = `s${i}@example.com`) =>
    t!.request({ method: 'POST', url: '/v1/signup', remoteAddress, payload: { accountName: `Shop ${i}`, email, password: PASSWORD } });

  it('counts only sign-ups that made an account: typos and taken names do not lock a person out', async () => {
    t = await makeTestApp({ SIGNUP: 'open' });
    expect((await signUp(0, '198.51.100.30')).statusCode).toBe(201);
    for (let i = 0; i < SIGNUPS_PER_HOUR + 5; i++) {
      const taken = await signUp(0, '198.51.100.30', `other${i}@example.com`);
      expect(taken.statusCode).toBe(409);
      const weak = await t.request({
        method: 'POST',
        url: '/v1/signup',
        remoteAddress: '198.51.100.30',
        payload: { accountName: `Weak ${i}`, email: `w${i}@example.com`, password: 'short' },
      });
      expect(weak.statusCode).toBe(400);
    }
    for (let i = 1; i < SIGNUPS_PER_HOUR; i++) expect((await signUp(i, '198.51.100.30')).statusCode).toBe(201);
    const limited = await signUp(99, '198.51.100.30');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toMatch(
      new RegExp(`^too many sign-ups from this address: ${SIGNUPS_PER_HOUR} an hour; try again in \\d+ min$`),
    );
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(60);
  });

  it('holds a whole IPv6 /64 to one count', async () => {
    t = await makeTestApp({ SIGNUP: 'open' });
    for (let i = 1; i <= SIGNUPS_PER_HOUR; i++) expect((await signUp(i, `2001:db8:0:7::${i}`)).statusCode).toBe(201);
    expect((await signUp(98, '2001:db8:0:7:1:2:3:4')).statusCode).toBe(429);
    expect((await signUp(99, '2001:db8:0:8::1')).statusCode).toBe(201);
  });
});
