// API keys that expire and rotate (product-decisions §12): an expired key answers 401 saying
// so; a rotation shows the successor once and keeps the old key working for its grace period.
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACTIVE_KEYS_PER_ACCOUNT } from '../../src/domain/accounts/account-limits.ts';
import { type SignedIn, setupOwner } from '../support/sessions.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

let t: TestApp;
let owner: SignedIn;
beforeEach(async () => {
  t = await makeTestApp({ SIGNUP: 'open' });
  owner = await setupOwner(t, 'owner@example.com', 'Acme');
});
afterEach(() => t.close());

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface KeyView {
  id: string;
  name: string;
  scopes: string[];
  expiresAt: string | null;
  replacedBy: string | null;
  status: string;
}

async function createKey(payload: object = {}): Promise<{ key: KeyView; secret: string }> {
  const res = await owner.request({ method: 'POST', url: '/v1/account/keys', payload: { name: 'CI', scopes: ['qr:read'], ...payload } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
const listKeys = async (): Promise<KeyView[]> => (await owner.request({ method: 'GET', url: '/v1/account/keys' })).json().keys;
const useKey = (key: string) => t.request({ method: 'GET', url: '/v1/qr', key });
const rotate = (id: string, payload?: object) => owner.request({ method: 'POST', url: `/v1/account/keys/${id}/rotate`, payload });
/** Moves a key's end into the past, as if its time had come. */
const endNow = (id: string) =>
  t.db.kysely
    .updateTable('api_keys')
    .set({ expires_at: t.db.codec.time(new Date(Date.now() - 1000).toISOString()) })
    .where('id', '=', id)
    .execute();

describe('keys that expire', () => {
  it('takes an expiry at creation; the key works until then, and after it answers 401 saying it expired', async () => {
    const at = new Date(Date.now() + 30 * DAY);
    const { key, secret } = await createKey({ expiresAt: at.toISOString().replace('Z', '+00:00') });
    expect(key).toMatchObject({ expiresAt: at.toISOString(), status: 'active', replacedBy: null });
    expect((await useKey(secret)).statusCode).toBe(200);

    await endNow(key.id);
    const refused = await useKey(secret);
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(refused.json().error).toMatch(/^API key expired at \d{4}-\d\d-\d\dT/);
    expect((await listKeys())[0]?.status).toBe('expired');
  });

  it('keeps a key without an expiry working, and names a bad expiry', async () => {
    const { key, secret } = await createKey();
    expect(key.expiresAt).toBeNull();
    expect((await useKey(secret)).statusCode).toBe(200);
    const cases: Array<[unknown, string]> = [
      [new Date(Date.now() - HOUR).toISOString(), 'expiresAt: must be in the future'],
      ['next week', 'expiresAt: must be null or an ISO 8601 date-time with an offset, e.g. 2027-01-01T00:00:00Z'],
      [12, 'expiresAt: must be null or an ISO 8601 date-time with an offset, e.g. 2027-01-01T00:00:00Z'],
    ];
    for (const [expiresAt, error] of cases) {
      const res = await owner.request({ method: 'POST', url: '/v1/account/keys', payload: { name: 'k', scopes: ['qr:read'], expiresAt } });
      expect(res.statusCode, String(expiresAt)).toBe(400);
      expect(res.json()).toEqual({ error });
    }
  });

  it('does not count expired keys toward the active keys an account may hold', async () => {
    const ids: string[] = [];
    for (let i = 0; i < ACTIVE_KEYS_PER_ACCOUNT; i++) ids.push((await createKey()).key.id);
    const full = await owner.request({ method: 'POST', url: '/v1/account/keys', payload: { name: 'k', scopes: ['qr:read'] } });
    expect(full.statusCode).toBe(409);
    // A rotation replaces a key: it is allowed at the cap.
    expect((await rotate(ids[0] as string)).statusCode).toBe(201);
    await endNow(ids[1] as string);
    expect((await owner.request({ method: 'POST', url: '/v1/account/keys', payload: { name: 'k', scopes: ['qr:read'] } })).statusCode).toBe(
      201,
    );
  });
});

describe('key rotation', () => {
  it('shows the successor once, with the same name and scopes; the old key works for a day with Deprecation and Sunset headers', async () => {
    const { key: old, secret: oldSecret } = await createKey({ name: 'Website', scopes: ['qr:read', 'qr:write'] });
    const before = Date.now();
    const res = await rotate(old.id);
    expect(res.statusCode, res.body).toBe(201);
    const { key, secret, previous } = res.json() as { key: KeyView; secret: string; previous: KeyView };
    expect(secret).toMatch(/^qrt_[A-Za-z0-9]{40}$/);
    expect(secret).not.toBe(oldSecret);
    expect(key).toMatchObject({ name: 'Website', scopes: ['qr:read', 'qr:write'], status: 'active', expiresAt: null });
    expect(previous).toMatchObject({ id: old.id, status: 'rotated', replacedBy: key.id });
    const end = Date.parse(previous.expiresAt as string);
    expect(end).toBeGreaterThanOrEqual(before + DAY - 1000);
    expect(end).toBeLessThanOrEqual(Date.now() + DAY);

    const fresh = await useKey(secret);
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers.deprecation).toBeUndefined();
    const stale = await useKey(oldSecret);
    expect(stale.statusCode).toBe(200);
    expect(stale.headers.deprecation).toMatch(/^@\d+$/);
    expect(Date.parse(String(stale.headers.sunset))).toBe(Math.floor(end / 1000) * 1000);

    const list = await listKeys();
    expect(list.map((k) => [k.id, k.status])).toEqual([
      [old.id, 'rotated'],
      [key.id, 'active'],
    ]);
    // Never shown again, and only hashes are stored.
    expect(JSON.stringify(list)).not.toContain(secret);
    const rows = await t.db.kysely.selectFrom('api_keys').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(secret);
    expect(rows.map((r) => r.secret_hash)).toContain(createHash('sha256').update(secret).digest('hex'));

    // Once the grace period is over, the old key stops and says why.
    await endNow(old.id);
    const ended = await useKey(oldSecret);
    expect(ended.statusCode).toBe(401);
    expect(ended.json().error).toMatch(/^API key expired: it was rotated and its grace period ended at .*; use the key that replaced it$/);
    expect((await useKey(secret)).statusCode).toBe(200);
  });

  it('takes a grace period from 0 (the old key stops at once) to 7 days, and an expiry for the successor', async () => {
    const a = await createKey();
    const now = await rotate(a.key.id, { graceSeconds: 0 });
    expect(now.statusCode).toBe(201);
    expect((await useKey(a.secret)).statusCode).toBe(401);

    const b = await createKey();
    const successorEnd = new Date(Date.now() + 90 * DAY).toISOString();
    const week = await rotate(b.key.id, { graceSeconds: 7 * 86_400, expiresAt: successorEnd });
    expect(week.statusCode).toBe(201);
    expect(Date.parse(week.json().previous.expiresAt) - Date.now()).toBeGreaterThan(7 * DAY - 60_000);
    expect(week.json().key.expiresAt).toBe(successorEnd);

    const c = await createKey();
    for (const [payload, error] of [
      [{ graceSeconds: 7 * 86_400 + 1 }, 'graceSeconds: must be an integer from 0 to 604800 (7 days)'],
      [{ graceSeconds: -1 }, 'graceSeconds: must be an integer from 0 to 604800 (7 days)'],
      [{ expiresAt: new Date(Date.now() - HOUR).toISOString() }, 'expiresAt: must be in the future'],
    ] as const) {
      const res = await rotate(c.key.id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toEqual({ error });
    }
    expect((await listKeys()).find((k) => k.id === c.key.id)?.status).toBe('active');
  });

  it('never shortens a key that expires sooner than the grace period', async () => {
    const soon = new Date(Date.now() + HOUR).toISOString();
    const { key } = await createKey({ expiresAt: soon });
    const res = await rotate(key.id, { graceSeconds: 3 * 86_400 });
    expect(res.json().previous.expiresAt).toBe(soon);
  });

  it('refuses to rotate a key twice, a revoked or expired key (409), a missing or another account’s key (404)', async () => {
    const a = await createKey();
    expect((await rotate(a.key.id)).statusCode).toBe(201);
    const twice = await rotate(a.key.id);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error).toBe('key: was already rotated; rotate its successor instead');

    const b = await createKey();
    await owner.request({ method: 'DELETE', url: `/v1/account/keys/${b.key.id}` });
    expect((await rotate(b.key.id)).json()).toEqual({
      error: 'key: is revoked; only a working key can be rotated (create a new one instead)',
    });
    const c = await createKey();
    await endNow(c.key.id);
    expect((await rotate(c.key.id)).statusCode).toBe(409);

    expect((await rotate('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    const other = await t.request({
      method: 'POST',
      url: '/v1/signup',
      payload: { accountName: 'Beta', email: 'b@example.com', password: 'correct horse battery' },
    });
    const cookie = `qrtrack_session=${other.cookies.find((x) => x.name === 'qrtrack_session')?.value}`;
    const foreign = await t.app.inject({
      method: 'POST',
      url: `/v1/account/keys/${(await createKey()).key.id}/rotate`,
      headers: { cookie, 'x-csrf-token': other.json().csrfToken },
      payload: {},
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('makes one successor when two rotations of a key race', async () => {
    const { key } = await createKey();
    const answers = await Promise.all([rotate(key.id), rotate(key.id), rotate(key.id)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409]);
    expect(await listKeys()).toHaveLength(2);
  });

  it('is for owners with a session: an API key cannot rotate keys, not even itself', async () => {
    const { key, secret } = await createKey({ scopes: ['qr:read', 'qr:write'] });
    const res = await t.request({ method: 'POST', url: `/v1/account/keys/${key.id}/rotate`, key: secret, payload: {} });
    expect(res.statusCode).toBe(403);
    expect((await t.request({ method: 'POST', url: `/v1/account/keys/${key.id}/rotate`, payload: {} })).statusCode).toBe(401);
  });

  it('rotates with no body at all', async () => {
    const { key } = await createKey();
    const res = await owner.request({ method: 'POST', url: `/v1/account/keys/${key.id}/rotate` });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await t.request({ method: 'GET', url: '/v1/openapi.json' })).json();
    const op = doc.paths['/v1/account/keys/{id}/rotate'].post;
    expect(op.responses['201']).toBeDefined();
    expect(op.requestBody).toBeDefined();
  });
});
