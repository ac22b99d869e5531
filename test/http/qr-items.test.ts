import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DESIGN } from '../../src/domain/design/design.ts';
import { LIST_PAGE_DESIGN_BYTES, QrItemsRepository } from '../../src/db/qr-items/qr-items-repository.ts';
import { type TestApp, PUBLIC_BASE_URL, makeTestApp } from '../support/test-app.ts';

let t: TestApp;
let key: string;

beforeAll(async () => {
  t = await makeTestApp();
  key = await t.key('acme');
});
afterAll(() => t.close());

const create = (body: unknown, k = key) => t.request({ method: 'POST', url: '/v1/qr', key: k, payload: body as object });
const patch = (id: string, body: unknown, k = key) => t.request({ method: 'PATCH', url: `/v1/qr/${id}`, key: k, payload: body as object });
const get = (url: string, k = key) => t.request({ method: 'GET', url, key: k });

async function created(body: object) {
  const res = await create(body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().item;
}

describe('creating QR items', () => {
  it('creates a url item with a short link, full default design and empty warnings', async () => {
    const res = await create({ title: 'Menu', url: 'https://example.com/menu' });
    expect(res.statusCode).toBe(201);
    const { item, warnings } = res.json();
    expect(warnings).toEqual([]);
    expect(item.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(item.code).toMatch(/^[A-Za-z0-9]{7}$/);
    expect(item.shortUrl).toBe(`${PUBLIC_BASE_URL}/r/${item.code}`);
    expect(item).toMatchObject({ title: 'Menu', contentType: 'url', payload: 'https://example.com/menu', active: true, scanCount: 0 });
    expect(item.design).toEqual(DEFAULT_DESIGN);
    expect(Object.keys(item.design)).toHaveLength(23);
    expect(new Date(item.createdAt).toISOString()).toBe(item.createdAt);
    expect(item.updatedAt).toBe(item.createdAt);
  });

  it('stores a risky design and says in plain sentences why phones may fail to scan it', async () => {
    const res = await create({ title: 'Risky', url: 'https://example.com', design: { color1: '#949494', cornerSquare: 'dot' } });
    expect(res.statusCode).toBe(201);
    expect(res.json().warnings).toEqual([
      expect.stringMatching(/^The code colour #949494 has a contrast of only 3\.0:1 against the background #ffffff/),
      expect.stringMatching(/^Circular corner squares \('dot'\) are harder for phone scanners to find/),
    ]);
    expect(res.json().item.design).toMatchObject({ color1: '#949494', cornerSquare: 'dot' });
  });

  it('assembles a payload for each of the six content kinds', async () => {
    const cases: [object, string | RegExp][] = [
      [{ contentType: 'url', url: 'example.com/x' }, 'https://example.com/x'],
      [{ contentType: 'wifi', wifiSsid: 'Cafe;1', wifiPass: 'p:ss', wifiEnc: 'WPA' }, 'WIFI:T:WPA;S:Cafe\\;1;P:p\\:ss;;'],
      [
        { contentType: 'vcard', vcardFirstName: 'Ada', vcardLastName: 'Lovelace', vcardPhone: '+44 1' },
        /^BEGIN:VCARD\r\nVERSION:3.0\r\n[\s\S]*FN:Ada Lovelace[\s\S]*END:VCARD/,
      ],
      [{ contentType: 'whatsapp', waNumber: '+49 (151) 234-5678', waMessage: 'Hi there' }, 'https://wa.me/491512345678?text=Hi%20there'],
      [{ contentType: 'text', text: 'Hello <world>' }, 'Hello <world>'],
      [{ contentType: 'email', emailTo: 'a@b.co', emailSubject: 'Hi & bye' }, /^mailto:a@b\.co\?subject=Hi%20%26%20bye/],
    ];
    for (const [body, expected] of cases) {
      const item = await created({ title: 'kind', ...body });
      if (typeof expected === 'string') expect(item.payload).toBe(expected);
      else expect(item.payload).toMatch(expected);
    }
  });

  it('uses a given payload as is and defaults contentType to url', async () => {
    const item = await created({ title: 'raw', payload: 'https://example.org/a?b=c' });
    expect(item.contentType).toBe('url');
    expect(item.payload).toBe('https://example.org/a?b=c');
    const text = await created({ title: 'raw text', contentType: 'text', payload: 'anything; at all' });
    expect(text.payload).toBe('anything; at all');
  });

  it('accepts a flat design, a nested design, and lets nested win for the same option', async () => {
    const flat = await created({ title: 'flat', url: 'https://a.example', dotsStyle: 'rounded', color1: '#ABC' });
    expect(flat.design).toMatchObject({ dotsStyle: 'rounded', color1: '#aabbcc' });
    const nested = await created({ title: 'nested', url: 'https://a.example', design: { cornerSquare: 'dot', resolution: 2500 } });
    expect(nested.design).toMatchObject({ cornerSquare: 'dot', resolution: 2500, dotsStyle: 'square' });
    const both = await created({
      title: 'both',
      url: 'https://a.example',
      dotsStyle: 'dots',
      logoSize: 0.2,
      design: { dotsStyle: 'classy' },
    });
    expect(both.design).toMatchObject({ dotsStyle: 'classy', logoSize: 0.2 });
  });

  it('accepts every design option at once', async () => {
    const design = {
      dotsStyle: 'classy-rounded',
      cornerSquare: 'extra-rounded',
      cornerDot: 'dot',
      isGradient: true,
      gradientType: 'radial',
      gradientRotation: 360,
      color1: '#112233',
      color2: '#445566ff',
      bgColor: '#fff',
      bgTransparent: true,
      customEyeColors: true,
      eyeColor: '#000',
      presetLogo: 'wifi',
      customLogoUrl: null,
      logoSize: 0.5,
      logoMargin: 100,
      hideDotsBehindLogo: false,
      frameStyle: 'badge',
      frameText: 'Scan for Wi-Fi',
      frameColor: '#123456',
      frameTextColor: '#fedcba',
      errorCorrectionLevel: 'H',
      resolution: 500,
    };
    const item = await created({ title: 'all', contentType: 'text', text: 'hi', design });
    expect(item.design).toEqual({ ...design, color2: '#445566ff', bgColor: '#ffffff', eyeColor: '#000000' });
  });

  it('answers 400 when tracking is false, and accepts tracking true', async () => {
    const res = await create({ title: 'x', url: 'https://a.example', tracking: false });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^tracking: /);
    expect((await create({ title: 'x', url: 'https://a.example', tracking: true })).statusCode).toBe(201);
  });
});

describe('validation of create', () => {
  const base = { title: 'v', url: 'https://a.example' };
  const bad: [string, object, RegExp][] = [
    ['missing title', { url: 'https://a.example' }, /^title: is required$/],
    ['title of 121 characters', { ...base, title: 'x'.repeat(121) }, /^title: .*120/],
    ['empty title', { ...base, title: '  ' }, /^title: /],
    ['title not a string', { ...base, title: 5 }, /^title: /],
    ['payload of 4001 characters', { title: 'p', contentType: 'text', payload: 'x'.repeat(4001) }, /^payload: .*4000/],
    ['unknown field', { ...base, colour1: '#000' }, /^colour1: is not a known field$/],
    ['unknown nested design field', { ...base, design: { dotStyle: 'dots' } }, /^design\.dotStyle: is not a known field$/],
    ['bad contentType', { ...base, contentType: 'sms' }, /^contentType: must be one of url, wifi/],
    ['bad dotsStyle', { ...base, dotsStyle: 'hearts' }, /^dotsStyle: must be one of/],
    ['bad cornerSquare', { ...base, cornerSquare: 'dots' }, /^cornerSquare: must be one of/],
    ['bad cornerDot', { ...base, design: { cornerDot: 'round' } }, /^design\.cornerDot: must be one of/],
    ['bad gradientType', { ...base, gradientType: 'conic' }, /^gradientType: /],
    ['bad frameStyle', { ...base, frameStyle: 'circle' }, /^frameStyle: /],
    ['bad errorCorrectionLevel', { ...base, errorCorrectionLevel: 'X' }, /^errorCorrectionLevel: /],
    ['bad presetLogo', { ...base, presetLogo: 'star' }, /^presetLogo: /],
    ['bad wifiEnc', { title: 'w', contentType: 'wifi', wifiSsid: 'n', wifiEnc: 'WPA3' }, /^wifiEnc: /],
    ['gradientRotation below 0', { ...base, gradientRotation: -0.1 }, /^gradientRotation: must be a number between 0 and 360$/],
    ['gradientRotation above 360', { ...base, gradientRotation: 360.5 }, /^gradientRotation: /],
    ['logoSize below 0.1', { ...base, logoSize: 0.09 }, /^logoSize: must be a number between 0.1 and 0.5$/],
    ['logoSize above 0.5', { ...base, design: { logoSize: 0.51 } }, /^design\.logoSize: /],
    ['logoMargin below 0', { ...base, logoMargin: -1 }, /^logoMargin: /],
    ['logoMargin above 100', { ...base, logoMargin: 101 }, /^logoMargin: /],
    ['resolution below 500', { ...base, resolution: 499 }, /^resolution: must be an integer between 500 and 2500$/],
    ['resolution above 2500', { ...base, resolution: 2501 }, /^resolution: /],
    ['resolution not an integer', { ...base, resolution: 1000.5 }, /^resolution: /],
    ['resolution as a string', { ...base, resolution: '1000' }, /^resolution: /],
    ['boolean as a string', { ...base, isGradient: 'true' }, /^isGradient: /],
    ['color name', { ...base, color1: 'red' }, /^color1: must be a hex color/],
    ['color with 5 digits', { ...base, bgColor: '#12345' }, /^bgColor: /],
    ['frameText of 65 characters', { ...base, frameText: 'x'.repeat(65) }, /^frameText: /],
    ['remote logo URL', { ...base, customLogoUrl: 'https://evil.example/logo.png' }, /^customLogoUrl: /],
    ['javascript url', { title: 'j', url: 'JaVaScRiPt:alert(1)' }, /^url: /],
    ['tab-disguised javascript url', { title: 'j', url: 'java\tscript:alert(1)' }, /^url: /],
    ['data url as payload', { title: 'j', payload: 'data:text/html,<script>alert(1)</script>' }, /^payload: /],
    ['missing wifiSsid', { title: 'w', contentType: 'wifi', wifiPass: 'x' }, /^wifiSsid: /],
    ['missing vcard name', { title: 'v', contentType: 'vcard', vcardPhone: '1' }, /vcard(First|Last)Name/],
    ['whatsapp number too short', { title: 'w', contentType: 'whatsapp', waNumber: '12345' }, /^waNumber: /],
    ['whatsapp number too long', { title: 'w', contentType: 'whatsapp', waNumber: '1234567890123456' }, /^waNumber: /],
    ['email without address', { title: 'e', contentType: 'email', emailTo: 'not-an-address' }, /^emailTo: /],
    ['missing text', { title: 't', contentType: 'text' }, /^text: /],
    ['missing url', { title: 'u' }, /^url: /],
    ['body is an array', [1, 2], /^body: /],
  ];
  for (const [name, body, message] of bad) {
    it(`answers 400 naming the field for ${name}, and stores nothing`, async () => {
      const before = (await get('/v1/qr?limit=200')).json().items.length;
      const res = await create(body);
      expect(res.statusCode, res.body).toBe(400);
      expect(Object.keys(res.json())).toEqual(['error']);
      expect(res.json().error).toMatch(message);
      expect((await get('/v1/qr?limit=200')).json().items.length).toBe(before);
    });
  }

  it('accepts every bound exactly', async () => {
    for (const body of [
      { title: 'x'.repeat(120), gradientRotation: 0, logoSize: 0.1, resolution: 500, logoMargin: 0 },
      { title: 'b', gradientRotation: 360, logoSize: 0.5, resolution: 2500, logoMargin: 100, frameText: 'x'.repeat(64) },
    ]) {
      expect((await create({ url: 'https://a.example', ...body })).statusCode).toBe(201);
    }
    const long = await created({ title: 'p', contentType: 'text', payload: 'y'.repeat(4000) });
    expect(long.payload).toHaveLength(4000);
  });

  it('answers 415 for a non-JSON body, 400 for broken JSON, 413 above 1 MiB', async () => {
    const text = await t.request({ method: 'POST', url: '/v1/qr', key, payload: 'title=x', headers: { 'content-type': 'text/plain' } });
    expect(text.statusCode).toBe(415);
    expect(text.json().error).toMatch(/Content-Type/);
    const form = await t.request({
      method: 'POST',
      url: '/v1/qr',
      key,
      payload: 'title=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.statusCode).toBe(415);
    const broken = await t.request({
      method: 'POST',
      url: '/v1/qr',
      key,
      payload: '{"title":',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual({ error: 'body: is not valid JSON' });
    const huge = await create({ title: 'big', contentType: 'text', text: 'x'.repeat(1024 * 1024) });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toEqual({ error: 'body: must be at most 1 MiB' });
    const none = await t.request({ method: 'POST', url: '/v1/qr', key });
    expect(none.statusCode).toBe(400);
    expect(none.json().error).toMatch(/^body: /);
    const empty = await t.request({ method: 'POST', url: '/v1/qr', key, payload: '', headers: { 'content-type': 'application/json' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe('body: must be a JSON object');
  });
});

describe('authentication and scopes', () => {
  it('answers 401 with WWW-Authenticate for a missing, malformed, unknown or revoked key', async () => {
    const headersList = [
      {},
      { authorization: 'Basic abc' },
      { authorization: 'Bearer' },
      { authorization: 'Bearer qrt_' + 'x'.repeat(40) },
      { authorization: 'Bearer nope' },
    ];
    for (const headers of headersList) {
      const res = await t.request({ method: 'GET', url: '/v1/qr', headers });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(Object.keys(res.json())).toEqual(['error']);
    }
    const k = await t.key('revokers');
    expect((await get('/v1/qr', k)).statusCode).toBe(200);
    const list = await t.services.keys.listKeys((await t.services.keys.findAccountId('revokers'))!);
    await t.services.keys.revokeKey(list[0]!.id);
    const res = await get('/v1/qr', k);
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toMatch(/revoked/);
  });

  it('answers 403 insufficient scope for a read-only key on every write, before validation and existence', async () => {
    const reader = await t.key('acme', 'qr:read');
    const res = await create({ title: 'x', url: 'https://a.example' }, reader);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'insufficient scope: requires qr:write' });
    expect((await create({ nonsense: true }, reader)).statusCode).toBe(403);
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await patch(missing, { active: false }, reader)).statusCode).toBe(403);
    expect((await t.request({ method: 'DELETE', url: `/v1/qr/${missing}`, key: reader })).statusCode).toBe(403);
    expect((await get('/v1/qr', reader)).statusCode).toBe(200);
  });

  it('answers 403 for a write-only key on reads', async () => {
    const writer = await t.key('acme', 'qr:write');
    const res = await get('/v1/qr', writer);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'insufficient scope: requires qr:read' });
    expect((await create({ title: 'w', url: 'https://a.example' }, writer)).statusCode).toBe(201);
  });

  it('records lastUsedAt for a key', async () => {
    const k = await t.key('lastused');
    await get('/v1/qr', k);
    await new Promise((r) => setTimeout(r, 50));
    const [rec] = await t.services.keys.listKeys((await t.services.keys.findAccountId('lastused'))!);
    expect(rec?.lastUsedAt).not.toBeNull();
  });

  it('keeps accounts apart: another account’s item is a 404 everywhere', async () => {
    const item = await created({ title: 'mine', url: 'https://a.example' });
    const other = await t.key('other-co');
    expect((await get(`/v1/qr/${item.id}`, other)).statusCode).toBe(404);
    expect((await patch(item.id, { title: 'stolen' }, other)).statusCode).toBe(404);
    expect((await t.request({ method: 'DELETE', url: `/v1/qr/${item.id}`, key: other })).statusCode).toBe(404);
    expect((await get(`/v1/qr/${item.id}/stats`, other)).statusCode).toBe(404);
    expect((await get('/v1/qr', other)).json().items.map((i: { id: string }) => i.id)).not.toContain(item.id);
    expect((await get(`/v1/qr/${item.id}`)).json().item.title).toBe('mine');
  });
});

describe('reading, listing and paging', () => {
  it('reads one item, and answers 404 for a missing id and 400 for a non-uuid id', async () => {
    const item = await created({ title: 'one', url: 'https://a.example' });
    const res = await get(`/v1/qr/${item.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().item).toEqual(item);
    const missing = await get('/v1/qr/00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(Object.keys(missing.json())).toEqual(['error']);
    const bad = await get('/v1/qr/not-a-uuid');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('id: must be a UUID');
  });

  it('lists newest first and pages with an opaque cursor until nextCursor is null', async () => {
    const k = await t.key('pager');
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await create({ title: `page ${i}`, url: `https://a.example/${i}` }, k);
      ids.push(res.json().item.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await get(`/v1/qr?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, k);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      seen.push(...body.items.map((i: { id: string }) => i.id));
      cursor = body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
  });

  it('cuts a page whose designs carry large logos short of the limit, and the cursor goes on from there', async () => {
    // 200 codes with 660 KB logos made a 135 MB answer; a page now holds at most
    // LIST_PAGE_DESIGN_BYTES of designs. Stored directly: the list does not parse logos.
    const k = await t.key('heavy');
    const accountId = await t.services.keys.ensureAccount('heavy');
    const logo = `data:image/png;base64,${'A'.repeat(600_000)}`;
    const repo = new QrItemsRepository(t.db);
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const design = { ...DEFAULT_DESIGN, customLogoUrl: i % 10 === 9 ? null : logo };
      ids.push(
        (await repo.create(accountId, { title: `heavy ${i}`, contentType: 'url', payload: `https://a.example/${i}`, fields: {}, design }))
          .id,
      );
    }
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 10; pages++) {
      const res = await get(`/v1/qr?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, k);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      seen.push(...body.items.map((i: { id: string }) => i.id));
      sizes.push(body.items.length);
      expect(res.body.length).toBeLessThan(LIST_PAGE_DESIGN_BYTES + 700_000);
      cursor = body.nextCursor;
      if (cursor === null) break;
    }
    expect(seen).toEqual([...ids].reverse());
    // 4 MiB hold 6 such designs (and the plain ones between them).
    expect(sizes[0]).toBeLessThan(10);
    expect(sizes.length).toBeGreaterThanOrEqual(4);
    const [plain, heavy] = (await get('/v1/qr?limit=2', k)).json().items;
    expect([plain.design.customLogoUrl, heavy.design.customLogoUrl]).toEqual([null, logo]);
  });

  it('filters by active, contentType and a case-insensitive q over title and payload', async () => {
    const k = await t.key('filters');
    const a = (await create({ title: 'Summer Menu', url: 'https://food.example/menu' }, k)).json().item;
    const b = (await create({ title: 'Guest wifi', contentType: 'wifi', wifiSsid: 'Lobby' }, k)).json().item;
    await patch(b.id, { active: false }, k);
    const titles = async (qs: string) => (await get(`/v1/qr?${qs}`, k)).json().items.map((i: { title: string }) => i.title);
    expect(await titles('active=false')).toEqual(['Guest wifi']);
    expect(await titles('active=true')).toEqual(['Summer Menu']);
    expect(await titles('contentType=wifi')).toEqual(['Guest wifi']);
    expect(await titles('q=summer')).toEqual(['Summer Menu']);
    expect(await titles('q=FOOD.EXAMPLE')).toEqual(['Summer Menu']);
    expect(await titles('q=lobby')).toEqual(['Guest wifi']);
    expect(await titles('q=%25')).toEqual([]);
    expect(await titles('q=_')).toEqual([]);
    expect(a.id).toBeDefined();
  });

  it('answers 400 for bad list parameters', async () => {
    for (const [qs, field] of [
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=1.5', 'limit'],
      ['active=yes', 'active'],
      ['contentType=sms', 'contentType'],
      ['cursor=garbage', 'cursor'],
      ['sort=asc', 'sort'],
    ]) {
      const res = await get(`/v1/qr?${qs}`);
      expect(res.statusCode, qs).toBe(400);
      expect(res.json().error.startsWith(`${field}: `), res.json().error).toBe(true);
    }
    expect((await get('/v1/qr?limit=1')).statusCode).toBe(200);
    expect((await get('/v1/qr?limit=200')).statusCode).toBe(200);
  });
});

describe('updating, pausing, resuming and deleting', () => {
  it('updates only what is given; title is optional; design merges', async () => {
    const item = await created({ title: 'orig', url: 'https://a.example', dotsStyle: 'dots', color1: '#111111' });
    const res = await patch(item.id, { color1: '#222222' });
    expect(res.statusCode).toBe(200);
    const updated = res.json().item;
    expect(updated.title).toBe('orig');
    expect(updated.design).toMatchObject({ dotsStyle: 'dots', color1: '#222222' });
    expect(updated.code).toBe(item.code);
    // The merged design still has round dots, which the camera test finds risky.
    expect(res.json().warnings).toEqual([expect.stringMatching(/^Round dots \('dots'\)/)]);
    const calmer = await patch(item.id, { dotsStyle: 'rounded' });
    expect(calmer.json().warnings).toEqual([]);
    expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(item.updatedAt));
  });

  it('recomputes the payload when typed fields change, and needs content when the kind changes', async () => {
    const item = await created({ title: 'wifi', contentType: 'wifi', wifiSsid: 'Home', wifiPass: 'old' });
    const res = await patch(item.id, { wifiPass: 'new' });
    expect(res.json().item.payload).toBe('WIFI:T:WPA;S:Home;P:new;;');
    const noContent = await patch(item.id, { contentType: 'text' });
    expect(noContent.statusCode).toBe(400);
    expect(noContent.json().error).toMatch(/^contentType: /);
    const toText = await patch(item.id, { contentType: 'text', text: 'now text' });
    expect(toText.json().item).toMatchObject({ contentType: 'text', payload: 'now text' });
  });

  it('pauses with only active:false, resumes with active:true, and rejects tracking:false', async () => {
    const item = await created({ title: 'p', url: 'https://a.example' });
    const paused = await patch(item.id, { active: false });
    expect(paused.statusCode).toBe(200);
    expect(paused.json().item.active).toBe(false);
    expect((await patch(item.id, { active: true })).json().item.active).toBe(true);
    const off = await patch(item.id, { tracking: false });
    expect(off.statusCode).toBe(400);
    expect(off.json().error).toMatch(/^tracking: /);
  });

  it('validates PATCH bodies like create', async () => {
    const item = await created({ title: 'v', url: 'https://a.example' });
    for (const [body, msg] of [
      [{ title: 'x'.repeat(121) }, /^title: /],
      [{ active: 'no' }, /^active: /],
      [{ logoSize: 0.6 }, /^logoSize: /],
      [{ url: 'javascript:alert(1)' }, /^url: /],
      [{ unknown: 1 }, /^unknown: is not a known field/],
    ] as const) {
      const res = await patch(item.id, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(msg);
    }
    expect((await get(`/v1/qr/${item.id}`)).json().item).toEqual(item);
    expect((await patch('00000000-0000-4000-8000-000000000000', { title: 'x' })).statusCode).toBe(404);
  });

  it('deletes: ok:true, then 404 for read, update, delete and stats', async () => {
    const item = await created({ title: 'gone', url: 'https://a.example' });
    // Generated clients often send Content-Type: application/json with an empty DELETE body.
    const res = await t.request({
      method: 'DELETE',
      url: `/v1/qr/${item.id}`,
      key,
      payload: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect((await get(`/v1/qr/${item.id}`)).statusCode).toBe(404);
    expect((await patch(item.id, { title: 'back' })).statusCode).toBe(404);
    expect((await t.request({ method: 'DELETE', url: `/v1/qr/${item.id}`, key })).statusCode).toBe(404);
    expect((await get(`/v1/qr/${item.id}/stats`)).statusCode).toBe(404);
    expect((await get('/v1/qr?limit=200')).json().items.map((i: { id: string }) => i.id)).not.toContain(item.id);
    // The code stays reserved: the row keeps it, so the unique index refuses it to anyone else.
    expect(await t.services.items.findByCode(item.code)).toMatchObject({ deleted: true });
  });
});

describe('changes sent at once to one code', () => {
  // Each PATCH reads the item, merges, and writes the whole design back: unlocked, all answered
  // 200 but most changes were lost (PostgreSQL; on SQLite when one carried a logo).
  const logo = `data:image/png;base64,${'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='}`;
  const patches: Record<string, unknown>[] = [
    { dotsStyle: 'rounded' },
    { cornerSquare: 'dot' },
    { cornerDot: 'dot' },
    { color1: '#112233' },
    { bgColor: '#fefefe' },
    { eyeColor: '#334455' },
    { customEyeColors: true },
    { frameStyle: 'badge' },
    { frameText: 'Hello' },
    { frameColor: '#445566' },
    { errorCorrectionLevel: 'H' },
    { resolution: 1200 },
    { logoSize: 0.3 },
    { hideDotsBehindLogo: false },
    { customLogoUrl: logo },
  ];

  it('keeps every one of them', async () => {
    const { id } = await created({ title: 'Race', url: 'https://example.com/race' });
    const answers = await Promise.all(patches.map((p) => patch(id, p)));
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    const design = (await get(`/v1/qr/${id}`)).json().item.design;
    for (const p of patches) {
      const [field, value] = Object.entries(p)[0] as [string, unknown];
      if (field === 'customLogoUrl') expect(design.customLogoUrl, field).toMatch(/^data:image\/png;base64,/);
      else expect(design[field], field).toBe(value);
    }
  });

  it('keeps both fields of one kind: wifiSsid and wifiPass', async () => {
    const { id } = await created({ title: 'Wi-Fi', contentType: 'wifi', wifiSsid: 'Old', wifiPass: 'oldpass' });
    await Promise.all([patch(id, { wifiSsid: 'NewSsid' }), patch(id, { wifiPass: 'newpass' })]);
    const { payload } = (await get(`/v1/qr/${id}`)).json().item;
    expect(payload).toContain('S:NewSsid;');
    expect(payload).toContain('P:newpass;');
  });
});

describe('the rest of the surface', () => {
  it('answers /healthz, the OpenAPI 3.1 document and the docs page', async () => {
    expect((await t.request({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    const doc = (await t.request({ method: 'GET', url: '/v1/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/qr', '/v1/qr/{id}', '/v1/qr/{id}/stats']));
    expect(doc.components.schemas.CreateQrRequest.properties.logoSize).toMatchObject({ minimum: 0.1, maximum: 0.5 });
    const docs = await t.request({ method: 'GET', url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.body).not.toMatch(/https?:\/\/(cdn|unpkg|jsdelivr)/);
  });

  it('answers unknown API routes with a JSON 404', async () => {
    const res = await get('/v1/nothing-here');
    expect(res.statusCode).toBe(404);
    expect(Object.keys(res.json())).toEqual(['error']);
  });
});

describe('characters no database can store', () => {
  it('answers 400 for NUL in a body field, a nested field or a query parameter', async () => {
    const body = await create({ title: 'a\u0000b', url: 'https://a.example' });
    expect(body.statusCode).toBe(400);
    expect(body.json().error).toBe('title: must be valid Unicode text without NUL characters');
    const nested = await create({ title: 'n', url: 'https://a.example', design: { frameText: '\u0000' } });
    expect(nested.json().error).toBe('design.frameText: must be valid Unicode text without NUL characters');
    const q = await get('/v1/qr?q=%00');
    expect(q.statusCode).toBe(400);
    expect(q.json().error).toBe('q: must be valid Unicode text without NUL characters');
    // Array elements are named as in every other message.
    const tag = await create({ title: 't', url: 'https://a.example', tags: ['ok', 'b\u0000'] });
    expect(tag.json().error).toBe('tags[1]: must be valid Unicode text without NUL characters');
    const batch = await t.request({
      method: 'POST',
      url: '/v1/qr/batch',
      key,
      payload: {
        items: [
          { title: 'a', url: 'https://a.example' },
          { title: '\ud800', url: 'https://a.example' },
        ],
      },
    });
    expect(batch.json().error).toBe('items[1].title: must be valid Unicode text without NUL characters');
  });
});

describe('fields of another kind', () => {
  it('says in warnings which typed fields were ignored, on create and update', async () => {
    const res = await create({ title: 'Menu', url: 'https://a.example', text: 'hello', wifiSsid: 'Cafe' });
    expect(res.statusCode).toBe(201);
    expect(res.json().warnings).toEqual([
      'wifiSsid was ignored: it belongs to wifi codes, and this code is url.',
      'text was ignored: it belongs to text codes, and this code is url.',
    ]);
    const id = res.json().item.id;
    const updated = await patch(id, { emailTo: 'a@b.example' });
    expect(updated.json().warnings).toEqual(['emailTo was ignored: it belongs to email codes, and this code is url.']);
    expect((await patch(id, { url: 'https://b.example' })).json().warnings).toEqual([]);
  });
});
