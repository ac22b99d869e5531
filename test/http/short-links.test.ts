import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSeedingWriter } from '../../src/db/scans/scan-writer.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Mobile Safari/537.36';
const DESKTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36 Edg/125.0.0.0';
const WHATSAPP = 'WhatsApp/2.23.20.0 A';
const SLACK = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';

let t: TestApp;
let key: string;

beforeAll(async () => {
  t = await makeTestApp({ COUNTRY_HEADER: 'cf-ipcountry' });
  key = await t.key('scans');
});
afterAll(() => t.close());

async function item(body: object) {
  const res = await t.request({ method: 'POST', url: '/v1/qr', key, payload: { title: 'Item', ...body } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().item as { id: string; code: string; payload: string };
}

function scan(code: string, o: { ua?: string; ip?: string; method?: 'GET' | 'HEAD'; headers?: Record<string, string> } = {}) {
  return t.app.inject({
    method: o.method ?? 'GET',
    url: `/r/${code}`,
    remoteAddress: o.ip ?? '203.0.113.7',
    headers: { 'user-agent': o.ua ?? IPHONE, ...o.headers },
  });
}

const stats = async (id: string, qs = '') => {
  const res = await t.request({ method: 'GET', url: `/v1/qr/${id}/stats${qs}`, key });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

function expectShortLinkHeaders(res: { headers: Record<string, unknown> }) {
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['x-robots-tag']).toBe('noindex');
  expect(res.headers['ratelimit-limit']).toBeUndefined();
}

describe('the short link /r/{code}', () => {
  it('redirects url, whatsapp and email items with 302 to the payload and counts the scan', async () => {
    for (const body of [
      { url: 'https://example.com/menu?x=1' },
      { contentType: 'whatsapp', waNumber: '+49 151 2345678', waMessage: 'Hi' },
      { contentType: 'email', emailTo: 'hi@example.com', emailSubject: 'Hello' },
    ]) {
      const it = await item(body);
      const res = await scan(it.code);
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe(it.payload);
      expectShortLinkHeaders(res);
      expect((await stats(it.id)).totals.scans).toBe(1);
    }
  });

  it('shows text, wifi and vcard items as landing pages with a strict CSP, escaping every value', async () => {
    const text = await item({ contentType: 'text', text: '<script>alert(1)</script> & more', title: '<b>Title</b>' });
    const page = await scan(text.code);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expectShortLinkHeaders(page);
    expect(page.body).not.toContain('<script>alert(1)</script>');
    expect(page.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.body).not.toContain('<b>Title</b>');

    const wifi = await item({ contentType: 'wifi', wifiSsid: 'Cafe "Blue"', wifiPass: 'pa;ss' });
    const wifiPage = await scan(wifi.code);
    expect(wifiPage.statusCode).toBe(200);
    expect(wifiPage.body).toContain('Cafe &quot;Blue&quot;');
    expect(wifiPage.body).toContain('pa;ss');
    expect(wifiPage.body).toMatch(/copy/i);

    const vcard = await item({ contentType: 'vcard', vcardFirstName: 'Ada', vcardLastName: 'Lovelace', vcardPhone: '+44 20 1234' });
    const vcardPage = await scan(vcard.code);
    expect(vcardPage.statusCode).toBe(200);
    expect(vcardPage.body).toContain(`/r/${vcard.code}.vcf`);
    expect((await stats(vcard.id)).totals.scans).toBe(1);
  });

  it('serves the contact card as text/vcard without counting a second scan', async () => {
    const vcard = await item({ contentType: 'vcard', vcardFirstName: 'Grace', vcardLastName: 'Hopper', vcardEmail: 'g@navy.example' });
    await scan(vcard.code);
    const res = await t.app.inject({ method: 'GET', url: `/r/${vcard.code}.vcf`, headers: { 'user-agent': IPHONE } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/vcard/);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="Grace Hopper\.vcf"/);
    expect(res.body).toMatch(/^BEGIN:VCARD\r\nVERSION:3\.0\r\n/);
    expect(res.body).toContain('FN:Grace Hopper');
    expectShortLinkHeaders(res);
    expect((await stats(vcard.id)).totals.scans).toBe(1);
    const url = await item({ url: 'https://example.com' });
    expect((await t.app.inject({ method: 'GET', url: `/r/${url.code}.vcf` })).statusCode).toBe(404);
  });

  it('answers 404 pages for unknown and malformed codes', async () => {
    for (const code of ['zzzzzzz', 'abc', '..%2F..', 'x'.repeat(50)]) {
      const res = await scan(code);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expectShortLinkHeaders(res);
    }
  });

  it('answers 404 while paused without counting, and redirects again once resumed', async () => {
    const it = await item({ url: 'https://example.com/p' });
    await t.request({ method: 'PATCH', url: `/v1/qr/${it.id}`, key, payload: { active: false } });
    const paused = await scan(it.code);
    expect(paused.statusCode).toBe(404);
    expect(paused.body).toContain('This QR code is paused');
    expectShortLinkHeaders(paused);
    expect((await stats(it.id)).totals.scans).toBe(0);
    await t.request({ method: 'PATCH', url: `/v1/qr/${it.id}`, key, payload: { active: true } });
    expect((await scan(it.code)).statusCode).toBe(302);
    expect((await stats(it.id)).totals.scans).toBe(1);
  });

  it('follows a changed destination at once', async () => {
    const it = await item({ url: 'https://example.com/old' });
    expect((await scan(it.code)).headers.location).toBe('https://example.com/old');
    await t.request({ method: 'PATCH', url: `/v1/qr/${it.id}`, key, payload: { url: 'https://example.com/new' } });
    expect((await scan(it.code)).headers.location).toBe('https://example.com/new');
  });

  it('answers 410 once deleted, without counting', async () => {
    const it = await item({ url: 'https://example.com/d' });
    await scan(it.code);
    await t.request({ method: 'DELETE', url: `/v1/qr/${it.id}`, key });
    const res = await scan(it.code);
    expect(res.statusCode).toBe(410);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expectShortLinkHeaders(res);
  });

  it('answers other methods 405 with the short-link headers, and records nothing', async () => {
    const it = await item({ url: 'https://example.com/m' });
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'] as const) {
      for (const code of [it.code, 'zzzzzzz']) {
        const res = await t.app.inject({ method, url: `/r/${code}` });
        expect(res.statusCode, `${method} ${code}`).toBe(405);
        expect(res.headers.allow).toBe('GET, HEAD');
        expect(res.json()).toEqual({ error: `method: a short link answers GET and HEAD, not ${method}` });
        expectShortLinkHeaders(res);
      }
    }
    expect((await stats(it.id)).totals).toMatchObject({ scans: 0, botScans: 0 });
    for (const url of ['/r/', '/r/a/b']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expectShortLinkHeaders(res);
    }
  });

  it('answers HEAD and prefetches like GET but never records them', async () => {
    const it = await item({ url: 'https://example.com/h' });
    const head = await scan(it.code, { method: 'HEAD' });
    expect(head.statusCode).toBe(302);
    expect(head.headers.location).toBe('https://example.com/h');
    expectShortLinkHeaders(head);
    expect((await scan(it.code, { headers: { 'sec-purpose': 'prefetch' } })).statusCode).toBe(302);
    expect((await scan(it.code, { headers: { purpose: 'prefetch' } })).statusCode).toBe(302);
    const s = await stats(it.id);
    expect(s.totals).toMatchObject({ scans: 0, botScans: 0 });
  });

  it('answers bots and link previews normally but keeps them out of scanCount and human stats', async () => {
    const it = await item({ url: 'https://example.com/b' });
    for (const ua of [WHATSAPP, SLACK, 'Googlebot/2.1 (+http://www.google.com/bot.html)']) {
      expect((await scan(it.code, { ua })).statusCode).toBe(302);
    }
    await scan(it.code, { ua: ANDROID });
    const s = await stats(it.id);
    expect(s.totals).toMatchObject({ scans: 1, uniqueScans: 1, botScans: 3, scansInRange: 1 });
    expect(s.recent).toHaveLength(1);
    expect(s.recent[0]).toMatchObject({ device: 'mobile', os: 'Android' });
    const read = await t.request({ method: 'GET', url: `/v1/qr/${it.id}`, key });
    expect(read.json().item.scanCount).toBe(1);
  });
});

describe('scan statistics', () => {
  it('counts unique visitors per day and breaks scans down by device, OS, browser, country and referrer', async () => {
    const it = await item({ url: 'https://example.com/s' });
    await scan(it.code, { ua: IPHONE, ip: '198.51.100.1', headers: { 'cf-ipcountry': 'DE', referer: 'https://www.instagram.com/p/1' } });
    await scan(it.code, { ua: IPHONE, ip: '198.51.100.1', headers: { 'cf-ipcountry': 'DE' } });
    await scan(it.code, { ua: ANDROID, ip: '198.51.100.2', headers: { 'cf-ipcountry': 'FR' } });
    await scan(it.code, { ua: DESKTOP, ip: '198.51.100.3', headers: { 'cf-ipcountry': 'DE' } });
    const s = await stats(it.id);
    expect(s.totals).toMatchObject({ scans: 4, uniqueScans: 3, scansInRange: 4, uniqueScansInRange: 3, botScans: 0 });
    expect(s.daily.at(-1)).toMatchObject({ scans: 4, uniqueScans: 3 });
    expect(s.breakdown.device).toEqual([
      { value: 'mobile', scans: 3 },
      { value: 'desktop', scans: 1 },
    ]);
    expect(s.breakdown.country).toEqual([
      { value: 'DE', scans: 3 },
      { value: 'FR', scans: 1 },
    ]);
    expect(s.breakdown.os.map((r: { value: string }) => r.value)).toEqual(['iOS', 'Android', 'Windows']);
    expect(s.breakdown.referrer).toEqual([
      { value: 'direct', scans: 3 },
      { value: 'www.instagram.com', scans: 1 },
    ]);
    expect(s.recent).toHaveLength(4);
    expect(s.recent[0]).toMatchObject({ device: 'desktop', os: 'Windows', country: 'DE', referrer: null });
    expect(s.recent[3]).toMatchObject({ device: 'mobile', os: 'iOS', country: 'DE', referrer: 'www.instagram.com' });
    expect(Date.parse(s.totals.lastScanAt)).toBeGreaterThanOrEqual(Date.parse(s.totals.firstScanAt));
    // No raw IP address is stored anywhere.
    const dump = JSON.stringify(await t.db.kysely.selectFrom('scans').selectAll().execute());
    expect(dump).not.toContain('198.51.100');
  });

  it('lists at most 50 values per breakdown, the rest as one "(other)" entry, per code and for the account', async () => {
    // Whoever scans sets the Referer: 60 distinct ones, each once, and one of them three times more.
    const it = await item({ url: 'https://example.com/many-referrers' });
    for (let i = 0; i < 60; i++) await scan(it.code, { ip: `198.51.100.${i}`, headers: { referer: `https://r${i}.example/` } });
    for (let i = 0; i < 3; i++) await scan(it.code, { ip: '198.51.100.200', headers: { referer: 'https://r7.example/' } });
    const referrer = (await stats(it.id)).breakdown.referrer as { value: string; scans: number }[];
    expect(referrer).toHaveLength(50);
    expect(referrer[0]).toEqual({ value: '(other)', scans: 11 });
    expect(referrer[1]).toEqual({ value: 'r7.example', scans: 4 });
    expect(referrer.reduce((sum, r) => sum + r.scans, 0)).toBe(63);
    const account = await t.request({ method: 'GET', url: '/v1/stats', key });
    expect(account.json().breakdown.referrer).toHaveLength(50);
  });

  it('returns a zero-filled series of exactly `days` entries, oldest first, ending today', async () => {
    const it = await item({ url: 'https://example.com/z' });
    const s = await stats(it.id);
    expect(s).toMatchObject({ id: it.id, code: it.code, days: 14, tz: 'UTC' });
    expect(s.daily).toHaveLength(14);
    expect(s.daily.every((d: { scans: number; uniqueScans: number }) => d.scans === 0 && d.uniqueScans === 0)).toBe(true);
    expect(s.to).toBe(new Date().toISOString().slice(0, 10));
    expect(s.daily[0].date).toBe(s.from);
    expect(s.daily.at(-1).date).toBe(s.to);
    expect(s.totals).toEqual({
      scans: 0,
      uniqueScans: 0,
      scansInRange: 0,
      uniqueScansInRange: 0,
      botScans: 0,
      firstScanAt: null,
      lastScanAt: null,
    });
    expect(s.recent).toEqual([]);
    expect(s.breakdown).toEqual({ device: [], os: [], browser: [], country: [], referrer: [] });
    expect((await stats(it.id, '?days=1')).daily).toHaveLength(1);
    expect((await stats(it.id, '?days=90')).daily).toHaveLength(90);
  });

  it('ends the series on today in the requested time zone, on both sides of the date line', async () => {
    const it = await item({ url: 'https://example.com/tz' });
    await scan(it.code);
    for (const tz of ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Asia/Kathmandu', 'America/St_Johns']) {
      const s = await stats(it.id, `?days=3&tz=${encodeURIComponent(tz)}`);
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: tz }).format(new Date());
      expect(s.tz).toBe(tz);
      expect(s.to).toBe(today);
      expect(s.daily).toHaveLength(3);
      expect(s.daily.at(-1)).toMatchObject({ date: today, scans: 1 });
      expect(s.totals.scansInRange).toBe(1);
    }
  });

  it('puts every scan into its local day across a DST change, over the whole 90-day range', async () => {
    const it = await item({ url: 'https://example.com/dst' });
    // Scans at chosen instants around New York's DST end (2026-11-01 06:00Z), written as the tracker would.
    const writer = createSeedingWriter(t.db);
    const at = [
      '2026-08-14T12:00:00Z',
      '2026-10-31T03:59:00Z',
      '2026-11-01T04:00:00Z',
      '2026-11-01T05:59:00Z',
      '2026-11-01T06:00:00Z',
      '2026-11-02T04:59:00Z',
      '2026-11-02T05:00:00Z',
    ];
    const accountId = await t.services.keys.ensureAccount('scans');
    await Promise.all(
      at.map((iso, i) =>
        writer.record({
          itemId: it.id,
          accountId,
          scannedAt: new Date(iso).toISOString(),
          isBot: false,
          device: 'mobile',
          os: 'iOS',
          browser: 'Safari',
          country: null,
          referrer: null,
          visitorHash: `dst${i}`,
        }),
      ),
    );
    await writer.drain();
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-10T12:00:00Z') });
    try {
      const s = await stats(it.id, `?days=90&tz=${encodeURIComponent('America/New_York')}`);
      expect(s.from).toBe('2026-08-13');
      const byDate = Object.fromEntries(
        s.daily.filter((d: { scans: number }) => d.scans > 0).map((d: { date: string; scans: number }) => [d.date, d.scans]),
      );
      expect(byDate).toEqual({ '2026-08-14': 1, '2026-10-30': 1, '2026-11-01': 4, '2026-11-02': 1 });
      expect(s.totals.scansInRange).toBe(7);
      const utc = await stats(it.id, '?days=90');
      expect(
        Object.fromEntries(
          utc.daily.filter((d: { scans: number }) => d.scans > 0).map((d: { date: string; scans: number }) => [d.date, d.scans]),
        ),
      ).toEqual({ '2026-08-14': 1, '2026-10-31': 1, '2026-11-01': 3, '2026-11-02': 2 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers 400 for days and tz out of bounds, naming the parameter', async () => {
    const it = await item({ url: 'https://example.com/q' });
    for (const [qs, field] of [
      ['days=0', 'days'],
      ['days=91', 'days'],
      ['days=1.5', 'days'],
      ['days=abc', 'days'],
      ['days=', 'days'],
      ['tz=Mars%2FOlympus', 'tz'],
      ['tz=', 'tz'],
      ['range=7', 'range'],
    ]) {
      const res = await t.request({ method: 'GET', url: `/v1/qr/${it.id}/stats?${qs}`, key });
      expect(res.statusCode, qs).toBe(400);
      expect(res.json().error.startsWith(`${field}: `), res.json().error).toBe(true);
    }
  });

  it('keeps the 20 most recent human scans only', async () => {
    const it = await item({ url: 'https://example.com/r' });
    for (let i = 0; i < 23; i++) await scan(it.code, { ip: `192.0.2.${i}` });
    await scan(it.code, { ua: WHATSAPP });
    const s = await stats(it.id);
    expect(s.recent).toHaveLength(20);
    expect(s.totals).toMatchObject({ scans: 23, uniqueScans: 23, botScans: 1 });
  });
});
