// Retention on the project's database: an owner sets scanRetentionDays; the job deletes raw scans
// and per-day breakdowns of older days, keeps every count and the daily series, and the roll-ups
// stay those of the scans counted (a forget of an old day then takes out whole quarter hours).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeedingWriter } from '../../src/db/scans/scan-writer.ts';
import { applyRetention, retentionCutoff } from '../../src/db/scans/scan-retention.ts';
import { feedScanEvents } from '../../src/db/webhooks/scan-events.ts';
import { cursorOf } from '../../src/db/scans/scan-log.ts';
import type { ScanEvent } from '../../src/domain/scans/scan-batch.ts';
import { type SignedIn, inviteMember, setupOwner } from '../support/sessions.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

const DAY = 86_400_000;
let t: TestApp;
let owner: SignedIn;

beforeAll(async () => {
  t = await makeTestApp();
  owner = await setupOwner(t, 'owner@example.com', 'Keep');
});
afterAll(() => t.close());

const count = async (table: 'scans' | 'scan_dims_daily' | 'account_dims_daily' | 'scan_buckets') =>
  Number(
    (
      await t.db.kysely
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('scan retention', () => {
  it('lets an owner set it (1 to 3650 days, or null), and no one else', async () => {
    const set = (body: object, who = owner) => who.request({ method: 'PATCH', url: '/v1/account', payload: body });
    expect((await owner.request({ method: 'GET', url: '/v1/account' })).json().account.scanRetentionDays).toBeNull();
    for (const bad of [0, 3651, 1.5, '30', -1]) {
      const res = await set({ scanRetentionDays: bad });
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json().error).toMatch(/scanRetentionDays/);
    }
    expect((await set({ scanRetentionDays: 30, other: 1 })).statusCode).toBe(400);
    for (const ok of [1, 3650, null, 30]) {
      const res = await set({ scanRetentionDays: ok });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().account.scanRetentionDays).toBe(ok);
    }
    const editor = await inviteMember(t, owner, 'ed@example.com', 'editor');
    expect((await set({ scanRetentionDays: 5 }, editor)).statusCode).toBe(403);
    const key = await t.key('Keep');
    expect(
      (await t.request({ method: 'PATCH', url: '/v1/account', key, payload: { scanRetentionDays: 5 } })).statusCode,
    ).toBeGreaterThanOrEqual(401);
  });

  it('deletes raw scans and breakdowns past the cutoff, keeps counts and the daily series, then forgets old days by quarter hour', async () => {
    await owner.request({ method: 'PATCH', url: '/v1/account', payload: { scanRetentionDays: 3 } });
    const created = await owner.request({ method: 'POST', url: '/v1/qr', payload: { title: 'old', url: 'https://example.com/old' } });
    const item = created.json().item as { id: string };
    const now = Date.now();
    const midnight = Math.floor(now / DAY) * DAY;
    const scans: ScanEvent[] = [];
    for (let d = 0; d < 8; d++)
      for (let i = 0; i < 4; i++)
        scans.push({
          itemId: item.id,
          accountId: owner.accountId,
          scannedAt: new Date(Math.min(now - 1000, midnight - d * DAY + (i + 1) * 3_600_000)).toISOString(),
          isBot: i === 3,
          device: 'mobile',
          os: 'iOS',
          browser: 'Safari',
          country: 'DE',
          referrer: null,
          visitorHash: `v${i}`,
        });
    const writer = createSeedingWriter(t.db);
    for (const s of scans) await writer.record(s);
    await writer.drain();
    const stats = async () =>
      (await owner.request({ method: 'GET', url: `/v1/qr/${item.id}/stats?days=14` })).json() as {
        totals: { scans: number; botScans: number };
        daily: { date: string; scans: number }[];
        breakdown: { country: { value: string; scans: number }[] };
      };
    const before = await stats();
    expect(before.totals).toMatchObject({ scans: 24, botScans: 8 });

    // Retention deletes only scans every consumer of the log has read: the webhooks' feed too (its timer may not have run yet).
    while ((await cursorOf(t.db, 'webhooks')) < (await cursorOf(t.db, 'rollups'))) await feedScanEvents(t.db);
    const result = await applyRetention(t.db, now);
    expect(result.accounts).toBe(1);
    const cutoff = retentionCutoff(3, now);
    const kept = scans.filter((s) => s.scannedAt >= `${cutoff}T00:00:00.000Z`).length;
    expect(result.scans).toBe(scans.length - kept);
    expect(await count('scans')).toBe(kept);
    const after = await stats();
    expect(after.totals).toEqual(before.totals);
    expect(after.daily).toEqual(before.daily);
    // Breakdowns now cover the kept days only.
    const keptHumans = scans.filter((s) => !s.isBot && s.scannedAt >= `${cutoff}T00:00:00.000Z`).length;
    expect(after.breakdown.country).toEqual([{ value: 'DE', scans: keptHumans }]);
    const oldDims = await t.db.kysely.selectFrom('scan_dims_daily').select('day').where('day', '<', cutoff).execute();
    expect(oldDims).toEqual([]);
    // Once per cutoff: a second run finds nothing to do.
    expect((await applyRetention(t.db, now)).accounts).toBe(0);

    // A day past retention is forgotten by whole quarter hours, and the counts follow.
    const oldDay = new Date(midnight - 6 * DAY).toISOString().slice(0, 10);
    const nextDay = new Date(midnight - 5 * DAY).toISOString().slice(0, 10);
    const res = await owner.request({ method: 'DELETE', url: `/v1/qr/${item.id}/scans?from=${oldDay}&to=${nextDay}` });
    expect(res.json()).toEqual({ forgotten: 4 });
    expect((await stats()).totals).toMatchObject({ scans: 21, botScans: 7 });
  });
});
