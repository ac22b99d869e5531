// What the web app's codes list needs from the API: sparklines for a whole page in the
// list answer (include=sparkline), and pause/resume/delete of many codes in one request
// (POST /v1/qr/bulk). On SQLite, and on PostgreSQL in the "postgres" project.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeedingWriter } from '../../src/db/scans/scan-writer.ts';
import type { ScanEvent } from '../../src/domain/scans/scan-batch.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

const DAY = 86_400_000;
const TZ = 'America/New_York';

let t: TestApp;
let key: string;
let reader: string;
let other: string;
let accountId: string;

beforeAll(async () => {
  t = await makeTestApp();
  key = await t.key('lister');
  reader = await t.key('lister', 'qr:read');
  other = await t.key('someone-else');
  accountId = await t.services.keys.ensureAccount('lister');
});
afterAll(() => t.close());

const req = (method: 'GET' | 'POST', url: string, body?: unknown, k = key) =>
  t.request({ method, url, key: k, ...(body === undefined ? {} : { payload: body as object }) });

async function create(title: string, k = key): Promise<{ id: string; code: string }> {
  const res = await req('POST', '/v1/qr', { title, url: `https://list.example/${encodeURIComponent(title)}` }, k);
  expect(res.statusCode, res.body).toBe(201);
  const { id, code } = res.json().item;
  return { id, code };
}

