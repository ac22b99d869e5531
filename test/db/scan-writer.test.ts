// The scan writers on the real database of the project (SQLite file, or PostgreSQL
// in the "postgres" project): counters, roll-ups and raw scans agree, and concurrent
// writers never lose an increment.
import { afterEach, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../src/db/database.ts';
import { ApiKeysRepository } from '../../src/db/api-keys-repository.ts';
import { QrItemsRepository } from '../../src/db/qr-items-repository.ts';
import { type ScanWriter, createScanWriter } from '../../src/db/scan-writer.ts';
import { StatsRepository } from '../../src/db/stats-repository.ts';
import { AccountStatsRepository } from '../../src/db/account-stats-repository.ts';
import { accountStats } from '../../src/domain/stats/account-stats.ts';
import { parseDatabaseUrl } from '../../src/config.ts';
import { resolveDesign } from '../../src/domain/design.ts';
import type { ScanEvent } from '../../src/domain/scans/scan-batch.ts';
import { itemStats } from '../../src/domain/stats/item-stats.ts';
import { runningTotalsRepair } from '../../src/db/migrations/0007-running-totals-repair.ts';
import { freshDatabaseUrl } from '../support/databases.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup() {
  const { url, dispose } = await freshDatabaseUrl();
  const open = async () => {
    const db = await openDatabase(parseDatabaseUrl(url));
    cleanups.push(() => db.close());
    return db;
  };
  cleanups.push(dispose);
  const db = await open();
  const accountId = await new ApiKeysRepository(db).ensureAccount('w');
  accountOfTest = accountId;
  const item = await new QrItemsRepository(db).create(accountId, { title: 't', contentType: 'url', payload: 'https://e.example', fields: {}, design: resolveDesign(undefined) });
  return { db, open, accountId, itemId: item.id };
}

const writerFor = (db: Db): ScanWriter => createScanWriter(db);

let accountOfTest = '';
const scan = (itemId: string, i: number, o: Partial<ScanEvent> = {}): ScanEvent => ({
  itemId, accountId: accountOfTest, scannedAt: new Date(Date.now() - (i % 3) * 86_400_000).toISOString(), isBot: i % 10 === 0, device: i % 2 ? 'mobile' : 'desktop',
  os: 'iOS', browser: 'Safari', country: i % 4 ? 'DE' : null, referrer: null, visitorHash: `v${i % 50}`, ...o,
});

