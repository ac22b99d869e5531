// Requests an attacker (or a careless client) sends: absurdly deep JSON, key guessing,
// redirect loops through our own short links, and the small edges of ids, zones and text.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, MAX_JSON_VALUES } from '../../src/http/request/json-depth.ts';
import { PUBLIC_BASE_URL, type TestApp, makeTestApp } from '../support/test-app.ts';

let t: TestApp;
let key: string;
let itemId: string;

beforeAll(async () => {
  t = await makeTestApp({ RATE_LIMIT_PER_MINUTE: '1000000', AUTH_FAILURES_PER_MINUTE: '5' });
  key = await t.key('hostile');
  const res = await t.request({ method: 'POST', url: '/v1/qr', key, payload: { title: 'seed', url: 'https://a.example' } });
  itemId = res.json().item.id;
});
afterAll(() => t.close());

const json = { 'content-type': 'application/json' };
const nestedArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const nestedInDesign = (depth: number) =>
  `{"title":"x","url":"https://a.example","design":{"x":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}}`;

describe('deeply nested JSON', () => {
  const routes = () => [
    { method: 'POST' as const, url: '/v1/qr' },
    { method: 'PATCH' as const, url: `/v1/qr/${itemId}` },
    { method: 'POST' as const, url: '/v1/qr/preview' },
  ];

  it('answers 400 naming the limit for bodies nested 4,000 and 100,000 levels, on create, update and preview', async () => {
    for (const { method, url } of routes()) {
      for (const payload of [nestedArrays(4_000), nestedArrays(100_000), nestedInDesign(4_000), nestedInDesign(100_000)]) {
        const res = await t.request({ method, url, key, headers: json, payload });
        expect(res.statusCode, `${method} ${url}`).toBe(400);
        expect(res.json()).toEqual({ error: `body: must not nest deeper than ${MAX_JSON_DEPTH} levels` });
      }
    }
  });

  it('judges a body at the depth limit by its content, and one level more by its depth', async () => {
    // The root object is level 1 and "design" level 2: 30 more levels inside reach the limit exactly.
    const atLimit = await t.request({ method: 'POST', url: '/v1/qr', key, headers: json, payload: nestedInDesign(MAX_JSON_DEPTH - 2) });
    expect(atLimit.statusCode).toBe(400);
    expect(atLimit.json().error).toBe('design.x: is not a known field');
    const over = await t.request({ method: 'POST', url: '/v1/qr', key, headers: json, payload: nestedInDesign(MAX_JSON_DEPTH - 1) });
    expect(over.json().error).toBe(`body: must not nest deeper than ${MAX_JSON_DEPTH} levels`);
  });

  it('does not count brackets inside strings', async () => {
    const title = '['.repeat(100) + '{'.repeat(20);
    const res = await t.request({
      method: 'POST',
      url: '/v1/qr',
      key,
      headers: json,
      payload: JSON.stringify({ title: title.slice(0, 120), url: 'https://a.example' }),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().item.title).toBe(title.slice(0, 120));
  });
});

describe('prototype keys', () => {
  it('refuses __proto__ and constructor.prototype in valid JSON with a message that says so, not "not valid JSON"', async () => {
    for (const payload of [
      '{"title":"x","url":"https://e.com","__proto__":{"a":1}}',
      '{"title":"x","design":{"constructor":{"prototype":{}}}}',
    ]) {
      const res = await t.request({ method: 'POST', url: '/v1/qr', key, headers: json, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'body: a field named __proto__, or constructor holding prototype, is not allowed' });
    }
    const broken = await t.request({ method: 'POST', url: '/v1/qr', key, headers: json, payload: '{"__proto__":' });
    expect(broken.json()).toEqual({ error: 'body: is not valid JSON' });
  });
});

describe('bodies with many values', () => {
  it('refuses a body with more values than the route takes before parsing it, also without a key', async () => {
    // 520,000 zeros in a 1 MiB body held the thread answering short links for 0.3 s before.
    const zeros = JSON.stringify({ email: 'a@example.com', password: 'x', extra: Array(520_000).fill(0) });
    const res = await t.app.inject({ method: 'POST', url: '/v1/session', headers: json, payload: zeros });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: `body: must not hold more than ${MAX_JSON_VALUES} values (array elements and fields)` });
    // n tags count n + 3 (2 containers, 2 commas between the fields, n − 1 between the tags).
    // At the limit a body is judged by its content, one value more by its count.
    const tags = (n: number) =>
      JSON.stringify({ title: 'x', url: 'https://a.example', tags: Array.from({ length: n }, (_, i) => `t${i}`) });
    const atLimit = await t.request({ method: 'POST', url: '/v1/qr', key, headers: json, payload: tags(MAX_JSON_VALUES - 3) });
    expect(atLimit.json().error).toMatch(/^tags: /);
    const over = await t.request({ method: 'POST', url: '/v1/qr', key, headers: json, payload: tags(MAX_JSON_VALUES - 2) });
    expect(over.json().error).toMatch(/^body: must not hold more than/);
    // Commas inside strings are text, not values.
    const commas = await t.request({
      method: 'POST',
      url: '/v1/qr',
      key,
      headers: json,
      payload: JSON.stringify({ title: ',,,', contentType: 'text', text: ','.repeat(3_000) }),
    });
    expect(commas.statusCode, commas.body).toBe(201);
  });

  it('lets a batch hold a thousand full items, and no more values than that needs', async () => {
    const item = { title: 'x', url: 'https://a.example', tags: Array.from({ length: 20 }, (_, i) => `t${i}`) };
    const full = await t.request({
      method: 'POST',
      url: '/v1/qr/batch',
      key,
      headers: json,
      payload: JSON.stringify({ items: Array(1_000).fill(item) }),
    });
    expect(full.statusCode, full.body.slice(0, 200)).toBe(201);
    const bomb = await t.request({
      method: 'POST',
      url: '/v1/qr/batch',
      key,
      headers: json,
      payload: JSON.stringify({ items: [{ title: 'x', tags: Array(3_000_000).fill(0) }] }),
    });
    expect(bomb.statusCode).toBe(400);
    expect(bomb.json().error).toBe('body: must not hold more than 100000 values (array elements and fields)');
    // Values nested alone in arrays have no comma between them, but their arrays count.
    const chain = '['.repeat(28) + '0' + ']'.repeat(28);
    const nested = await t.request({
      method: 'POST',
      url: '/v1/qr/batch',
      key,
      headers: json,
      payload: `{"items":[${Array(10_000).fill(chain).join(',')}]}`,
    });
    expect(nested.statusCode).toBe(400);
    expect(nested.json().error).toBe('body: must not hold more than 100000 values (array elements and fields)');
  });
});

