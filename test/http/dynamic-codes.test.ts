// Dynamic codes through the API and the short link (docs/dynamic-codes.md): lifecycle fields
// and the status they give, the order the short link decides in, the scan cap under
// concurrency, rules and splits, query passthrough, passwords, and how each scan is attributed.
// Runs on SQLite and, with TEST_DATABASE_URL, on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, makeTestApp } from '../support/test-app.ts';
import { IOS_RULE_AND_ANDROID_SPLIT } from '../support/rule-fixtures.ts';

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await makeTestApp();
  key = await t.key('dynamic');
});
afterAll(() => t.close());

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';
const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

const hour = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

async function create(body: Record<string, unknown>) {
  const res = await t.request({
    method: 'POST',
    url: '/v1/qr',
    key,
    payload: { title: 'Dynamic', url: 'https://example.com/home', ...body },
  });
  return res;
}
async function created(body: Record<string, unknown>) {
  const res = await create(body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().item as { id: string; code: string; status: string; [k: string]: unknown };
}
const patch = (id: string, body: Record<string, unknown>) => t.request({ method: 'PATCH', url: `/v1/qr/${id}`, key, payload: body });
const read = async (id: string) => (await t.request({ method: 'GET', url: `/v1/qr/${id}`, key })).json().item;
const scan = (code: string, opts: { ua?: string; ip?: string; query?: string; headers?: Record<string, string> } = {}) =>
  t.request({
    method: 'GET',
    url: `/r/${code}${opts.query ? `?${opts.query}` : ''}`,
    headers: { 'user-agent': opts.ua ?? IPHONE, ...opts.headers },
    remoteAddress: opts.ip ?? '203.0.113.7',
  });
const stats = async (id: string) => (await t.request({ method: 'GET', url: `/v1/qr/${id}/stats`, key })).json();

describe('lifecycle fields', () => {
  it('stores and answers every field, with defaults, and null clears them', async () => {
    const plain = await created({});
    expect(plain).toMatchObject({
      status: 'active',
      activatesAt: null,
      expiresAt: null,
      maxScans: null,
      scanCapBasis: 'human',
      capCount: 0,
      fallbackUrls: {},
      rules: [],
      forwardQuery: true,
      utm: {},
      hasPassword: false,
    });
    const item = await created({
      activatesAt: '2030-01-01T10:00:00+02:00',
      expiresAt: '2031-01-01T00:00:00Z',
      maxScans: 500,
      scanCapBasis: 'unique',
      fallbackUrls: { expired: 'https://example.com/over' },
      utm: { source: 'poster', campaign: 'spring' },
      forwardQuery: false,
    });
    expect(item).toMatchObject({
      status: 'scheduled',
      activatesAt: '2030-01-01T08:00:00.000Z',
      expiresAt: '2031-01-01T00:00:00.000Z',
      maxScans: 500,
      scanCapBasis: 'unique',
      fallbackUrls: { expired: 'https://example.com/over' },
      utm: { source: 'poster', campaign: 'spring' },
      forwardQuery: false,
    });
    const cleared = await patch(item.id, { activatesAt: null, expiresAt: null, maxScans: null, fallbackUrls: null, utm: null });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().item).toMatchObject({
      status: 'active',
      activatesAt: null,
      expiresAt: null,
      maxScans: null,
      fallbackUrls: {},
      utm: {},
    });
  });

  it.each([
    [{ maxScans: 0 }, /^maxScans: /],
    [{ maxScans: 1.5 }, /^maxScans: /],
    [{ maxScans: 1_000_000_001 }, /^maxScans: /],
    [{ activatesAt: 'tomorrow' }, /^activatesAt: /],
    [{ activatesAt: '2030-01-02T00:00:00Z', expiresAt: '2030-01-01T00:00:00Z' }, /^expiresAt: must be after activatesAt/],
    [{ activatesAt: '2030-01-01T00:00:00Z', expiresAt: '2030-01-01T00:00:00Z' }, /^expiresAt: /],
    [{ scanCapBasis: 'bots' }, /^scanCapBasis: /],
    [{ fallbackUrls: { expired: 'javascript:alert(1)' } }, /^fallbackUrls\.expired: /],
    [{ fallbackUrls: { later: 'https://example.com' } }, /^fallbackUrls/],
    [{ password: 'short' }, /^password: /],
    [{ password: 'x'.repeat(129) }, /^password: /],
    [
      { rules: [{ conditions: [{ type: 'country', op: 'in', values: ['XX'] }], destination: 'https://example.com/x' }] },
      /^rules\[0\]\.conditions\[0\]\.values\[0\]: /,
    ],
    [{ contentType: 'text', text: 'hi', rules: [{ conditions: [], destination: 'https://example.com/x' }] }, /^rules: /],
  ])('refuses %j with a 400 naming the field', async (body, error) => {
    const res = await create(body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(error);
  });

  it('accepts the bounds: maxScans 1 and 1e9, a password of 8 and 128 characters', async () => {
    expect((await create({ maxScans: 1 })).statusCode).toBe(201);
    expect((await create({ maxScans: 1_000_000_000 })).statusCode).toBe(201);
    expect((await create({ password: '12345678' })).json().item.hasPassword).toBe(true);
    const long = await create({ password: 'p'.repeat(128) });
    expect(long.statusCode).toBe(201);
    expect(long.body).not.toContain('p'.repeat(128));
  });

  it('checks activatesAt < expiresAt against the stored value on PATCH', async () => {
    const item = await created({ expiresAt: '2030-01-01T00:00:00Z' });
    const res = await patch(item.id, { activatesAt: '2030-06-01T00:00:00Z' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^activatesAt: must be before expiresAt/);
  });
});

describe('the short link of a code with a lifecycle', () => {
  it('says when a scheduled code opens (404), or sends to its fallback', async () => {
    const item = await created({ activatesAt: iso(Date.now() + 48 * hour) });
    const res = await scan(item.code);
    expect(res.statusCode).toBe(404);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('This code opens on');
    expect(res.body).toContain('owner');
    await patch(item.id, { fallbackUrls: { scheduled: 'https://example.com/soon' } });
    const fallback = await scan(item.code);
    expect(fallback.statusCode).toBe(302);
    expect(fallback.headers.location).toBe('https://example.com/soon');
    expect((await read(item.id)).scanCount).toBe(0);
    expect((await stats(item.id)).blocked.scheduled).toBe(2);
  });

  it('answers 410 for an expired code, or its fallback, and lists it as expired', async () => {
    // Three seconds ahead: a loaded CI machine took more than one to create the code and scan it.
    const expiresAt = Date.now() + 3_000;
    const item = await created({ expiresAt: iso(expiresAt) });
    expect((await scan(item.code)).statusCode).toBe(302);
    await new Promise((r) => setTimeout(r, Math.max(0, expiresAt - Date.now()) + 100));
    const res = await scan(item.code);
    expect(res.statusCode).toBe(410);
    expect(res.body).toContain('This code expired on');
    expect((await read(item.id)).status).toBe('expired');
    const list = (await t.request({ method: 'GET', url: '/v1/qr?status=expired&limit=200', key })).json().items;
    expect(list.map((i: { id: string }) => i.id)).toContain(item.id);
    const active = (await t.request({ method: 'GET', url: '/v1/qr?status=active&limit=200', key })).json().items;
    expect(active.map((i: { id: string }) => i.id)).not.toContain(item.id);
    expect((await read(item.id)).scanCount).toBe(1);
  });

  it('a paused code is 404 whatever its lifecycle (precedence)', async () => {
    const item = await created({ expiresAt: iso(Date.now() - hour + 2 * hour), maxScans: 1 });
    await patch(item.id, { active: false });
    expect((await read(item.id)).status).toBe('paused');
    const res = await scan(item.code);
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('This QR code is paused');
  });

  it('never overshoots the cap: 100 parallel human scans on a cap of 10 get exactly 10 destinations', async () => {
    const item = await created({ maxScans: 10 });
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => scan(item.code, { ip: `198.51.100.${i + 1}` })));
    expect(answers.filter((r) => r.statusCode === 302)).toHaveLength(10);
    expect(answers.filter((r) => r.statusCode === 410)).toHaveLength(90);
    expect(answers.find((r) => r.statusCode === 410)?.body).toContain('scan limit');
    const after = await read(item.id);
    expect(after).toMatchObject({ status: 'capped', scanCount: 10, capCount: 10 });
    const list = (await t.request({ method: 'GET', url: '/v1/qr?status=capped&limit=200', key })).json().items;
    expect(list.map((i: { id: string }) => i.id)).toContain(item.id);
    expect((await stats(item.id)).blocked.capped).toBe(90);
    // Raising the cap reopens the code.
    expect((await patch(item.id, { maxScans: 11 })).json().item.status).toBe('active');
    expect((await scan(item.code)).statusCode).toBe(302);
    expect((await scan(item.code)).statusCode).toBe(410);
  });

  it('bots, HEAD and prefetches never use the cap', async () => {
    const item = await created({ maxScans: 1 });
    expect((await scan(item.code, { ua: 'Googlebot/2.1 (+http://www.google.com/bot.html)' })).statusCode).toBe(302);
    expect((await t.request({ method: 'HEAD', url: `/r/${item.code}` })).statusCode).toBe(302);
    expect((await scan(item.code, { headers: { 'sec-purpose': 'prefetch' } })).statusCode).toBe(302);
    expect((await read(item.id)).capCount).toBe(0);
    expect((await scan(item.code)).statusCode).toBe(302);
    expect((await scan(item.code, { ua: 'Googlebot/2.1 (+http://www.google.com/bot.html)' })).statusCode).toBe(410);
  });

  it('a unique cap lets an admitted visitor back in and counts people', async () => {
    const item = await created({ maxScans: 2, scanCapBasis: 'unique' });
    expect((await scan(item.code, { ip: '192.0.2.1' })).statusCode).toBe(302);
    expect((await scan(item.code, { ip: '192.0.2.1' })).statusCode).toBe(302);
    expect((await scan(item.code, { ip: '192.0.2.2' })).statusCode).toBe(302);
    expect((await scan(item.code, { ip: '192.0.2.3' })).statusCode).toBe(410);
    expect((await scan(item.code, { ip: '192.0.2.1' })).statusCode).toBe(302);
  });
});

