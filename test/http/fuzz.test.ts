// Thousands of random and hostile requests: never a 5xx, always `{error}` on a 4xx,
// and nothing invalid stored.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defusedLogos, refusedLogos } from '../support/hostile-logos.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

// Seeded, so a failure reproduces; FUZZ_SEED explores other corners.
fc.configureGlobal({ seed: Number(process.env.FUZZ_SEED ?? 20_261_123) });

let t: TestApp;
let key: string;
let itemId: string;

beforeAll(async () => {
  t = await makeTestApp({ RATE_LIMIT_PER_MINUTE: '1000000', AUTH_FAILURES_PER_MINUTE: '1000000' });
  key = await t.key('fuzz');
  const res = await t.request({ method: 'POST', url: '/v1/qr', key, payload: { title: 'seed', url: 'https://a.example' } });
  itemId = res.json().item.id;
});
afterAll(() => t.close());

const hostileStrings = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '<script>alert(1)</script>',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' java\tscript:x',
    'data:text/html,x',
    "'; drop table qr_items; --",
    '%00',
    '../../etc/passwd',
    '{{7*7}}',
    '${7*7}',
    'x'.repeat(5000),
    '\uD800',
    '#fff',
    '#12345678',
    'https://example.com',
    'example.com',
    'file:///etc/passwd',
    'NaN',
    'Infinity',
    '-0',
    '1e309',
    'true',
    'null',
    '__proto__',
  ),
);
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileStrings,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
);
const FIELDS = [
  'title',
  'tracking',
  'contentType',
  'payload',
  'url',
  'wifiSsid',
  'wifiPass',
  'wifiEnc',
  'vcardFirstName',
  'vcardLastName',
  'vcardPhone',
  'vcardEmail',
  'vcardOrg',
  'vcardWeb',
  'waNumber',
  'waMessage',
  'text',
  'emailTo',
  'emailSubject',
  'emailBody',
  'dotsStyle',
  'cornerSquare',
  'cornerDot',
  'isGradient',
  'gradientType',
  'gradientRotation',
  'color1',
  'color2',
  'bgColor',
  'bgTransparent',
  'customEyeColors',
  'eyeColor',
  'presetLogo',
  'customLogoUrl',
  'logoSize',
  'logoMargin',
  'hideDotsBehindLogo',
  'frameStyle',
  'frameText',
  'frameColor',
  'frameTextColor',
  'errorCorrectionLevel',
  'resolution',
  'active',
  'design',
  '__proto__',
  'constructor',
];
const body = fc.oneof(
  fc.dictionary(fc.constantFrom(...FIELDS), anyValue, { maxKeys: 8 }),
  fc.record({ title: fc.string({ maxLength: 130 }), contentType: fc.constantFrom('url', 'wifi', 'vcard', 'whatsapp', 'text', 'email') }),
  anyValue,
);

function expectSane(res: { statusCode: number; body: string }): void {
  expect(res.statusCode, res.body).toBeLessThan(500);
  if (res.statusCode >= 400) {
    const parsed = JSON.parse(res.body);
    expect(Object.keys(parsed)).toEqual(['error']);
    expect(typeof parsed.error).toBe('string');
    expect(res.body).not.toMatch(/\bat .*\.ts:\d+/);
  }
}

