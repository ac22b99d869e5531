import { describe, expect, it } from 'vitest';
import { BREAKDOWN_LIMIT, OTHER_VALUES, breakdowns, buildStats } from '../../src/domain/stats/build-stats.ts';
import fc from 'fast-check';
import { bucketOf, bucketStart, isoTimestamp, utcDay } from '../../src/domain/stats/scan-buckets.ts';
import { checkTimeZone, dayNumber, localDate, localRange, offsetSegments, startOfLocalDay } from '../../src/domain/stats/time-zones.ts';
import { type ScanEvent, firstVisitsInBatch, sumBatch } from '../../src/domain/scans/scan-batch.ts';

const at = (iso: string) => Date.parse(iso);

describe('days whose midnight a DST change skips', () => {
  it('start at the first instant that is locally that day (the clocks go from 23:59 to 01:00)', () => {
    // Atlantic/Azores 2026-03-29 (UTC−1 → UTC+0 at local midnight), America/Santiago
    // 2026-09-06 (UTC−4 → UTC−3), America/Havana 2026-03-08 (UTC−5 → UTC−4).
    for (const [tz, date, start] of [
      ['Atlantic/Azores', '2026-03-29', '2026-03-29T01:00:00.000Z'],
      ['America/Santiago', '2026-09-06', '2026-09-06T04:00:00.000Z'],
      ['America/Havana', '2026-03-08', '2026-03-08T05:00:00.000Z'],
    ] as const) {
      const t = startOfLocalDay(tz, date);
      expect(new Date(t).toISOString(), tz).toBe(start);
      expect(localDate(tz, t), tz).toBe(date);
      expect(localDate(tz, t - 1000), tz).not.toBe(date);
    }
    // The day before ends there: a scan at 23:30 local (00:30Z in the Azores) is on the 28th.
    const range = localRange('Atlantic/Azores', 1, Date.parse('2026-03-29T00:40:00Z'));
    expect(range.dates).toEqual(['2026-03-28']);
    expect(new Date(range.boundaries[1]!).toISOString()).toBe('2026-03-29T01:00:00.000Z');
  });
});