describe('rules, splits and passthrough', () => {
  const rules = IOS_RULE_AND_ANDROID_SPLIT;

  it('sends each visitor by the first rule that matches, else the destination, and attributes the scans', async () => {
    const item = await created({ rules });
    expect((item.rules as { id: string }[]).every((r) => /^r_/.test(r.id))).toBe(true);
    expect((await scan(item.code, { ua: IPHONE })).headers.location).toBe('https://apps.example.com/ios');
    expect((await scan(item.code, { ua: DESKTOP })).headers.location).toBe('https://example.com/home');
    const seen = new Set<string>();
    for (let i = 0; i < 30; i++) seen.add(String((await scan(item.code, { ua: ANDROID, ip: `198.51.100.${i + 1}` })).headers.location));
    expect(seen).toEqual(new Set(['https://example.com/a', 'https://example.com/b']));
    // Sticky: the same visitor gets the same variant again.
    const first = (await scan(item.code, { ua: ANDROID, ip: '192.0.2.50' })).headers.location;
    for (let i = 0; i < 5; i++) expect((await scan(item.code, { ua: ANDROID, ip: '192.0.2.50' })).headers.location).toBe(first);

    const s = await stats(item.id);
    const [iphones, split] = item.rules as { id: string }[];
    expect(s.breakdown.rule).toEqual(
      expect.arrayContaining([
        { value: iphones!.id, scans: 1 },
        { value: split!.id, scans: 36 },
        { value: 'none', scans: 1 },
      ]),
    );
    const variants = s.breakdown.variant as { value: string; scans: number; uniqueScans: number }[];
    expect(variants.map((v) => v.value).sort()).toEqual([`${split!.id}#0`, `${split!.id}#1`]);
    expect(variants.reduce((n, v) => n + v.scans, 0)).toBe(36);
    expect(variants.reduce((n, v) => n + v.uniqueScans, 0)).toBe(31);
    expect(s.breakdown.destination.reduce((n: number, d: { scans: number }) => n + d.scans, 0)).toBe(38);
    expect(s.totals.scans).toBe(38);
  });

  it('PUT /rules replaces the list and rules/test answers without recording', async () => {
    const item = await created({});
    const put = await t.request({ method: 'PUT', url: `/v1/qr/${item.id}/rules`, key, payload: { rules } });
    expect(put.statusCode).toBe(200);
    expect(put.json().item.rules).toHaveLength(2);
    const tried = await t.request({
      method: 'POST',
      url: `/v1/qr/${item.id}/rules/test`,
      key,
      payload: { userAgent: IPHONE, query: { utm_source: 'x' } },
    });
    expect(tried.statusCode).toBe(200);
    expect(tried.json()).toMatchObject({ ruleName: 'iPhones', variant: null, destination: 'https://apps.example.com/ios?utm_source=x' });
    expect((await read(item.id)).scanCount).toBe(0);
    const bad = await t.request({
      method: 'PUT',
      url: `/v1/qr/${item.id}/rules`,
      key,
      payload: {
        rules: [
          {
            conditions: [],
            split: [
              { destination: 'https://example.com/a', weight: 60 },
              { destination: 'https://example.com/b', weight: 30 },
            ],
          },
        ],
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/^rules\[0\]\.split: /);
    const cleared = await t.request({ method: 'PUT', url: `/v1/qr/${item.id}/rules`, key, payload: { rules: [] } });
    expect(cleared.json().item.rules).toEqual([]);
    expect((await scan(item.code)).headers.location).toBe('https://example.com/home');
  });

  it("refuses bad bodies of the rules routes with a 400 naming the field, and another account's code with a 404", async () => {
    const item = await created({});
    const put = (payload: unknown, id = item.id) =>
      t.request({ method: 'PUT', url: `/v1/qr/${id}/rules`, key, payload: payload as object });
    const tryRules = (payload: unknown, id = item.id) =>
      t.request({ method: 'POST', url: `/v1/qr/${id}/rules/test`, key, payload: payload as object });
    expect((await put({})).json().error).toMatch(/^rules: /);
    expect(
      (await put({ rules: Array.from({ length: 26 }, () => ({ conditions: [], destination: 'https://example.com/x' })) })).statusCode,
    ).toBe(400);
    expect(
      (await put({ rules: [{ conditions: [{ type: 'os', op: 'in', values: ['amiga'] }], destination: 'https://example.com/x' }] })).json()
        .error,
    ).toMatch(/^rules\[0\]\.conditions\[0\]\.values\[0\]: /);
    expect((await tryRules({ at: 'soon' })).statusCode).toBe(400);
    expect((await tryRules({ unknown: 1 })).statusCode).toBe(400);
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    expect((await tryRules({ query: many })).statusCode).toBe(400);
    const other = await t.key('dynamic-other');
    const theirs = await t.request({ method: 'PUT', url: `/v1/qr/${item.id}/rules`, key: other, payload: { rules: [] } });
    expect(theirs.statusCode).toBe(404);
    const theirTest = await t.request({ method: 'POST', url: `/v1/qr/${item.id}/rules/test`, key: other, payload: {} });
    expect(theirTest.statusCode).toBe(404);
    expect((await tryRules({})).json()).toMatchObject({ ruleId: null, variant: null, destination: 'https://example.com/home' });
  });

  it('merges the visitor query onto the destination, adds utm, and never changes host or path', async () => {
    const item = await created({ url: 'https://example.com/land?ref=poster&a=1', utm: { campaign: 'spring' } });
    const res = await scan(item.code, { query: 'a=2&utm_source=flyer' });
    const location = new URL(String(res.headers.location));
    expect(location.origin + location.pathname).toBe('https://example.com/land');
    expect(location.searchParams.get('a')).toBe('2');
    expect(location.searchParams.get('ref')).toBe('poster');
    expect(location.searchParams.get('utm_source')).toBe('flyer');
    expect(location.searchParams.get('utm_campaign')).toBe('spring');
    for (const hostile of ['@evil.example/x', '%0d%0aSet-Cookie:x=1', 'next=//evil.example', '#frag', 'x=1#@evil.example']) {
      const r = await scan(item.code, { query: hostile });
      const u = new URL(String(r.headers.location));
      expect(u.host).toBe('example.com');
      expect(u.pathname).toBe('/land');
      expect(String(r.headers.location)).not.toMatch(/[\r\n]/);
    }
    const off = await created({ url: 'https://example.com/plain', forwardQuery: false });
    expect((await scan(off.code, { query: 'a=1' })).headers.location).toBe('https://example.com/plain');
  });
});

describe('passwords', () => {
  it('asks with a form, checks the password, sets a path-scoped cookie and counts the scan once', async () => {
    const item = await created({ password: 'correct horse' });
    expect(item.hasPassword).toBe(true);
    const form = await scan(item.code);
    expect(form.statusCode).toBe(200);
    expect(form.headers['cache-control']).toBe('no-store');
    expect(form.headers['x-robots-tag']).toBe('noindex');
    expect(form.headers['content-security-policy']).toContain("form-action 'self'");
    expect(form.body).toContain('<form');
    const wrong = await t.request({
      method: 'POST',
      url: `/r/${item.code}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': IPHONE },
      payload: 'password=nope',
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.body).toContain('not right');
    const right = await t.request({
      method: 'POST',
      url: `/r/${item.code}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': IPHONE },
      payload: `password=${encodeURIComponent('correct horse')}`,
    });
    expect(right.statusCode).toBe(303);
    expect(right.headers.location).toBe('https://example.com/home');
    const cookie = String(right.headers['set-cookie']);
    expect(cookie).toMatch(new RegExp(`^qrp_${item.code}=`));
    expect(cookie).toContain(`Path=/r/${item.code}`);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('Max-Age=43200');
    const again = await scan(item.code, { headers: { cookie: cookie.split(';')[0]! } });
    expect(again.statusCode).toBe(302);
    const forged = await scan(item.code, { headers: { cookie: `qrp_${item.code}=${Date.now() + 1000}.AAAA` } });
    expect(forged.statusCode).toBe(200);
    const header = await scan(item.code, { headers: { 'x-qr-password': 'correct horse' } });
    expect(header.statusCode).toBe(302);
    const after = await read(item.id);
    expect(after.scanCount).toBe(3);
    expect(JSON.stringify(after)).not.toContain('correct horse');
    const s = await stats(item.id);
    expect(s.blocked).toMatchObject({ passwordRequired: 2, passwordFailed: 1 });
    // A new password ends the old cookies.
    await patch(item.id, { password: 'another password' });
    expect((await scan(item.code, { headers: { cookie: cookie.split(';')[0]! } })).statusCode).toBe(200);
    await patch(item.id, { password: null });
    expect((await scan(item.code)).statusCode).toBe(302);
    // Only a protected code takes a form.
    const post = await t.request({
      method: 'POST',
      url: `/r/${item.code}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'password=x',
    });
    expect(post.statusCode).toBe(405);
  });

  it('answers 429 with Retry-After after 10 wrong tries per code and address', async () => {
    const item = await created({ password: 'correct horse' });
    const tryOnce = (ip: string) =>
      t.request({
        method: 'POST',
        url: `/r/${item.code}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'password=wrongwrong',
        remoteAddress: ip,
      });
    for (let i = 0; i < 10; i++) expect((await tryOnce('192.0.2.77')).statusCode).toBe(403);
    const limited = await tryOnce('192.0.2.77');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await tryOnce('192.0.2.78')).statusCode).toBe(403);
  });
});