describe('scan writers', () => {
  it('keeps raw scans, counters, buckets and breakdowns in agreement', async () => {
    const { db, accountId, itemId } = await setup();
    const writer = writerFor(db);
    const scans = Array.from({ length: 1000 }, (_, i) => scan(itemId, i));
    await Promise.all(scans.map((s) => writer.record(s)));
    await writer.drain();
    const stats = await itemStats(new StatsRepository(db), { accountId, id: itemId, days: 3, tz: 'UTC' });
    const raw = await db.kysely.selectFrom('scans').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(raw.n)).toBe(1000);
    expect(stats.totals.scans).toBe(900);
    expect(stats.totals.botScans).toBe(100);
    expect(stats.totals.scansInRange).toBe(900);
    // 50 visitor hashes spread over 3 days: each is new once per UTC day it scans on.
    const visits = new Set(scans.filter((s) => !s.isBot).map((s) => `${s.scannedAt.slice(0, 10)} ${s.visitorHash}`));
    expect(stats.totals.uniqueScans).toBe(visits.size);
    expect(stats.totals.uniqueScansInRange).toBe(visits.size);
    expect(stats.daily.reduce((n, d) => n + d.uniqueScans, 0)).toBe(visits.size);
    const sum = (rows: { scans: number }[]) => rows.reduce((n, r) => n + r.scans, 0);
    for (const dim of ['device', 'os', 'browser', 'country', 'referrer'] as const) expect(sum(stats.breakdown[dim])).toBe(900);
    expect(stats.breakdown.country.find((r) => r.value === 'unknown')?.scans).toBeGreaterThan(0);
  });

  it('loses no increment when two connections record scans of the same item at once', async () => {
    const { db, open, accountId, itemId } = await setup();
    const other = db.sqlite ? db : await open();
    const [w1, w2] = [writerFor(db), writerFor(other)];
    await Promise.all(Array.from({ length: 600 }, (_, i) => (i % 2 ? w1 : w2).record(scan(itemId, i, { isBot: false, visitorHash: `u${i}` }))));
    await Promise.all([w1.drain(), w2.drain()]);
    const stats = await itemStats(new StatsRepository(db), { accountId, id: itemId, days: 3, tz: 'UTC' });
    expect(stats.totals).toMatchObject({ scans: 600, uniqueScans: 600, scansInRange: 600, uniqueScansInRange: 600, botScans: 0 });
    const account = await accountStats(new AccountStatsRepository(db), { accountId, days: 3, tz: 'UTC' });
    expect(account.totals).toMatchObject({ scansInRange: 600, uniqueScansInRange: 600, botScansInRange: 0 });
    expect(account.breakdown.device.reduce((n, r) => n + r.scans, 0)).toBe(600);
  });

  it("loses no scan of a code's running total when two connections start its day at once", async () => {
    const { db, open, accountId, itemId } = await setup();
    const other = db.sqlite ? db : await open();
    const [w1, w2] = [writerFor(db), writerFor(other)];
    const now = new Date().toISOString();
    await Promise.all(Array.from({ length: 400 }, (_, i) => (i % 2 ? w1 : w2).record(scan(itemId, i, { scannedAt: now, isBot: false, visitorHash: `u${i}` }))));
    await Promise.all([w1.drain(), w2.drain()]);
    const account = await accountStats(new AccountStatsRepository(db), { accountId, days: 1, tz: 'UTC' });
    expect(account.topCodes).toEqual([expect.objectContaining({ id: itemId, scans: 400, uniqueScans: 400 })]);
  });

  it('keeps the items of one batch apart', async () => {
    const { db, accountId, itemId } = await setup();
    const other = await new QrItemsRepository(db).create(accountId, { title: 'o', contentType: 'url', payload: 'https://o.example', fields: {}, design: resolveDesign(undefined) });
    const writer = writerFor(db);
    const now = new Date().toISOString();
    await Promise.all([
      writer.record(scan(itemId, 1, { scannedAt: now, visitorHash: 'same' })),
      writer.record(scan(other.id, 1, { scannedAt: now, visitorHash: 'same' })),
      writer.record(scan(itemId, 1, { scannedAt: now, visitorHash: 'same' })),
      writer.record(scan(other.id, 1, { scannedAt: now, isBot: true, device: 'other' })),
      writer.record(scan(itemId, 1, { scannedAt: now, visitorHash: 'another', country: 'FR' })),
    ]);
    const statsOf = (id: string) => itemStats(new StatsRepository(db), { accountId, id, days: 1, tz: 'UTC' });
    const [a, b] = [await statsOf(itemId), await statsOf(other.id)];
    expect(a.totals).toMatchObject({ scans: 3, uniqueScans: 2, botScans: 0, firstScanAt: now, lastScanAt: now });
    expect(b.totals).toMatchObject({ scans: 1, uniqueScans: 1, botScans: 1, firstScanAt: now, lastScanAt: now });
    expect(a.breakdown.country).toEqual([{ value: 'DE', scans: 2 }, { value: 'FR', scans: 1 }]);
    expect(b.breakdown.device).toEqual([{ value: 'mobile', scans: 1 }]);
  });

  it('adds quarter hours up into local days across a DST change, in the database', async () => {
    const { db, accountId, itemId } = await setup();
    const writer = writerFor(db);
    // New York leaves DST at 2026-11-01 06:00Z (02:00 EDT → 01:00 EST).
    const times = [
      '2026-10-31T03:59:00Z', // Oct 30, 23:59 EDT
      '2026-10-31T04:00:00Z', // Oct 31, 00:00 EDT
      '2026-11-01T03:59:00Z', // Oct 31, 23:59 EDT
      '2026-11-01T04:00:00Z', // Nov 1, 00:00 EDT
      '2026-11-01T05:59:00Z', // Nov 1, 01:59 EDT
      '2026-11-01T06:00:00Z', // Nov 1, 01:00 EST (the hour again)
      '2026-11-02T04:59:00Z', // Nov 1, 23:59 EST
      '2026-11-02T05:00:00Z', // Nov 2, 00:00 EST
    ];
    await Promise.all(times.map((t, i) => writer.record(scan(itemId, 1, { scannedAt: new Date(t).toISOString(), isBot: false, visitorHash: `dst${i}` }))));
    await writer.drain();
    const stats = await itemStats(new StatsRepository(db), { accountId, id: itemId, days: 5, tz: 'America/New_York', now: Date.parse('2026-11-03T12:00:00Z') });
    expect(stats.daily.map((d) => [d.date, d.scans])).toEqual([
      ['2026-10-30', 1],
      ['2026-10-31', 2],
      ['2026-11-01', 4],
      ['2026-11-02', 1],
      ['2026-11-03', 0],
    ]);
    expect(stats.totals.scansInRange).toBe(8);
  });

  it('counts a batch that spans a UTC midnight in the running totals of a code scanned the day before', async () => {
    const { db, accountId, itemId } = await setup();
    const writer = writerFor(db);
    const midnight = Date.parse('2026-03-11T00:00:00Z');
    const at = (ms: number, hash: string) => scan(itemId, 1, { scannedAt: new Date(ms).toISOString(), isBot: false, visitorHash: hash });
    await Promise.all([at(midnight - 3 * 3_600_000, 'a'), at(midnight - 2 * 3_600_000, 'b')].map((s) => writer.record(s)));
    await writer.drain();
    // One batch: two more scans of March 10 (a day with a running total already) and three of March 11 (none yet).
    await Promise.all([at(midnight - 60_000, 'c'), at(midnight - 30_000, 'd'), at(midnight + 1, 'e'), at(midnight + 2, 'f'), at(midnight + 3, 'g')].map((s) => writer.record(s)));
    await writer.drain();
    const running = await db.kysely.selectFrom('item_running_totals').select(['day', 'scans', 'unique_scans']).where('item_id', '=', itemId).orderBy('day').execute();
    expect(running.map((r) => [r.day, Number(r.scans), Number(r.unique_scans)])).toEqual([['2026-03-10', 4, 4], ['2026-03-11', 7, 7]]);
    const top = async (now: string) => (await accountStats(new AccountStatsRepository(db), { accountId, days: 1, tz: 'UTC', now: Date.parse(now) })).topCodes;
    expect(await top('2026-03-11T12:00:00Z')).toEqual([expect.objectContaining({ id: itemId, scans: 3, uniqueScans: 3 })]);
    expect(await top('2026-03-10T12:00:00Z')).toEqual([expect.objectContaining({ id: itemId, scans: 7, uniqueScans: 7 })]);
    // The totals such batches left short on PostgreSQL are rebuilt by migration 0007.
    if (db.codec.dialect === 'postgres') {
      await db.kysely.updateTable('item_running_totals').set({ scans: 5, unique_scans: 5 }).where('day', '=', '2026-03-11').execute();
      await runningTotalsRepair('postgres').up(db.kysely as never);
      const repaired = await db.kysely.selectFrom('item_running_totals').select(['day', 'scans', 'unique_scans']).where('item_id', '=', itemId).orderBy('day').execute();
      expect(repaired.map((r) => [r.day, Number(r.scans), Number(r.unique_scans)])).toEqual([['2026-03-10', 4, 4], ['2026-03-11', 7, 7]]);
    }
  });
});