/** Scans spread over the last `spanDays` days (some outside the 14 shown), a tenth of them bots. */
async function scanOver(itemId: string, n: number, spanDays: number, seed: number): Promise<void> {
  let s = seed;
  const rnd = () => (s = (s * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const now = Date.now();
  const scans: ScanEvent[] = Array.from({ length: n }, () => ({
    itemId,
    accountId,
    scannedAt: new Date(now - Math.floor(rnd() * spanDays * DAY)).toISOString(),
    isBot: rnd() < 0.1,
    device: 'mobile',
    os: 'iOS',
    browser: 'Safari',
    country: 'US',
    referrer: null,
    visitorHash: `v${Math.floor(rnd() * 20)}`,
  }));
  const writer = createSeedingWriter(t.db);
  await Promise.all(scans.map((e) => writer.record(e)));
  await writer.drain();
}

interface ListPage {
  items: { id: string; title: string; active: boolean; scanCount: number }[];
  nextCursor: string | null;
  sparklines?: { days: number; tz: string; from: string; to: string; series: { id: string; scans: number[] }[] };
}

describe('sparklines in the list (include=sparkline)', () => {
  it("answers each listed code's 14 days, equal to that code's own stats in the same time zone", async () => {
    const a = await create('Spark A');
    const b = await create('Spark B');
    const quiet = await create('Spark quiet');
    await scanOver(a.id, 300, 20, 7);
    await scanOver(b.id, 40, 10, 11);
    const page = (await req('GET', `/v1/qr?limit=3&include=sparkline&tz=${encodeURIComponent(TZ)}`)).json() as ListPage;
    expect(page.items.map((i) => i.title)).toEqual(['Spark quiet', 'Spark B', 'Spark A']);
    const lines = page.sparklines!;
    expect(lines).toMatchObject({ days: 14, tz: TZ });
    expect(lines.series.map((s) => s.id)).toEqual([quiet.id, b.id, a.id]);
    for (const item of page.items) {
      const stats = (await req('GET', `/v1/qr/${item.id}/stats?days=14&tz=${encodeURIComponent(TZ)}`)).json();
      expect(lines.from).toBe(stats.from);
      expect(lines.to).toBe(stats.to);
      expect(lines.series.find((s) => s.id === item.id)!.scans, item.title).toEqual(stats.daily.map((d: { scans: number }) => d.scans));
    }
    expect(lines.series[0]!.scans).toEqual(Array(14).fill(0));
    // A's scans reach back 20 days: the line holds only the last 14, the total all of them.
    const aLine = lines.series[2]!.scans.reduce((x, y) => x + y, 0);
    expect(aLine).toBeGreaterThan(0);
    expect(aLine).toBeLessThan(page.items[2]!.scanCount);
  });

  it('answers a page larger than one read slice (25 codes) whole and in order', async () => {
    const batch = await req('POST', '/v1/qr/batch', {
      items: Array.from({ length: 60 }, (_, i) => ({ title: `Slice ${i}`, url: `https://list.example/slice/${i}` })),
    });
    expect(batch.statusCode, batch.body).toBe(201);
    const ids = (batch.json().items as { item: { id: string } }[]).map((x) => x.item.id);
    for (const [i, id] of ids.entries()) await scanOver(id, (i % 7) + 1, 5, 100 + i);
    const page = (await req('GET', `/v1/qr?limit=60&q=Slice&include=sparkline&tz=${encodeURIComponent(TZ)}`)).json() as ListPage;
    expect(page.items).toHaveLength(60);
    expect(page.sparklines!.series.map((x) => x.id)).toEqual(page.items.map((i) => i.id));
    for (const item of page.items) {
      const stats = (await req('GET', `/v1/qr/${item.id}/stats?days=14&tz=${encodeURIComponent(TZ)}`)).json();
      expect(page.sparklines!.series.find((x) => x.id === item.id)!.scans, item.title).toEqual(
        stats.daily.map((d: { scans: number }) => d.scans),
      );
    }
  });

  it('cuts days at midnight in the zone asked for, UTC by default', async () => {
    const utc = (await req('GET', '/v1/qr?limit=2&include=sparkline')).json() as ListPage;
    expect(utc.sparklines!.tz).toBe('UTC');
    const id = utc.items[1]!.id;
    const stats = (await req('GET', `/v1/qr/${id}/stats?days=14`)).json();
    expect(utc.sparklines!.series[1]!.scans).toEqual(stats.daily.map((d: { scans: number }) => d.scans));
  });

  it('leaves sparklines out unless asked, and answers an empty series for an empty page', async () => {
    expect('sparklines' in (await req('GET', '/v1/qr?limit=1')).json()).toBe(false);
    const none = (await req('GET', '/v1/qr?q=no-such-code-anywhere&include=sparkline')).json() as ListPage;
    expect(none.items).toEqual([]);
    expect(none.sparklines!.series).toEqual([]);
  });

  it('refuses an unknown include or time zone, naming the field', async () => {
    const bad = await req('GET', '/v1/qr?include=stats');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/^include: must be one of sparkline/);
    const zone = await req('GET', '/v1/qr?include=sparkline&tz=Mars/Base');
    expect(zone.statusCode).toBe(400);
    expect(zone.json().error).toMatch(/^tz: /);
    expect((await req('GET', `/v1/qr?include=sparkline&tz=${'a'.repeat(65)}`)).statusCode).toBe(400);
    expect((await req('GET', '/v1/qr?include=sparkline&tz=Europe/Berlin')).statusCode).toBe(200);
  });
});

describe('bulk pause, resume and delete (POST /v1/qr/bulk)', () => {
  const shortLink = async (code: string) => (await t.request({ method: 'GET', url: `/r/${code}` })).statusCode;

  it('pauses and resumes many codes at once; their short links follow at once', async () => {
    const codes = [await create('Bulk 1'), await create('Bulk 2'), await create('Bulk 3')];
    const ids = codes.map((c) => c.id);
    expect(await shortLink(codes[0]!.code)).toBe(302);
    const paused = await req('POST', '/v1/qr/bulk', { action: 'pause', ids: [ids[0], ids[1], ids[0]] });
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.json()).toEqual({ done: [codes[0], codes[1]], notFound: [] });
    expect(await shortLink(codes[0]!.code)).toBe(404);
    expect(await shortLink(codes[1]!.code)).toBe(404);
    expect(await shortLink(codes[2]!.code)).toBe(302);
    const listed = (await req('GET', '/v1/qr?active=false&q=bulk')).json() as ListPage;
    expect(listed.items.map((i) => i.title)).toEqual(['Bulk 2', 'Bulk 1']);
    // Pausing a paused code is no error: it is paused.
    expect((await req('POST', '/v1/qr/bulk', { action: 'pause', ids })).json().done).toHaveLength(3);
    const resumed = await req('POST', '/v1/qr/bulk', { action: 'resume', ids });
    expect(resumed.json()).toEqual({ done: codes, notFound: [] });
    for (const c of codes) expect(await shortLink(c.code)).toBe(302);
  });

  it('deletes many codes: each short link answers 410, and a second delete finds none', async () => {
    const codes = [await create('Gone 1'), await create('Gone 2')];
    const tagged = await req('POST', '/v1/qr', { title: 'Gone tagged', url: 'https://gone.example', tags: ['gone'] });
    const withTag = tagged.json().item as { id: string; code: string };
    const ids = [...codes.map((c) => c.id), withTag.id];
    const res = await req('POST', '/v1/qr/bulk', { action: 'delete', ids });
    expect(res.json()).toEqual({ done: [...codes, { id: withTag.id, code: withTag.code }], notFound: [] });
    for (const c of [...codes, withTag]) {
      expect(await shortLink(c.code)).toBe(410);
      expect((await req('GET', `/v1/qr/${c.id}`)).statusCode).toBe(404);
    }
    // Its tags went with it: the tag counts no code.
    expect((await req('GET', '/v1/tags')).json().tags.find((x: { name: string }) => x.name === 'gone')).toBeUndefined();
    expect((await req('POST', '/v1/qr/bulk', { action: 'delete', ids })).json()).toEqual({ done: [], notFound: ids });
  });

  it("leaves another account's codes alone and reports them as not found", async () => {
    const mine = await create('Mine');
    const theirs = await create('Theirs', other);
    const missing = '00000000-0000-4000-8000-000000000000';
    const res = await req('POST', '/v1/qr/bulk', { action: 'pause', ids: [theirs.id, mine.id, missing] });
    expect(res.json()).toEqual({ done: [mine], notFound: [theirs.id, missing] });
    expect(await shortLink(theirs.code)).toBe(302);
    expect((await req('POST', '/v1/qr/bulk', { action: 'delete', ids: [theirs.id] })).json().notFound).toEqual([theirs.id]);
    expect(await shortLink(theirs.code)).toBe(302);
  });

  it('needs qr:write', async () => {
    const mine = await create('Read only');
    const res = await req('POST', '/v1/qr/bulk', { action: 'delete', ids: [mine.id] }, reader);
    expect(res.statusCode).toBe(403);
    expect(await shortLink(mine.code)).toBe(302);
  });

  it('refuses bad input with a 400 naming the field, on both sides of each bound', async () => {
    const id = (await create('Bounds')).id;
    const uuid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const cases: [unknown, RegExp | null][] = [
      [{ action: 'pause', ids: [] }, /^ids: must be an array of 1 to 200 UUIDs/],
      [{ action: 'pause', ids: [id] }, null],
      [{ action: 'pause', ids: Array.from({ length: 200 }, (_, i) => (i === 0 ? id : uuid(i))) }, null],
      [{ action: 'pause', ids: Array.from({ length: 201 }, (_, i) => uuid(i)) }, /^ids: must be an array of 1 to 200 UUIDs/],
      [{ action: 'pause', ids: ['not-a-uuid'] }, /^ids\[0\]: must be a UUID$/],
      [{ action: 'archive', ids: [id] }, /^action: must be one of pause, resume, delete/],
      [{ ids: [id] }, /action/],
      [{ action: 'pause', ids: [id], extra: 1 }, /extra/],
    ];
    for (const [body, error] of cases) {
      const res = await req('POST', '/v1/qr/bulk', body);
      if (error === null) expect(res.statusCode, res.body).toBe(200);
      else {
        expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(res.json().error).toMatch(error);
      }
    }
    const big = await req('POST', '/v1/qr/bulk', { action: 'pause', ids: Array.from({ length: 200 }, (_, i) => (i === 0 ? id : uuid(i))) });
    expect(big.json().notFound).toHaveLength(199);
  });
});

describe('thumbnails in the list', () => {
  it("take a version in the image's address (v=, not read), so an edited design is a new address", async () => {
    const { id } = await create('Thumb');
    const plain = await req('GET', `/v1/qr/${id}/image.svg`);
    const versioned = await req('GET', `/v1/qr/${id}/image.svg?v=${encodeURIComponent('2026-11-23T21:00:00.000Z')}`);
    expect(versioned.statusCode).toBe(200);
    expect(versioned.body).toBe(plain.body);
    expect(versioned.headers.etag).toBe(plain.headers.etag);
    expect((await req('GET', `/v1/qr/${id}/image.svg?v=${'x'.repeat(64)}`)).statusCode).toBe(200);
    const long = await req('GET', `/v1/qr/${id}/image.svg?v=${'x'.repeat(65)}`);
    expect(long.statusCode).toBe(400);
    expect(long.json().error).toMatch(/^v: must be a string of at most 64 characters/);
  });
});