describe('batch, import and export', () => {
  it('batch create takes the dynamic fields and hashes each password', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/qr/batch',
      key,
      payload: {
        items: [
          { title: 'B1', url: 'https://example.com/b1', maxScans: 3, password: 'batch password' },
          { title: 'B2', url: 'https://example.com/b2', maxScans: 0 },
        ],
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^items\[1\]\.maxScans: /);
    const ok = await t.request({
      method: 'POST',
      url: '/v1/qr/batch',
      key,
      payload: { items: [{ title: 'B1', url: 'https://example.com/b1', maxScans: 3, password: 'batch password' }] },
    });
    expect(ok.statusCode).toBe(201);
    const item = ok.json().items[0].item;
    expect(item).toMatchObject({ maxScans: 3, hasPassword: true });
    expect((await scan(item.code, { headers: { 'x-qr-password': 'batch password' } })).statusCode).toBe(302);
  });

  it('takes rules of 2,000 values in all and refuses 2,001 in a batch, storing nothing of it', async () => {
    // 25 rules × 10 query conditions × 8 values is the most; one more value is refused. A single
    // create cannot carry that many (its body holds at most 2,000 JSON values); a batch can.
    const rulesOf = (extra: number) =>
      Array.from({ length: 25 }, (_, r) => ({
        conditions: Array.from({ length: 10 }, (_, c) => ({
          type: 'query',
          op: 'in',
          key: `k${c}`,
          values: Array.from({ length: 8 + (r === 24 && c === 9 ? extra : 0) }, (_, v) => `${r}-${c}-${v}`),
        })),
        destination: `https://example.com/r${r}`,
      }));
    const batch = (items: Record<string, unknown>[]) => t.request({ method: 'POST', url: '/v1/qr/batch', key, payload: { items } });
    const ok = await batch([{ title: 'Most values', url: 'https://example.com/m', rules: rulesOf(0) }]);
    expect(ok.statusCode, ok.body).toBe(201);
    const item = ok.json().items[0].item;
    expect(item.rules).toHaveLength(25);
    const query = Array.from({ length: 10 }, (_, c) => `k${c}=24-${c}-7`).join('&');
    expect((await scan(item.code, { query })).headers.location).toBe(`https://example.com/r24?${query}`);
    const over = await batch([
      { title: 'Fine', url: 'https://example.com/f' },
      { title: 'Too many values', url: 'https://example.com/o', rules: rulesOf(1) },
    ]);
    expect(over.statusCode).toBe(400);
    expect(over.json().error).toBe('items[1].rules: at most 2000 condition values in all (got 2001)');
    const list = await t.request({ method: 'GET', url: '/v1/qr?q=Too%20many%20values', key });
    expect(list.json().items).toHaveLength(0);
  });

  it('takes rules of 100,000 characters of values and keys in all and refuses one more', async () => {
    // 10 rules of one query condition (key "k") with 50 values of 200 characters: 10 key
    // characters and 100,000 of values, less `short` taken off the last value.
    const rulesOf = (short: number) =>
      Array.from({ length: 10 }, (_, r) => ({
        conditions: [
          {
            type: 'query',
            op: 'in',
            key: 'k',
            values: Array.from({ length: 50 }, (_, v) => `${r}-${v}-`.padEnd(r === 9 && v === 49 ? 200 - short : 200, 'x')),
          },
        ],
        destination: `https://example.com/c${r}`,
      }));
    const item = await created({ title: 'Long values', rules: rulesOf(10) });
    const last = rulesOf(10)[9]!.conditions[0]!.values[49]!;
    const hit = await scan(item.code, { query: `k=${last}` });
    expect(hit.statusCode, hit.body).toBe(302);
    expect(hit.headers.location).toBe(`https://example.com/c9?k=${last}`);
    const over = await create({ title: 'Long values', rules: rulesOf(9) });
    expect(over.statusCode).toBe(400);
    expect(over.json().error).toBe('rules: at most 100000 characters of condition values and keys in all (got 100001)');
  });

  it('hashes a password shared by a batch once, and refuses more than 20 different ones', async () => {
    const shared = Array.from({ length: 30 }, (_, i) => ({ title: `S${i}`, url: 'https://example.com/s', password: 'one for all' }));
    expect((await t.request({ method: 'POST', url: '/v1/qr/batch', key, payload: { items: shared } })).statusCode).toBe(201);
    const many = Array.from({ length: 21 }, (_, i) => ({ title: `M${i}`, url: 'https://example.com/m', password: `password ${i}` }));
    const res = await t.request({ method: 'POST', url: '/v1/qr/batch', key, payload: { items: many } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^items\[20\]\.password: at most 20 different passwords in one request/);
  });

  it('imports lifecycle, rules and utm columns from CSV and exports them again', async () => {
    const own = await t.key('dynamic-import');
    const rules = JSON.stringify([
      { name: 'DE', conditions: [{ type: 'country', op: 'in', values: ['DE'] }], destination: 'https://example.de/' },
    ]);
    const csv = [
      'title,url,expiresAt,maxScans,rules,utm',
      `Imported,https://example.com/i,2031-01-01T00:00:00Z,7,"${rules.replaceAll('"', '""')}","{""campaign"":""csv""}"`,
    ].join('\n');
    const res = await t.request({ method: 'POST', url: '/v1/qr/import', key: own, headers: { 'content-type': 'text/csv' }, payload: csv });
    expect(res.statusCode, res.body).toBe(201);
    const [item] = (await t.request({ method: 'GET', url: '/v1/qr', key: own })).json().items;
    expect(item).toMatchObject({ expiresAt: '2031-01-01T00:00:00.000Z', maxScans: 7, utm: { campaign: 'csv' } });
    expect(item.rules[0]).toMatchObject({ name: 'DE', destination: 'https://example.de/' });
    const exported = (await t.request({ method: 'GET', url: '/v1/qr/export?format=csv', key: own })).body;
    expect(exported).toContain('2031-01-01T00:00:00.000Z');
    expect(exported).toContain('""campaign"":""csv""');
    const bad = await t.request({
      method: 'POST',
      url: '/v1/qr/import',
      key: own,
      headers: { 'content-type': 'text/csv' },
      payload: 'title,url,rules\nX,https://example.com/x,not json',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/^line 2: rules: /);
  });
});
