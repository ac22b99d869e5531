// DELETE /v1/qr/{id}/scans on the project's database: the scans of the range leave the log and
// every roll-up, total and breakdown is corrected, so the roll-ups still equal the log (checked by
// recomputing them from it), unique scans included when a visitor's first scan of a day goes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeedingWriter } from '../../src/db/scans/scan-writer.ts';
import type { ScanEvent } from '../../src/domain/scans/scan-batch.ts';
import { expectedRollups, storedRollups } from '../support/rollup-check.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

const DAY = 86_400_000;
let t: TestApp;
let key: string;
let readKey: string;
let accountId: string;

beforeAll(async () => {
  t = await makeTestApp();
  key = await t.key('forget');
  readKey = await t.key('forget', 'qr:read');
  accountId = await t.services.keys.ensureAccount('forget');
});
afterAll(() => t.close());

async function item(title: string, k = key) {
  const res = await t.request({ method: 'POST', url: '/v1/qr', key: k, payload: { title, url: `https://example.com/${title}` } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().item as { id: string; code: string };
}

/** `perDay` scans a day for the last `days` UTC days (today included), visitors v0…v4, every fifth a bot. */
function scansOf(itemId: string, days: number, perDay: number): ScanEvent[] {
  const midnight = Math.floor(Date.now() / DAY) * DAY;
  const out: ScanEvent[] = [];
  for (let d = 0; d < days; d++) {
    for (let i = 0; i < perDay; i++) {
      const at = Math.min(Date.now() - 1000, midnight - d * DAY + (i + 1) * 60_000);
      out.push({
        itemId,
        accountId,
        scannedAt: new Date(at).toISOString(),
        isBot: i % 5 === 4,
        device: i % 2 ? 'mobile' : 'desktop',
        os: i % 3 ? 'iOS' : 'Android',
        browser: 'Safari',
        country: i % 4 ? 'DE' : 'FR',
        referrer: null,
        visitorHash: `v${i % 5}`,
      });
    }
  }
  return out;
}

async function record(scans: ScanEvent[]) {
  const writer = createSeedingWriter(t.db);
  for (const s of scans) await writer.record(s); // one by one: ids in time order
  await writer.drain();
}

async function stats(id: string) {
  const res = await t.request({ method: 'GET', url: `/v1/qr/${id}/stats?days=7`, key });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { totals: { scans: number; uniqueScans: number; botScans: number; firstScanAt: string | null } };
}

async function expectRollupsEqualLog() {
  const expected = await expectedRollups(t.db);
  const stored = await storedRollups(t.db);
  for (const table of Object.keys(expected.snapshot)) expect(stored[table], table).toEqual(expected.snapshot[table]);
}

describe('DELETE /v1/qr/{id}/scans', () => {
  it('forgets one day of a code and corrects its counts, breakdowns, running totals and the account’s', async () => {
    const a = await item('a');
    const b = await item('b');
    await record([...scansOf(a.id, 3, 10), ...scansOf(b.id, 2, 5)]);
    const before = await stats(a.id);
    expect(before.totals.scans).toBe(24);
    const midnight = Math.floor(Date.now() / DAY) * DAY;
    const yesterday = new Date(midnight - DAY).toISOString().slice(0, 10);
    const today = new Date(midnight).toISOString().slice(0, 10);
    const res = await t.request({ method: 'DELETE', url: `/v1/qr/${a.id}/scans?from=${yesterday}&to=${today}`, key });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ forgotten: 10 });
    const after = await stats(a.id);
    expect(after.totals.scans).toBe(16);
    expect(after.totals.botScans).toBe(4);
    await expectRollupsEqualLog();
    // The other code is untouched.
    expect((await stats(b.id)).totals.scans).toBe(8);
  });

  it('moves a unique scan to the visitor’s next scan of the day when their first one is forgotten', async () => {
    const c = await item('c');
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
    const s = (minutesAgo: number): ScanEvent => ({
      itemId: c.id,
      accountId,
      scannedAt: at(minutesAgo),
      isBot: false,
      device: 'mobile',
      os: 'iOS',
      browser: 'Safari',
      country: 'DE',
      referrer: null,
      visitorHash: 'same',
    });
    // Within the current UTC day when run after 00:03; otherwise the scans span two days, still exact.
    await record([s(3), s(2), s(1)]);
    expect((await stats(c.id)).totals).toMatchObject({ scans: 3 });
    const res = await t.request({ method: 'DELETE', url: `/v1/qr/${c.id}/scans?to=${encodeURIComponent(at(2.5))}`, key });
    expect(res.json()).toEqual({ forgotten: 1 });
    const left = (await stats(c.id)).totals;
    expect(left.scans).toBe(2);
    expect(left.uniqueScans).toBeGreaterThanOrEqual(1);
    await expectRollupsEqualLog();
  });

  it('forgets every scan without a range, and the code reads as never scanned', async () => {
    const d = await item('d');
    await record(scansOf(d.id, 4, 6));
    const res = await t.request({ method: 'DELETE', url: `/v1/qr/${d.id}/scans`, key });
    expect(res.json()).toEqual({ forgotten: 24 });
    const got = await t.request({ method: 'GET', url: `/v1/qr/${d.id}`, key });
    expect(got.json().item).toMatchObject({ scanCount: 0 });
    expect((await stats(d.id)).totals).toMatchObject({ scans: 0, uniqueScans: 0, botScans: 0, firstScanAt: null });
    await expectRollupsEqualLog();
    // Forgetting again finds nothing.
    expect((await t.request({ method: 'DELETE', url: `/v1/qr/${d.id}/scans`, key })).json()).toEqual({ forgotten: 0 });
  });

  it('answers 400 naming the field for a bad range, 403 to a read-only key and 404 for another account’s code', async () => {
    const e = await item('e');
    const bad = async (query: string, field: string) => {
      const res = await t.request({ method: 'DELETE', url: `/v1/qr/${e.id}/scans?${query}`, key });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error).toMatch(new RegExp(`^${field}`));
    };
    await bad('from=yesterday', 'from');
    await bad('to=2026-13-01', 'to');
    await bad('from=2026-11-02&to=2026-11-01', 'to');
    await bad('from=2026-11-01&to=2026-11-01', 'to');
    await bad('from=2026-11-01T10:00', 'from');
    await bad('until=2026-11-01', 'until');
    expect((await t.request({ method: 'DELETE', url: `/v1/qr/${e.id}/scans`, key: readKey })).statusCode).toBe(403);
    const other = await t.key('someone-else');
    expect((await t.request({ method: 'DELETE', url: `/v1/qr/${e.id}/scans`, key: other })).statusCode).toBe(404);
    // Accepted edges: a date, a date-time with an offset.
    const ok = await t.request({ method: 'DELETE', url: `/v1/qr/${e.id}/scans?from=2026-11-01&to=2026-11-02T00:00:00%2B01:00`, key });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});