describe('failed authentication from one address', () => {
  it('is limited per address: past the limit a key not seen valid lately waits, other addresses are unaffected', async () => {
    const from = (remoteAddress: string, authorization?: string) =>
      t.app.inject({ method: 'GET', url: '/v1/qr', remoteAddress, headers: authorization ? { authorization } : {} });
    const guesses = ['Bearer qrt_' + 'a'.repeat(40), 'Bearer nope', undefined, 'Basic x', 'Bearer qrt_' + 'b'.repeat(40)];
    for (const g of guesses) expect((await from('203.0.113.7', g)).statusCode).toBe(401);
    const fresh = await t.key('fresh-key');
    const limited = await from('203.0.113.7', `Bearer ${fresh}`);
    expect(limited.statusCode).toBe(429);
    expect(Object.keys(limited.json())).toEqual(['error']);
    expect(limited.json().error).toMatch(/too many failed authentication attempts/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect((await from('203.0.113.8', `Bearer ${key}`)).statusCode).toBe(200);
    expect((await from('203.0.113.8', 'Bearer nope')).statusCode).toBe(401);
    // A key seen valid lately is no guess: it passes the wait (one client's wrong key behind a
    // shared address must not lock every good key out); a guess still waits.
    expect((await from('203.0.113.7', `Bearer ${key}`)).statusCode).toBe(200);
    expect((await from('203.0.113.7', 'Bearer qrt_' + 'c'.repeat(40))).statusCode).toBe(429);
  });

  it('counts guesses sent at once: lookups still running count as failures', async () => {
    // On PostgreSQL a key lookup is a round trip: 60 guesses sent together all passed the check
    // before the first had failed, and none got a 429.
    const guesses = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        t.app.inject({
          method: 'GET',
          url: '/v1/qr',
          remoteAddress: '203.0.113.50',
          headers: { authorization: `Bearer qrt_${String(i).padStart(40, '0')}` },
        }),
      ),
    );
    const codes = guesses.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(5);
    expect(codes.filter((c) => c === 429)).toHaveLength(55);
  });

  it('looks a valid key sent many times at once up once, so its requests are not held back', async () => {
    const all = await Promise.all(
      Array.from({ length: 40 }, () =>
        t.app.inject({ method: 'GET', url: '/v1/qr?limit=1', remoteAddress: '203.0.113.51', headers: { authorization: `Bearer ${key}` } }),
      ),
    );
    expect(all.map((r) => r.statusCode)).toEqual(Array(40).fill(200));
  });

  it('does not count successful requests', async () => {
    for (let i = 0; i < 20; i++) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/v1/qr?limit=1',
        remoteAddress: '198.51.100.1',
        headers: { authorization: `Bearer ${key}` },
      });
      expect(res.statusCode).toBe(200);
    }
  });
});