async function storedItemsAreValid(): Promise<void> {
  const res = await t.request({ method: 'GET', url: '/v1/qr?limit=200', key });
  for (const item of res.json().items) {
    expect(item.title.length).toBeGreaterThan(0);
    expect([...item.title].length).toBeLessThanOrEqual(120);
    expect(item.payload.length).toBeLessThanOrEqual(4000);
    if (['url', 'whatsapp'].includes(item.contentType)) expect(item.payload).toMatch(/^https?:\/\//);
    if (item.contentType === 'email') expect(item.payload).toMatch(/^mailto:/);
    expect(item.design.logoSize).toBeGreaterThanOrEqual(0.1);
    expect(item.design.logoSize).toBeLessThanOrEqual(0.5);
    expect(item.design.color1).toMatch(/^#[0-9a-f]{6}([0-9a-f]{2})?$/);
  }
}

describe('fuzzing the API', () => {
  it('survives random create bodies', async () => {
    await fc.assert(
      fc.asyncProperty(body, async (b) =>
        expectSane(
          await t.request({
            method: 'POST',
            url: '/v1/qr',
            key,
            payload: JSON.stringify(b),
            headers: { 'content-type': 'application/json' },
          }),
        ),
      ),
      { numRuns: 1500 },
    );
    await storedItemsAreValid();
  });

  it('survives random update bodies', async () => {
    await fc.assert(
      fc.asyncProperty(body, async (b) =>
        expectSane(
          await t.request({
            method: 'PATCH',
            url: `/v1/qr/${itemId}`,
            key,
            payload: JSON.stringify(b),
            headers: { 'content-type': 'application/json' },
          }),
        ),
      ),
      { numRuns: 1500 },
    );
    await storedItemsAreValid();
  });

  it('survives random query strings on list and stats, and random ids', async () => {
    const qs = fc.dictionary(fc.constantFrom('limit', 'cursor', 'active', 'contentType', 'q', 'days', 'tz', 'x'), hostileStrings, {
      maxKeys: 4,
    });
    await fc.assert(
      fc.asyncProperty(qs, hostileStrings, async (q, id) => {
        const query = new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, v.toWellFormed()])).toString();
        expectSane(await t.request({ method: 'GET', url: `/v1/qr?${query}`, key }));
        expectSane(await t.request({ method: 'GET', url: `/v1/qr/${itemId}/stats?${query}`, key }));
        expectSane(await t.request({ method: 'GET', url: `/v1/qr/${encodeURIComponent(id.toWellFormed())}`, key }));
      }),
      { numRuns: 700 },
    );
  });

  it('survives random headers and raw bodies', async () => {
    const headers = fc.record({
      authorization: fc.oneof(
        hostileStrings,
        fc.constant(`Bearer ${'qrt_' + 'a'.repeat(40)}`),
        fc.string().map((s) => `Bearer ${s}`),
      ),
      'content-type': fc.oneof(
        fc.constantFrom('application/json', 'text/plain', 'application/xml', 'multipart/form-data', 'application/json; charset=utf-16'),
        fc.string({ maxLength: 30 }),
      ),
    });
    await fc.assert(
      fc.asyncProperty(headers, fc.string({ maxLength: 300 }), async (h, raw) => {
        const res = await t.request({ method: 'POST', url: '/v1/qr', payload: raw, headers: h as Record<string, string> });
        expectSane(res);
        const authed = await t.request({
          method: 'POST',
          url: '/v1/qr',
          key,
          payload: raw,
          headers: { 'content-type': h['content-type'] as string },
        });
        expectSane(authed);
      }),
      { numRuns: 700 },
    );
    await storedItemsAreValid();
  });

  it('survives deep nesting, huge arrays and broken text in every route that takes a body', async () => {
    const nest = (open: string, close: string, inner: string, depth: number) => open.repeat(depth) + inner + close.repeat(depth);
    const hostileBody = fc.oneof(
      fc.integer({ min: 1, max: 100_000 }).map((d) => nest('[', ']', '', d)),
      fc.integer({ min: 1, max: 100_000 }).map((d) => `{"title":"x","design":${nest('{"a":', '}', '1', d)}}`),
      fc.integer({ min: 1, max: 100_000 }).map((d) => `{"title":"x","url":${nest('[', ']', '"https://a.example"', d)}}`),
      fc.integer({ min: 0, max: 200_000 }).map((n) => `{"title":"x","url":[${Array(n).fill('1').join(',')}]}`),
      fc.integer({ min: 0, max: 100_000 }).map((n) => `[${Array(n).fill('{}').join(',')}]`),
      fc
        .constantFrom('\\ud800', '\\udfff', '\\ud83d', 'a\\udc00b', '\\u0000')
        .chain((bad) =>
          fc.constantFrom('title', 'url', 'text', 'frameText', 'payload', 'wifiSsid', 'q').map((f) => `{"title":"t","${f}":"${bad}"}`),
        ),
    );
    const route = fc.constantFrom<[string, () => string]>(
      ['POST', () => '/v1/qr'],
      ['PATCH', () => `/v1/qr/${itemId}`],
      ['POST', () => '/v1/qr/preview'],
    );
    const before = process.memoryUsage().rss;
    await fc.assert(
      fc.asyncProperty(route, hostileBody, async ([method, url], payload) => {
        const res = await t.request({
          method: method as 'POST' | 'PATCH',
          url: url(),
          key,
          payload,
          headers: { 'content-type': 'application/json' },
        });
        expectSane(res);
        expect(res.statusCode).toBeGreaterThanOrEqual(400);
      }),
      { numRuns: 300 },
    );
    await storedItemsAreValid();
    // The process stays well below a ceiling: nothing above is allowed to balloon memory.
    expect(process.memoryUsage().rss - before).toBeLessThan(1024 * 1024 * 1024);
  }, 180_000);

  it('answers 10,000 mixed requests in a row without a 5xx', async () => {
    const requests = fc.oneof(
      body.map((b) => ({ method: 'POST' as const, url: '/v1/qr', payload: JSON.stringify(b) })),
      body.map((b) => ({ method: 'PATCH' as const, url: `/v1/qr/${itemId}`, payload: JSON.stringify(b) })),
      hostileStrings.map((q) => ({ method: 'GET' as const, url: `/v1/qr?q=${encodeURIComponent(q.toWellFormed())}`, payload: undefined })),
      fc.constant({ method: 'GET' as const, url: `/v1/qr/${itemId}/stats?days=90`, payload: undefined }),
    );
    let count = 0;
    await fc.assert(
      fc.asyncProperty(requests, async (r) => {
        count++;
        const res = await t.request({ ...r, key, headers: r.payload === undefined ? {} : { 'content-type': 'application/json' } });
        expectSane(res);
      }),
      { numRuns: 10_000 },
    );
    expect(count).toBe(10_000);
    await storedItemsAreValid();
    // Ten thousand requests take a while on a loaded CI machine; the budget is for them all.
  }, 300_000);

  it('survives every hostile logo in any design position, size and route, and stores none', async () => {
    const logos = Object.values({ ...refusedLogos(), ...defusedLogos() });
    const design = fc.record({
      customLogoUrl: fc.constantFrom(...logos),
      logoSize: fc.constantFrom(0.1, 0.3, 0.5),
      errorCorrectionLevel: fc.constantFrom('L', 'M', 'Q', 'H'),
      frameStyle: fc.constantFrom('none', 'phone', 'badge'),
    });
    const request = fc.oneof(
      fc.tuple(design, fc.boolean()).map(([d, nested]) => ({
        method: 'POST' as const,
        url: '/v1/qr',
        payload: { title: 'logo', url: 'https://a.example', ...(nested ? { design: d } : d) },
      })),
      design.map((d) => ({ method: 'PATCH' as const, url: `/v1/qr/${itemId}`, payload: { design: d } })),
      fc.tuple(design, fc.constantFrom('svg', 'png'), fc.constantFrom(500, 1000, 2500)).map(([d, format, size]) => ({
        method: 'POST' as const,
        url: `/v1/qr/preview?format=${format}&size=${size}`,
        payload: { design: d },
      })),
    );
    const before = process.memoryUsage().rss;
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const res = await t.request({ ...r, key });
        expectSane(res);
      }),
      { numRuns: 120 },
    );
    const stored = (await t.request({ method: 'GET', url: '/v1/qr?limit=200', key })).json().items as {
      design: { customLogoUrl: string | null };
    }[];
    for (const item of stored)
      if (item.design.customLogoUrl !== null) expect(Object.values(refusedLogos())).not.toContain(item.design.customLogoUrl);
    expect(process.memoryUsage().rss - before).toBeLessThan(1024 * 1024 * 1024);
  }, 300_000);
});
