// The scan writers on the real database of the project (SQLite file, or PostgreSQL
// in the "postgres" project): counters, roll-ups and raw scans agree, and concurrent
// writers never lose an increment.
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.ts';
import { ApiKeysRepository } from '../../src/db/accounts/api-keys-repository.ts';
import { QrItemsRepository } from '../../src/db/qr-items/qr-items-repository.ts';
import { type ScanWriter, createSeedingWriter } from '../../src/db/scans/scan-writer.ts';
import { StatsRepository } from '../../src/db/stats/stats-repository.ts';
import { AccountStatsRepository } from '../../src/db/stats/account-stats-repository.ts';
import { accountStats } from '../../src/domain/stats/account-stats.ts';
import { resolveDesign } from '../../src/domain/design/design.ts';
import type { ScanEvent } from '../../src/domain/scans/scan-batch.ts';
import { itemStats } from '../../src/domain/stats/item-stats.ts';
import { runningTotalsRepair } from '../../src/db/migrations/0007-running-totals-repair.ts';
import { localRange } from '../../src/domain/stats/time-zones.ts';
import { bucketOf } from '../../src/domain/stats/scan-buckets.ts';
import { QUARTER_DIMS_DAYS, pruneQuarterDims } from '../../src/db/scans/quarter-dims-retention.ts';
import { backfillQuarterDims } from '../../src/db/migrations/0008-quarter-dims.ts';
import { freshDatabase } from '../support/fresh-database.ts';

async function setup() {
  const fresh = await freshDatabase();
  const open = () => fresh.open();
  const db = await open();
  const accountId = await new ApiKeysRepository(db).ensureAccount('w');
  accountOfTest = accountId;
  const item = await new QrItemsRepository(db).create(accountId, {
    title: 't',
    contentType: 'url',
    payload: 'https://e.example',
    fields: {},
    design: resolveDesign(undefined),
  });
  return { db, open, accountId, itemId: item.id };
}

const writerFor = (db: Db): ScanWriter => createSeedingWriter(db);

let accountOfTest = '';
const scan = (itemId: string, i: number, o: Partial<ScanEvent> = {}): ScanEvent => ({
  itemId,
  accountId: accountOfTest,
  scannedAt: new Date(Date.now() - (i % 3) * 86_400_000).toISOString(),
  isBot: i % 10 === 0,
  device: i % 2 ? 'mobile' : 'desktop',
  os: 'iOS',
  browser: 'Safari',
  country: i % 4 ? 'DE' : null,
  referrer: null,
  visitorHash: `v${i % 50}`,
  ...o,
});