describe('redirects to our own short links', () => {
  const loops = [
    `${PUBLIC_BASE_URL}/r/AbCdE12`,
    `${PUBLIC_BASE_URL.replace('http:', 'https:')}/r/AbCdE12`,
    `${PUBLIC_BASE_URL.toUpperCase()}/r/AbCdE12?utm=1`,
    `${PUBLIC_BASE_URL}:8443/r/xyz`,
    `${PUBLIC_BASE_URL}/%72/AbCdE12`,
    'qr.test/r/AbCdE12',
    'http://qr.test./r/AbCdE12', // the fully qualified form reaches the same host
  ];

  it('refuses an item whose url is one of our short links, naming the field', async () => {
    for (const url of loops) {
      const res = await t.request({ method: 'POST', url: '/v1/qr', key, payload: { title: 'loop', url } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error).toMatch(/^url: must not point at a short link of this service/);
    }
    const raw = await t.request({ method: 'POST', url: '/v1/qr', key, payload: { title: 'loop', payload: loops[0] } });
    expect(raw.json().error).toMatch(/^payload: must not point at a short link/);
  });

  it('refuses an update that would make an item loop, and leaves it unchanged', async () => {
    const res = await t.request({ method: 'PATCH', url: `/v1/qr/${itemId}`, key, payload: { url: loops[0] } });
    expect(res.statusCode).toBe(400);
    expect((await t.request({ method: 'GET', url: `/v1/qr/${itemId}`, key })).json().item.payload).toBe('https://a.example/');
  });

  it('knows every loopback name for a service on localhost', async () => {
    const local = await makeTestApp({ PUBLIC_BASE_URL: 'http://localhost:3000' });
    try {
      const k = await local.key('loopback');
      for (const url of [
        'http://localhost./r/AbCdE12',
        'http://127.0.0.1:3000/r/AbCdE12',
        'http://127.1.2.3/r/AbCdE12',
        'http://[::1]:3000/r/AbCdE12',
        'http://0x7f000001/r/AbCdE12',
        'http://app.localhost/r/AbCdE12',
        'http://0/r/AbCdE12',
        'http://0.0.0.0:3000/r/AbCdE12',
        'http://[::]/r/AbCdE12',
        'http://[::ffff:127.0.0.1]/r/AbCdE12',
        'http://[0:0:0:0:0:0:0:1]/r/AbCdE12',
      ]) {
        const res = await local.request({ method: 'POST', url: '/v1/qr', key: k, payload: { title: 'loop', url } });
        expect(res.statusCode, url).toBe(400);
        expect(res.json().error, url).toMatch(/^url: must not point at a short link of this service/);
      }
      expect(
        (await local.request({ method: 'POST', url: '/v1/qr', key: k, payload: { title: 'fine', url: 'http://127.0.0.1:3000/docs' } }))
          .statusCode,
      ).toBe(201);
    } finally {
      await local.close();
    }
  });

  it('accepts other paths on our host and /r/ paths on other hosts', async () => {
    for (const url of [`${PUBLIC_BASE_URL}/docs`, 'https://other.example/r/AbCdE12', 'https://qr.test.example/r/AbCdE12']) {
      const res = await t.request({ method: 'POST', url: '/v1/qr', key, payload: { title: 'fine', url } });
      expect(res.statusCode, url).toBe(201);
    }
  });
});

describe('small edges', () => {
  it('finds an item by its id in upper case', async () => {
    const upper = itemId.toUpperCase();
    const res = await t.request({ method: 'GET', url: `/v1/qr/${upper}`, key });
    expect(res.statusCode).toBe(200);
    expect(res.json().item.id).toBe(itemId);
    expect((await t.request({ method: 'PATCH', url: `/v1/qr/${upper}`, key, payload: { title: 'renamed' } })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `/v1/qr/${upper}/stats`, key })).statusCode).toBe(200);
  });

  it('marks every JSON answer nosniff, errors included', async () => {
    for (const res of [
      await t.request({ method: 'GET', url: '/v1/qr', key }),
      await t.request({ method: 'GET', url: '/v1/qr' }),
      await t.request({ method: 'GET', url: '/v1/nothing', key }),
      await t.request({ method: 'POST', url: '/v1/qr', key, payload: { title: '' } }),
      await t.request({ method: 'GET', url: '/healthz' }),
    ]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('says what is wrong with empty preview data', async () => {
    const res = await t.request({ method: 'POST', url: '/v1/qr/preview', key, payload: { data: '' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('data: must be a string of 1 to 4000 characters');
  });

  it('names the size limit for an oversized logo', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/qr/preview',
      key,
      payload: { customLogoUrl: 'data:image/png;base64,' + 'A'.repeat(820_000) },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^customLogoUrl: .*at most 512 KiB/);
  });

  it('echoes a time zone in its proper spelling', async () => {
    for (const [given, echoed] of [
      ['utc', 'UTC'],
      ['europe/berlin', 'Europe/Berlin'],
      ['Asia/Kathmandu', 'Asia/Kathmandu'],
    ]) {
      const res = await t.request({ method: 'GET', url: `/v1/qr/${itemId}/stats?tz=${encodeURIComponent(given!)}`, key });
      expect(res.statusCode).toBe(200);
      expect(res.json().tz).toBe(echoed);
    }
  });

  it('refuses lone surrogates in any text field instead of storing U+FFFD', async () => {
    for (const [field, body] of [
      ['title', '{"title":"a\\ud800b","url":"https://a.example"}'],
      ['design.frameText', '{"title":"t","url":"https://a.example","design":{"frameText":"x\\udc00"}}'],
      ['frameText', '{"title":"t","url":"https://a.example","frameText":"\\udbff"}'],
    ] as const) {
      const res = await t.request({ method: 'POST', url: '/v1/qr', key, headers: json, payload: body });
      expect(res.statusCode, body).toBe(400);
      expect(res.json().error).toBe(`${field}: must be valid Unicode text without NUL characters`);
    }
    const paired = await t.request({
      method: 'POST',
      url: '/v1/qr',
      key,
      headers: json,
      payload: '{"title":"\\ud83d\\ude00","url":"https://a.example"}',
    });
    expect(paired.json().item.title).toBe('😀');
  });
});

describe('requests the HTTP parser refuses', () => {
  /** Sends raw bytes to the listening server and answers the status and body it writes. */
  async function raw(request: string): Promise<{ status: number; body: unknown }> {
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    const socket = net.connect(address.port, '127.0.0.1');
    socket.write(request);
    const chunks: Buffer[] = [];
    for await (const chunk of socket) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const [head, body] = text.split('\r\n\r\n', 2) as [string, string];
    expect(head).toMatch(/\r\ncontent-type: application\/json; charset=utf-8\r\n/i);
    return { status: Number(head.split(' ')[1]), body: JSON.parse(body) };
  }

  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  it('answers headers over 16 KiB with 431 and one error naming them, on the API and the short links', async () => {
    for (const path of [`/v1/qr?q=${'a'.repeat(20_000)}`, `/r/${'a'.repeat(20_000)}`, '/v1/qr']) {
      const extra = path === '/v1/qr' ? `X-Big: ${'b'.repeat(20_000)}\r\n` : '';
      const res = await raw(`GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n${extra}\r\n`);
      expect(res).toEqual({ status: 431, body: { error: 'headers: larger than 16 KiB in all (the URL counts too)' } });
    }
  });

  it('answers a Content-Length that is not a number with 400 naming it, and bytes that are not HTTP with 400', async () => {
    expect(await raw(`POST /v1/qr HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}`)).toEqual({
      status: 400,
      body: { error: 'Content-Length: is not a valid length' },
    });
    expect(await raw('NOT HTTP AT ALL\r\n\r\n')).toEqual({ status: 400, body: { error: 'request: is not valid HTTP' } });
  });
});

describe('bodies that are not UTF-8', () => {
  const bytes = (...parts: (string | number[])[]) =>
    Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));
  const count = async () => (await t.request({ method: 'GET', url: '/v1/qr?limit=100', key })).json().items.length as number;

  it('refuses invalid, overlong and surrogate UTF-8 with 400 naming the body, and stores nothing', async () => {
    const before = await count();
    for (const bad of [
      [0xff, 0xfe],
      [0xc0, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xe2, 0x82],
    ]) {
      const res = await t.request({
        method: 'POST',
        url: '/v1/qr',
        key,
        headers: json,
        payload: bytes('{"title":"', bad, '","url":"https://a.example"}'),
      });
      expect(res.statusCode, bad.join(' ')).toBe(400);
      expect(res.json()).toEqual({ error: 'body: is not valid UTF-8' });
    }
    const csv = await t.request({
      method: 'POST',
      url: '/v1/qr/import',
      key,
      headers: { 'content-type': 'text/csv' },
      payload: bytes('title,url\n', [0xff], ',https://a.example\n'),
    });
    expect(csv.statusCode).toBe(400);
    expect(csv.json()).toEqual({ error: 'body: is not valid UTF-8' });
    expect(await count()).toBe(before);
  });

  it('refuses a declared charset other than UTF-8 with 415, and takes UTF-8 declared or not, with or without a BOM', async () => {
    const body = bytes('{"title":"caf', [0xe9], '","url":"https://a.example"}');
    const latin1 = await t.request({
      method: 'POST',
      url: '/v1/qr',
      key,
      headers: { 'content-type': 'application/json; charset=iso-8859-1' },
      payload: body,
    });
    expect(latin1.statusCode).toBe(415);
    expect(latin1.json()).toEqual({ error: 'Content-Type: charset iso-8859-1 is not accepted; send UTF-8' });
    for (const [contentType, payload] of [
      ['application/json; charset=utf-8', bytes('{"title":"café","url":"https://a.example"}')],
      ['application/json; charset="UTF8"', bytes('{"title":"café","url":"https://a.example"}')],
      ['application/json', bytes([0xef, 0xbb, 0xbf], '{"title":"café","url":"https://a.example"}')],
    ] as const) {
      const res = await t.request({ method: 'POST', url: '/v1/qr', key, headers: { 'content-type': contentType }, payload });
      expect(res.statusCode, contentType).toBe(201);
      expect(res.json().item.title).toBe('café');
    }
  });
});

describe('query strings whose percent-encoding does not decode', () => {
  it('answers 400 naming the parameter, on every kind of route, before authentication', async () => {
    const cases: [string, string][] = [
      ['/v1/qr?q=%FF', 'q'], // a lone byte that is not UTF-8
      ['/v1/qr?q=%E2%82', 'q'], // a UTF-8 sequence cut short
      ['/v1/qr?q=a%2', 'q'], // a % without two hex digits
      ['/v1/qr?limit=10&tag=%zz', 'tag'],
      ['/v1/qr?a%ZZb=1', 'a%ZZb'], // the name itself
      [`/v1/qr/${'00000000-0000-4000-8000-000000000000'}/stats?days=%FF`, 'days'],
      ['/v1/qr/export.csv?q=%C0%AF', 'q'], // an overlong encoding of '/'
    ];
    for (const [url, name] of cases) {
      for (const withKey of [true, false]) {
        const res = await t.request({ method: 'GET', url, ...(withKey ? { key } : {}) });
        expect(res.statusCode, url).toBe(400);
        expect(res.json(), url).toEqual({
          error: expect.stringMatching(new RegExp(`^${name.replace(/[%]/g, '\\$&')}: is not valid percent-encoded UTF-8`)),
        });
      }
    }
  });

  it('still decodes valid percent-encoding and plus signs', async () => {
    await t.request({ method: 'POST', url: '/v1/qr', key, payload: { title: 'Quokka café menu', url: 'https://a.example/cafe' } });
    for (const q of ['Quokka+caf%C3%A9', 'quokka%20CAF%C3%A9+menu', 'Quokka%20caf%C3%A9%20menu']) {
      const res = await t.request({ method: 'GET', url: `/v1/qr?q=${q}`, key });
      expect(res.statusCode, q).toBe(200);
      expect(
        res.json().items.map((i: { title: string }) => i.title),
        q,
      ).toEqual(['Quokka café menu']);
    }
    // A literal percent sign, encoded, is a search for it.
    expect((await t.request({ method: 'GET', url: '/v1/qr?q=100%25', key })).statusCode).toBe(200);
  });
});