describe('local days in time zones', () => {
  it('finds local midnight in zones east and west of UTC, across DST and across the date line', () => {
    expect(new Date(startOfLocalDay('UTC', '2026-11-23')).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(new Date(startOfLocalDay('Europe/Berlin', '2026-07-01')).toISOString()).toBe('2026-06-30T22:00:00.000Z');
    expect(new Date(startOfLocalDay('Europe/Berlin', '2026-12-01')).toISOString()).toBe('2026-11-30T23:00:00.000Z');
    expect(new Date(startOfLocalDay('America/Los_Angeles', '2026-03-08')).toISOString()).toBe('2026-03-08T08:00:00.000Z');
    expect(new Date(startOfLocalDay('America/Los_Angeles', '2026-03-09')).toISOString()).toBe('2026-03-09T07:00:00.000Z');
    expect(new Date(startOfLocalDay('Pacific/Kiritimati', '2026-11-23')).toISOString()).toBe('2026-11-22T10:00:00.000Z');
    expect(new Date(startOfLocalDay('Asia/Kathmandu', '2026-11-23')).toISOString()).toBe('2026-11-22T18:15:00.000Z');
    expect(localDate('Pacific/Kiritimati', at('2026-11-22T12:00:00Z'))).toBe('2026-11-23');
    expect(localDate('Pacific/Pago_Pago', at('2026-11-22T05:00:00Z'))).toBe('2026-11-21');
  });

  it('builds a range of exactly `days` dates ending today in the zone', () => {
    const r = localRange('Pacific/Kiritimati', 3, at('2026-11-22T12:00:00Z'));
    expect(r.dates).toEqual(['2026-11-21', '2026-11-22', '2026-11-23']);
    expect(r.boundaries).toHaveLength(4);
    expect(r.from).toBe('2026-11-21');
    expect(r.to).toBe('2026-11-23');
  });

  it('cuts a range where the offset changes, so each bucket lands on its local day by arithmetic', () => {
    const cases: [string, string, number][] = [
      ['UTC', '2026-11-23T12:00:00Z', 90],
      ['America/New_York', '2026-11-23T12:00:00Z', 90], // DST ends 2026-11-01
      ['Europe/Berlin', '2026-04-10T12:00:00Z', 30], // DST starts 2026-03-29
      ['Australia/Lord_Howe', '2026-04-20T12:00:00Z', 30], // a 30-minute DST change
      ['America/Santiago', '2026-09-20T12:00:00Z', 30], // DST starts at midnight: 2026-09-06 has no 00:00
      ['Asia/Kathmandu', '2026-11-23T12:00:00Z', 7], // +05:45
      ['Pacific/Kiritimati', '2026-11-23T12:00:00Z', 7], // +14
      ['Pacific/Pago_Pago', '2026-11-23T12:00:00Z', 7], // -11
    ];
    for (const [tz, now, days] of cases) {
      const range = localRange(tz, days, at(now));
      const segments = offsetSegments(tz, range);
      expect(segments[0]!.fromBucket).toBe(bucketOf(range.boundaries[0]!));
      expect(segments.at(-1)!.toBucket).toBe(bucketOf(range.boundaries.at(-1)!));
      for (const [i, seg] of segments.entries()) {
        if (i > 0) expect(seg.fromBucket).toBe(segments[i - 1]!.toBucket);
        for (let b = seg.fromBucket; b < seg.toBucket; b++) {
          const expected = dayNumber(localDate(tz, bucketStart(b)));
          if (Math.floor((b + seg.offsetBuckets) / 96) !== expected)
            expect({ tz, b, day: Math.floor((b + seg.offsetBuckets) / 96) }).toEqual({ tz, b, day: expected });
        }
      }
    }
    expect(offsetSegments('UTC', localRange('UTC', 90, at('2026-11-23T12:00:00Z')))).toHaveLength(1);
    expect(offsetSegments('America/New_York', localRange('America/New_York', 90, at('2026-11-23T12:00:00Z')))).toHaveLength(2);
    expect(offsetSegments('Europe/Berlin', localRange('Europe/Berlin', 30, at('2026-04-10T12:00:00Z')))).toHaveLength(2);
  });

  it('validates zone names', () => {
    expect(checkTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(() => checkTimeZone('Mars/Base')).toThrow(/^tz: /);
    expect(() => checkTimeZone('../../etc/passwd')).toThrow(/^tz: /);
  });
});

describe('building stats from roll-ups', () => {
  const item = { id: 'i', code: 'c', scanCount: 5, uniqueScanCount: 3, botScanCount: 1, firstScanAt: null, lastScanAt: null };

  it('zero-fills the daily series and adds up the parts of each local day', () => {
    const range = localRange('America/New_York', 3, at('2026-11-23T12:00:00Z'));
    const stats = buildStats({
      item,
      tz: 'America/New_York',
      range,
      days: [
        { day: dayNumber('2026-11-22'), scans: 2, uniqueScans: 1 },
        // A DST change splits a day into two parts: they add up.
        { day: dayNumber('2026-11-23'), scans: 1, uniqueScans: 1 },
        { day: dayNumber('2026-11-23'), scans: 2, uniqueScans: 1 },
        { day: dayNumber('2026-11-10'), scans: 9, uniqueScans: 9 }, // outside the range
      ],
      dims: [
        { dim: 'device', value: 'desktop', scans: 1 },
        { dim: 'device', value: 'mobile', scans: 4 },
      ],
      recent: [],
    });
    expect(stats.daily).toEqual([
      { date: '2026-11-21', scans: 0, uniqueScans: 0 },
      { date: '2026-11-22', scans: 2, uniqueScans: 1 },
      { date: '2026-11-23', scans: 3, uniqueScans: 2 },
    ]);
    expect(stats.totals).toMatchObject({ scans: 5, uniqueScans: 3, scansInRange: 5, uniqueScansInRange: 3, botScans: 1 });
    expect(stats.breakdown.device).toEqual([
      { value: 'mobile', scans: 4 },
      { value: 'desktop', scans: 1 },
    ]);
    expect(stats.breakdown.os).toEqual([]);
  });
});

describe('breakdowns', () => {
  it('lists at most BREAKDOWN_LIMIT values, the rest as one entry, largest first and adding up to the scans', () => {
    // 20,000 referrers, as a scanner that sets a Referer of its own choosing on every scan makes them.
    const rows = Array.from({ length: 20_000 }, (_, i) => ({ dim: 'referrer', value: `r${i}.example`, scans: i < 10 ? 100 - i : 1 }));
    const out = breakdowns([...rows, { dim: 'device', value: 'mobile', scans: 3 }]).referrer;
    expect(out).toHaveLength(BREAKDOWN_LIMIT);
    expect(out[0]).toEqual({ value: OTHER_VALUES, scans: 20_000 - BREAKDOWN_LIMIT + 1 });
    expect(out[1]).toEqual({ value: 'r0.example', scans: 100 });
    expect(out.reduce((sum, v) => sum + v.scans, 0)).toBe(rows.reduce((sum, r) => sum + r.scans, 0));
    for (let i = 1; i < out.length; i++) expect(out[i - 1]!.scans).toBeGreaterThanOrEqual(out[i]!.scans);
    // At the limit nothing is folded.
    const exact = breakdowns(rows.slice(0, BREAKDOWN_LIMIT)).referrer;
    expect(exact).toHaveLength(BREAKDOWN_LIMIT);
    expect(exact.some((v) => v.value === OTHER_VALUES)).toBe(false);
  });
});

describe('summing a batch of scans', () => {
  const scan = (o: Partial<ScanEvent>): ScanEvent => ({
    itemId: 'a',
    accountId: 'acc',
    scannedAt: '2026-11-23T10:00:00.000Z',
    isBot: false,
    device: 'mobile',
    os: 'iOS',
    browser: 'Safari',
    country: null,
    referrer: null,
    visitorHash: 'v',
    ...o,
  });

  it('counts humans, uniques and bots apart and touches each counter row once', () => {
    const scans = [
      scan({}),
      scan({ scannedAt: '2026-11-23T10:05:00.000Z' }),
      scan({ isBot: true, device: 'other' }),
      scan({ itemId: 'b', scannedAt: '2026-11-23T11:00:00.000Z' }),
    ];
    const d = sumBatch(scans, [true, false, false, true]);
    expect(d.items).toEqual([
      {
        itemId: 'a',
        accountId: 'acc',
        scans: 2,
        uniqueScans: 1,
        botScans: 1,
        first: '2026-11-23T10:00:00.000Z',
        last: '2026-11-23T10:05:00.000Z',
      },
      {
        itemId: 'b',
        accountId: 'acc',
        scans: 1,
        uniqueScans: 1,
        botScans: 0,
        first: '2026-11-23T11:00:00.000Z',
        last: '2026-11-23T11:00:00.000Z',
      },
    ]);
    expect(d.buckets).toHaveLength(2);
    expect(d.buckets[0]).toMatchObject({ itemId: 'a', scans: 2, uniqueScans: 1, botScans: 1 });
    const device = d.dims.filter((x) => x.dim === 'device');
    expect(device).toEqual([
      { itemId: 'a', day: '2026-11-23', dim: 'device', value: 'mobile', scans: 2 },
      { itemId: 'b', day: '2026-11-23', dim: 'device', value: 'mobile', scans: 1 },
    ]);
    expect(d.dims.find((x) => x.dim === 'country')?.value).toBe('unknown');
    expect(d.dims.find((x) => x.dim === 'referrer')?.value).toBe('direct');
  });

  it("adds the items of one account into the account's buckets and breakdowns, and keeps accounts apart", () => {
    const scans = [
      scan({}),
      scan({ itemId: 'b', scannedAt: '2026-11-23T10:10:00.000Z', country: 'DE' }),
      scan({ itemId: 'b', isBot: true, device: 'other' }),
      scan({ itemId: 'c', accountId: 'other', country: 'DE' }),
    ];
    const d = sumBatch(scans, [true, true, false, true]);
    expect(d.accountBuckets).toEqual([
      { accountId: 'acc', bucket: bucketOf(Date.parse('2026-11-23T10:00:00Z')), scans: 2, uniqueScans: 2, botScans: 1 },
      { accountId: 'other', bucket: bucketOf(Date.parse('2026-11-23T10:00:00Z')), scans: 1, uniqueScans: 1, botScans: 0 },
    ]);
    expect(d.accountDims.filter((x) => x.dim === 'country')).toEqual([
      { accountId: 'acc', day: '2026-11-23', dim: 'country', value: 'unknown', scans: 1 },
      { accountId: 'acc', day: '2026-11-23', dim: 'country', value: 'DE', scans: 1 },
      { accountId: 'other', day: '2026-11-23', dim: 'country', value: 'DE', scans: 1 },
    ]);
  });

  it("gives each item's UTC days their human scans and unique scans, for the running totals", () => {
    const scans = [
      scan({ scannedAt: '2026-11-23T23:59:59.000Z' }),
      scan({ scannedAt: '2026-11-24T00:00:01.000Z' }),
      scan({ scannedAt: '2026-11-24T00:00:02.000Z', visitorHash: 'w' }),
      scan({ scannedAt: '2026-11-24T00:00:03.000Z', isBot: true }),
    ];
    const d = sumBatch(scans, [true, true, false, false]);
    expect(d.itemDays).toEqual([
      { itemId: 'a', day: '2026-11-23', scans: 1, uniqueScans: 1 },
      { itemId: 'a', day: '2026-11-24', scans: 2, uniqueScans: 1 },
    ]);
  });

  it('gives a bots-only item no first or last scan time', () => {
    const d = sumBatch([scan({ isBot: true })], [true]);
    expect(d.items[0]).toMatchObject({ scans: 0, uniqueScans: 0, botScans: 1, first: null, last: null });
  });

  it('asks the database only about the first visit of a visitor per item and UTC day within a batch', () => {
    const scans = [
      scan({}),
      scan({ scannedAt: '2026-11-23T10:05:00.000Z' }), // same visitor, item and day: a repeat
      scan({ itemId: 'b' }), // another item
      scan({ scannedAt: '2026-11-24T00:00:01.000Z' }), // the next UTC day
      scan({ visitorHash: 'w' }), // another visitor
      scan({ isBot: true, visitorHash: 'x' }), // bots are never unique
    ];
    expect(firstVisitsInBatch(scans)).toEqual([true, false, true, true, true, false]);
  });
});

describe('isoTimestamp', () => {
  it('is Date#toISOString for any time, however calls follow each other', () => {
    const min = Date.UTC(-271820, 0, 1);
    const max = Date.UTC(275759, 0, 1);
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.integer({ min, max }), fc.integer({ min: -5_000, max: 5_000 }), fc.double({ min: -1e6, max: 1e6, noNaN: true })),
          { minLength: 1 },
        ),
        (times) => {
          for (const ms of times) expect(isoTimestamp(ms)).toBe(new Date(ms).toISOString());
        },
      ),
    );
  });

  it('reuses the second and pads the milliseconds', () => {
    const second = Date.UTC(2026, 10, 23, 9, 59, 59);
    expect([0, 7, 42, 999].map((m) => isoTimestamp(second + m))).toEqual([
      '2026-11-23T09:59:59.000Z',
      '2026-11-23T09:59:59.007Z',
      '2026-11-23T09:59:59.042Z',
      '2026-11-23T09:59:59.999Z',
    ]);
    expect(isoTimestamp(second + 1000)).toBe('2026-11-23T10:00:00.000Z');
    expect(utcDay(second + 1000 * 3600 * 14)).toBe('2026-11-23');
    expect(utcDay(new Date(second + 1000 * 3600 * 15))).toBe('2026-11-24');
  });

  it('throws as Date does for a time out of range', () => {
    expect(() => isoTimestamp(8.64e15 + 1)).toThrow(RangeError);
    expect(() => isoTimestamp(Number.NaN)).toThrow(RangeError);
  });
});
