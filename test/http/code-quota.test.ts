// The per-account code quota (MAX_CODES_PER_ACCOUNT): creates, batches and imports past it
// are refused with a 400 naming the limit, and nothing of a refused request is stored. One
// 12 MB import used to make a million codes and 1.4 GB of database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({ MAX_CODES_PER_ACCOUNT: '5' });
});
afterAll(() => t.close());

const create = (key: string, title: string) =>
  t.request({ method: 'POST', url: '/v1/qr', key, payload: { title, url: 'https://example.com/a' } });
const batch = (key: string, n: number) =>
  t.request({
    method: 'POST',
    url: '/v1/qr/batch',
    key,
    payload: { items: Array.from({ length: n }, (_, i) => ({ title: `B${i}`, url: 'https://example.com/b' })) },
  });
const importCsv = (key: string, n: number) =>
  t.request({
    method: 'POST',
    url: '/v1/qr/import',
    key,
    headers: { 'content-type': 'text/csv' },
    payload: ['title,url', ...Array.from({ length: n }, (_, i) => `I${i},https://example.com/i`)].join('\n'),
  });
const count = async (key: string) => (await t.request({ method: 'GET', url: '/v1/qr?limit=200', key })).json().items.length as number;

describe('code quota', () => {
  it('refuses a create, a batch and an import that would pass the quota, naming the limit, and stores nothing of them', async () => {
    const key = await t.key('quota');
    expect((await batch(key, 3)).statusCode).toBe(201);
    const overBatch = await batch(key, 3);
    expect(overBatch.statusCode).toBe(400);
    expect(overBatch.json().error).toBe(
      'codes: an account may hold at most 5 codes; it holds 3 and this request would add 3; delete codes first, or ask the operator to raise MAX_CODES_PER_ACCOUNT',
    );
    const overImport = await importCsv(key, 3);
    expect(overImport.statusCode).toBe(400);
    expect(overImport.json().error).toMatch(/^codes: an account may hold at most 5 codes; it holds 3 and this request would add 3;/);
    expect(await count(key)).toBe(3);
    expect((await importCsv(key, 2)).statusCode).toBe(201);
    const overCreate = await create(key, 'sixth');
    expect(overCreate.statusCode).toBe(400);
    expect(overCreate.json().error).toMatch(/^codes: an account may hold at most 5 codes; it holds 5 and this request would add 1;/);
    expect(await count(key)).toBe(5);
  });

  it('stores one of two batches sent at once that fit the quota only alone, and nothing of the other', async () => {
    // Both pass the early check; the second to be shown is refused by the count kept in its
    // transaction, and its rows (written hidden, on SQLite) are removed.
    const key = await t.key('quota-two-batches');
    const [a, b] = await Promise.all([batch(key, 3), batch(key, 3)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 400]);
    expect((a.statusCode === 400 ? a : b).json().error).toMatch(
      /^codes: an account may hold at most 5 codes; it holds 3 and this request would add 3;/,
    );
    expect(await count(key)).toBe(3);
    const accountId = await t.services.keys.ensureAccount('quota-two-batches');
    const rows = await t.db.kysely.selectFrom('qr_items').where('account_id', '=', accountId).select('id').execute();
    expect(rows).toHaveLength(3);
  });

  it('counts live codes: deleting one makes room for another', async () => {
    const key = await t.key('quota-delete');
    expect((await batch(key, 5)).statusCode).toBe(201);
    expect((await create(key, 'one too many')).statusCode).toBe(400);
    const [newest] = (await t.request({ method: 'GET', url: '/v1/qr?limit=1', key })).json().items;
    expect((await t.request({ method: 'DELETE', url: `/v1/qr/${newest.id}`, key })).statusCode).toBe(200);
    expect((await create(key, 'fits again')).statusCode).toBe(201);
  });

  it('holds for creates sent at once', async () => {
    const key = await t.key('quota-race');
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => create(key, `race ${i}`)));
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(5);
    expect(await count(key)).toBe(5);
  });

  it('answers a retried batch with its first answer, though the account is at its quota since', async () => {
    // The replay is looked up before the batch's work (the quota check among it), not after.
    const key = await t.key('quota-retry');
    const payload = { items: Array.from({ length: 5 }, (_, i) => ({ title: `R${i}`, url: 'https://example.com/r' })) };
    const headers = { 'idempotency-key': 'quota-retry-1' };
    const first = await t.request({ method: 'POST', url: '/v1/qr/batch', key, payload, headers });
    expect(first.statusCode, first.body).toBe(201);
    const again = await t.request({ method: 'POST', url: '/v1/qr/batch', key, payload, headers });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await count(key)).toBe(5);
    // The same key with another body is still refused.
    const other = await t.request({ method: 'POST', url: '/v1/qr/batch', key, payload: { items: payload.items.slice(1) }, headers });
    expect(other.statusCode).toBe(422);
  });

  it('is counted per account', async () => {
    expect((await batch(await t.key('quota-other'), 5)).statusCode).toBe(201);
  });
});