describe('scan writers', () => {
  it('keeps raw scans, counters, buckets and breakdowns in agreement', async () => {
    const { db, accountId, itemId } = await setup();
    const writer = writerFor(db);
    const scans = Array.from({ length: 1000 }, (_, i) => scan(itemId, i));
    await Promise.all(scans.map((s) => writer.record(s)));
    await writer.drain();
    const stats = await itemStats(new StatsRepository(db), { accountId, id: itemId, days: 3, tz: 'UTC' });
    const raw = await db.kysely
      .selectFrom('scans')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
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
    await Promise.all(
      Array.from({ length: 600 }, (_, i) => (i % 2 ? w1 : w2).record(scan(itemId, i, { isBot: false, visitorHash: `u${i}` }))),
    );
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
    await Promise.all(
      Array.from({ length: 400 }, (_, i) =>
        (i % 2 ? w1 : w2).record(scan(itemId, i, { scannedAt: now, isBot: false, visitorHash: `u${i}` })),
      ),
    );
    await Promise.all([w1.drain(), w2.drain()]);
    const account = await accountStats(new AccountStatsRepository(db), { accountId, days: 1, tz: 'UTC' });
    expect(account.topCodes).toEqual([expect.objectContaining({ id: itemId, scans: 400, uniqueScans: 400 })]);
  });

  it('keeps the items of one batch apart', async () => {
    const { db, accountId, itemId } = await setup();
    const other = await new QrItemsRepository(db).create(accountId, {
      title: 'o',
      contentType: 'url',
      payload: 'https://o.example',
      fields: {},
      design: resolveDesign(undefined),
    });
    const writer = writerFor(db);
    const now = new Date().toISOString();
    await Promise.all([
      writer.record(scan(itemId, 1, { scannedAt: now, visitorHash: 'same' })),
      writer.record(scan(other.id, 1, { scannedAt: now, visitorHash: 'same' })),
      writer.record(scan(itemId, 1, { scannedAt: now, visitorHash: 'same' })),
      writer.record(scan(other.id, 1, { scannedAt: now, isBot: true, device: 'other' })),
      writer.record(scan(itemId, 1, { scannedAt: now, visitorHash: 'another', country: 'FR' })),
    ]);
    await writer.drain();
    const statsOf = (id: string) => itemStats(new StatsRepository(db), { accountId, id, days: 1, tz: 'UTC' });
    const [a, b] = [await statsOf(itemId), await statsOf(other.id)];
    expect(a.totals).toMatchObject({ scans: 3, uniqueScans: 2, botScans: 0, firstScanAt: now, lastScanAt: now });
    expect(b.totals).toMatchObject({ scans: 1, uniqueScans: 1, botScans: 1, firstScanAt: now, lastScanAt: now });
    expect(a.breakdown.country).toEqual([
      { value: 'DE', scans: 2 },
      { value: 'FR', scans: 1 },
    ]);
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
    await Promise.all(
      times.map((t, i) => writer.record(scan(itemId, 1, { scannedAt: new Date(t).toISOString(), isBot: false, visitorHash: `dst${i}` }))),
    );
    await writer.drain();
    const stats = await itemStats(new StatsRepository(db), {
      accountId,
      id: itemId,
      days: 5,
      tz: 'America/New_York',
      now: Date.parse('2026-11-03T12:00:00Z'),
    });
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
    await Promise.all(
      [at(midnight - 60_000, 'c'), at(midnight - 30_000, 'd'), at(midnight + 1, 'e'), at(midnight + 2, 'f'), at(midnight + 3, 'g')].map(
        (s) => writer.record(s),
      ),
    );
    await writer.drain();
    const running = await db.kysely
      .selectFrom('item_running_totals')
      .select(['day', 'scans', 'unique_scans'])
      .where('item_id', '=', itemId)
      .orderBy('day')
      .execute();
    expect(running.map((r) => [r.day, Number(r.scans), Number(r.unique_scans)])).toEqual([
      ['2026-03-10', 4, 4],
      ['2026-03-11', 7, 7],
    ]);
    const top = async (now: string) =>
      (await accountStats(new AccountStatsRepository(db), { accountId, days: 1, tz: 'UTC', now: Date.parse(now) })).topCodes;
    expect(await top('2026-03-11T12:00:00Z')).toEqual([expect.objectContaining({ id: itemId, scans: 3, uniqueScans: 3 })]);
    expect(await top('2026-03-10T12:00:00Z')).toEqual([expect.objectContaining({ id: itemId, scans: 7, uniqueScans: 7 })]);
    // The totals such batches left short on PostgreSQL are rebuilt by migration 0007.
    if (db.codec.dialect === 'postgres') {
      await db.kysely.updateTable('item_running_totals').set({ scans: 5, unique_scans: 5 }).where('day', '=', '2026-03-11').execute();
      await runningTotalsRepair('postgres').up(db.kysely as never);
      const repaired = await db.kysely
        .selectFrom('item_running_totals')
        .select(['day', 'scans', 'unique_scans'])
        .where('item_id', '=', itemId)
        .orderBy('day')
        .execute();
      expect(repaired.map((r) => [r.day, Number(r.scans), Number(r.unique_scans)])).toEqual([
        ['2026-03-10', 4, 4],
        ['2026-03-11', 7, 7],
      ]);
    }
  });

  it('cuts the breakdowns and the top codes at local midnight, not at the UTC days around it', async () => {
    const { db, accountId, itemId } = await setup();
    const other = await new QrItemsRepository(db).create(accountId, {
      title: 'o',
      contentType: 'url',
      payload: 'https://o.example',
      fields: {},
      design: resolveDesign(undefined),
    });
    const writer = writerFor(db);
    // Every 20 minutes over four UTC days, a different country each hour: both ends of any
    // range cut a UTC day that holds scans on both sides. `now` is inside the last day, so
    // there are scans after it too (a range ends at the end of today, local).
    const first = Date.parse('2026-03-10T00:05:00Z');
    const events = Array.from({ length: 4 * 72 }, (_, i) => {
      const at = first + i * 20 * 60_000;
      return scan(i % 3 === 0 ? other.id : itemId, i, {
        scannedAt: new Date(at).toISOString(),
        isBot: false,
        country: `C${Math.floor(i / 3) % 24}`,
        visitorHash: `q${i}`,
      });
    });
    for (let i = 0; i < events.length; i += 40) {
      await Promise.all(events.slice(i, i + 40).map((e) => writer.record(e)));
      await writer.drain();
    }
    const now = Date.parse('2026-03-12T11:10:00Z');
    const expectedCountries = (ids: readonly string[], start: number, end: number) => {
      const m = new Map<string, number>();
      for (const e of events) {
        const at = Date.parse(e.scannedAt);
        if (ids.includes(e.itemId) && at >= start && at < end) m.set(e.country!, (m.get(e.country!) ?? 0) + 1);
      }
      return [...m].map(([value, scans]) => ({ value, scans })).sort((a, b) => b.scans - a.scans || a.value.localeCompare(b.value));
    };
    for (const tz of ['Asia/Tokyo', 'Asia/Kathmandu', 'America/St_Johns', 'Pacific/Chatham', 'UTC']) {
      for (const days of [1, 2]) {
        const range = localRange(tz, days, now);
        const [start, end] = [range.boundaries[0]!, range.boundaries.at(-1)!];
        const stats = await itemStats(new StatsRepository(db), { accountId, id: itemId, days, tz, now });
        const label = `${tz} days=${days}`;
        expect(stats.breakdown.country, label).toEqual(expectedCountries([itemId], start, end));
        for (const dim of ['device', 'os', 'browser', 'country', 'referrer'] as const) {
          expect(
            stats.breakdown[dim].reduce((n, r) => n + r.scans, 0),
            `${label} ${dim}`,
          ).toBe(stats.totals.scansInRange);
        }
        const account = await accountStats(new AccountStatsRepository(db), { accountId, days, tz, now });
        expect(account.breakdown.country, label).toEqual(expectedCountries([itemId, other.id], start, end));
        expect(
          account.breakdown.device.reduce((n, r) => n + r.scans, 0),
          label,
        ).toBe(account.totals.scansInRange);
        // The top list counts from the range's start (its end is "now": later scans count too).
        const since = (id: string) => events.filter((e) => e.itemId === id && Date.parse(e.scannedAt) >= start).length;
        expect(
          account.topCodes.map((c) => [c.id, c.scans, c.uniqueScans]),
          label,
        ).toEqual(
          [
            [itemId, since(itemId), since(itemId)],
            [other.id, since(other.id), since(other.id)],
          ].sort((a, b) => Number(b[1]) - Number(a[1])),
        );
      }
    }
  });

  it('keeps quarter-hour breakdowns that add up to the daily ones, and rebuilds them from the raw scans', async () => {
    const { db, itemId, accountId } = await setup();
    const other = await new QrItemsRepository(db).create(accountId, {
      title: 'o',
      contentType: 'url',
      payload: 'https://o.example',
      fields: {},
      design: resolveDesign(undefined),
    });
    const writer = writerFor(db);
    await Promise.all(
      Array.from({ length: 600 }, (_, i) =>
        writer.record(
          scan(i % 2 ? itemId : other.id, i, {
            scannedAt: new Date(Date.now() - i * 7 * 60_000).toISOString(),
            referrer: i % 5 ? null : `r${i % 7}.example`,
            os: i % 6 ? 'iOS' : null,
          }),
        ),
      ),
    );
    await writer.drain();
    const k = db.kysely;
    const plain = (rows: readonly Record<string, unknown>[]) =>
      rows.map((r) =>
        Object.fromEntries(
          Object.entries(r).map(([c, v]) => [
            c,
            c === 'day' ? String(v) : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : typeof v === 'bigint' ? Number(v) : v,
          ]),
        ),
      );
    const daily = await k
      .selectFrom('scan_dims_daily')
      .select(['item_id', 'day', 'dim', 'value', 'scans'])
      .orderBy('item_id')
      .orderBy('day')
      .orderBy('dim')
      .orderBy('value')
      .execute();
    const quarters = await k
      .selectFrom('scan_dims_quarter')
      .select(['item_id', 'bucket', 'dim', 'value', 'scans'])
      .orderBy('item_id')
      .orderBy('bucket')
      .orderBy('dim')
      .orderBy('value')
      .execute();
    const summed = new Map<string, number>();
    for (const q of quarters) {
      const key = [q.item_id, new Date(Number(q.bucket) * 900_000).toISOString().slice(0, 10), q.dim, q.value].join(' ');
      summed.set(key, (summed.get(key) ?? 0) + Number(q.scans));
    }
    expect(new Map(daily.map((d) => [[d.item_id, d.day, d.dim, d.value].join(' '), Number(d.scans)]))).toEqual(summed);
    const accountQuarters = await k
      .selectFrom('account_dims_quarter')
      .select(['account_id', 'bucket', 'dim', 'value', 'scans'])
      .orderBy('account_id')
      .orderBy('bucket')
      .orderBy('dim')
      .orderBy('value')
      .execute();
    const byAccount = new Map<string, number>();
    for (const q of quarters)
      byAccount.set([q.bucket, q.dim, q.value].join(' '), (byAccount.get([q.bucket, q.dim, q.value].join(' ')) ?? 0) + Number(q.scans));
    expect(new Map(accountQuarters.map((q) => [[q.bucket, q.dim, q.value].join(' '), Number(q.scans)]))).toEqual(byAccount);
    expect(accountQuarters.every((q) => q.account_id === accountId)).toBe(true);
    // The migration's backfill from the raw scans makes the same rows.
    await k.deleteFrom('scan_dims_quarter').execute();
    await k.deleteFrom('account_dims_quarter').execute();
    await backfillQuarterDims(k as never, db.codec.dialect, Date.now());
    const rebuilt = await k
      .selectFrom('scan_dims_quarter')
      .select(['item_id', 'bucket', 'dim', 'value', 'scans'])
      .orderBy('item_id')
      .orderBy('bucket')
      .orderBy('dim')
      .orderBy('value')
      .execute();
    expect(plain(rebuilt)).toEqual(plain(quarters));
    const rebuiltAccount = await k
      .selectFrom('account_dims_quarter')
      .select(['account_id', 'bucket', 'dim', 'value', 'scans'])
      .orderBy('account_id')
      .orderBy('bucket')
      .orderBy('dim')
      .orderBy('value')
      .execute();
    expect(plain(rebuiltAccount)).toEqual(plain(accountQuarters));
    // Rows older than any range reaches are pruned, a slice at a time; the others stay.
    const old = bucketOf(Date.now() - (QUARTER_DIMS_DAYS + 1) * 86_400_000);
    await k
      .insertInto('scan_dims_quarter')
      .values(Array.from({ length: 7 }, (_, i) => ({ item_id: itemId, bucket: old - i, dim: 'device', value: 'mobile', scans: 1 })))
      .execute();
    await k
      .insertInto('account_dims_quarter')
      .values(Array.from({ length: 4 }, (_, i) => ({ account_id: accountId, bucket: old - i, dim: 'os', value: 'iOS', scans: 1 })))
      .execute();
    expect(await pruneQuarterDims(db, Date.now(), 3)).toBe(11);
    expect(
      plain(
        await k
          .selectFrom('scan_dims_quarter')
          .select(['item_id', 'bucket', 'dim', 'value', 'scans'])
          .orderBy('item_id')
          .orderBy('bucket')
          .orderBy('dim')
          .orderBy('value')
          .execute(),
      ),
    ).toEqual(plain(quarters));
    expect(
      plain(
        await k
          .selectFrom('account_dims_quarter')
          .select(['account_id', 'bucket', 'dim', 'value', 'scans'])
          .orderBy('account_id')
          .orderBy('bucket')
          .orderBy('dim')
          .orderBy('value')
          .execute(),
      ),
    ).toEqual(plain(accountQuarters));
  });

  it('backfills quarter-hour breakdowns only from the scans a range can reach', async () => {
    const { db, itemId } = await setup();
    const writer = writerFor(db);
    const now = Date.now();
    const at = (daysAgo: number, i: number) =>
      scan(itemId, i, {
        scannedAt: new Date(now - daysAgo * 86_400_000 - i * 60_000).toISOString(),
        isBot: false,
        country: daysAgo > 50 ? 'OLD' : 'NEW',
      });
    for (const daysAgo of [200, 120, 93, 91, 30, 1]) await Promise.all(Array.from({ length: 5 }, (_, i) => writer.record(at(daysAgo, i))));
    await writer.drain();
    await db.kysely.deleteFrom('scan_dims_quarter').execute();
    await db.kysely.deleteFrom('account_dims_quarter').execute();
    await backfillQuarterDims(db.kysely as never, db.codec.dialect, now);
    const rows = await db.kysely
      .selectFrom('scan_dims_quarter')
      .select(['bucket', 'value', 'scans'])
      .where('dim', '=', 'country')
      .execute();
    const cutoff = bucketOf(now - QUARTER_DIMS_DAYS * 86_400_000);
    expect(rows.every((r) => Number(r.bucket) >= cutoff)).toBe(true);
    // 91, 30 and 1 days ago: 15 scans; 93 days and older: none.
    expect(rows.reduce((n, r) => n + Number(r.scans), 0)).toBe(15);
  });
});
