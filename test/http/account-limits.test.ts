// Caps on what one account or user piles up, and a removed member's keys.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACTIVE_KEYS_PER_ACCOUNT, OPEN_INVITES_PER_ACCOUNT, SESSIONS_PER_USER } from '../../src/domain/accounts/account-limits.ts';
import { type SignedIn, inviteMember, setupOwner, signIn } from '../support/sessions.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

let t: TestApp;
let owner: SignedIn;
beforeEach(async () => {
  t = await makeTestApp();
  owner = await setupOwner(t, 'owner@example.com', 'Acme');
});
afterEach(() => t.close());

const newKey = (by: SignedIn) => by.request({ method: 'POST', url: '/v1/account/keys', payload: { name: 'k', scopes: ['qr:read'] } });

describe('caps per account and user', () => {
  it(`holds an account to ${ACTIVE_KEYS_PER_ACCOUNT} active keys (each has its own rate limit); revoking one makes room`, async () => {
    const ids: string[] = [];
    for (let i = 0; i < ACTIVE_KEYS_PER_ACCOUNT; i++) {
      const res = await newKey(owner);
      expect(res.statusCode).toBe(201);
      ids.push(res.json().key.id);
    }
    const refused = await newKey(owner);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe(
      `keys: an account may hold at most ${ACTIVE_KEYS_PER_ACCOUNT} active API keys; revoke one you no longer use first`,
    );
    expect((await owner.request({ method: 'DELETE', url: `/v1/account/keys/${ids[0]}` })).statusCode).toBe(200);
    expect((await newKey(owner)).statusCode).toBe(201);
  });

  it(`holds an account to ${OPEN_INVITES_PER_ACCOUNT} open invites`, async () => {
    for (let i = 0; i < OPEN_INVITES_PER_ACCOUNT; i++)
      expect((await owner.request({ method: 'POST', url: '/v1/account/invites', payload: { role: 'viewer' } })).statusCode).toBe(201);
    const refused = await owner.request({ method: 'POST', url: '/v1/account/invites', payload: { role: 'viewer' } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatch(/^invites: an account may hold at most \d+ open invites/);
  });

  it(`keeps a user's ${SESSIONS_PER_USER} newest sessions: one more sign-in ends the oldest`, async () => {
    const sessions: SignedIn[] = [owner];
    for (let i = 1; i < SESSIONS_PER_USER; i++) sessions.push(await signIn(t, 'owner@example.com'));
    for (const s of sessions) expect((await s.request({ method: 'GET', url: '/v1/session' })).statusCode).toBe(200);
    const newest = await signIn(t, 'owner@example.com');
    expect((await owner.request({ method: 'GET', url: '/v1/session' })).statusCode).toBe(401);
    for (const s of [...sessions.slice(1), newest]) expect((await s.request({ method: 'GET', url: '/v1/session' })).statusCode).toBe(200);
  });
});

describe('removing a member', () => {
  it('revokes the API keys they made, unless the owner keeps them; keys others made keep working', async () => {
    const co = await inviteMember(t, owner, 'co@example.com', 'owner');
    const theirs = (await newKey(co)).json().secret as string;
    const mine = (await newKey(owner)).json().secret as string;
    expect((await t.request({ method: 'GET', url: '/v1/qr', key: theirs })).statusCode).toBe(200);
    expect((await owner.request({ method: 'DELETE', url: `/v1/account/members/${co.userId}` })).statusCode).toBe(200);
    const revoked = await t.request({ method: 'GET', url: '/v1/qr', key: theirs });
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json().error).toBe('API key has been revoked');
    expect((await t.request({ method: 'GET', url: '/v1/qr', key: mine })).statusCode).toBe(200);

    const ed = await inviteMember(t, owner, 'ed@example.com', 'owner');
    const kept = (await newKey(ed)).json().secret as string;
    expect((await owner.request({ method: 'DELETE', url: `/v1/account/members/${ed.userId}?keepKeys=true` })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/v1/qr', key: kept })).statusCode).toBe(200);
  });
});
