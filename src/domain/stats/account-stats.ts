// The account overview: the scans of all of an account's codes over a range, cut at local
// midnight like an item's, with its breakdowns and its most scanned codes. Pure apart from
// the source it is handed; every read is of roll-ups bounded by the range (or by the number
// of codes scanned in it), never of raw scans.
import { type DimRow, type Stats, breakdowns, dailySeries } from './build-stats.ts';
import { type OffsetSegment, checkTimeZone, localRange, offsetSegments } from './time-zones.ts';
import { type BucketSpan, outsideSpans, utcCover, withoutOutside } from './utc-cover.ts';

export const TOP_CODES_DEFAULT = 10;

/** Scans of one local day for an account: bots too, which items only count in total. */
export interface AccountDayRow {
  day: number;
  scans: number;
  uniqueScans: number;
  botScans: number;
}

export interface TopCode {
  id: string;
  code: string;
  title: string;
  active: boolean;
  /** Human scans (and unique scans) since the range began. */
  scans: number;
  uniqueScans: number;
}

export interface AccountStatsSource {
  liveCodes(accountId: string): Promise<number>;
  accountLocalDays(accountId: string, segments: readonly OffsetSegment[]): Promise<AccountDayRow[]>;
  accountDims(accountId: string, fromDay: string, toDay: string): Promise<DimRow[]>;
  /** The account's breakdown rows of the given quarter hours. */
  accountDimsInSpans(accountId: string, spans: readonly BucketSpan[]): Promise<DimRow[]>;
  /** The live codes with the most human scans since the start of UTC day `fromDay`, less the quarter hours of `head`, most first. */
  topCodes(accountId: string, fromDay: string, limit: number, head: BucketSpan | null): Promise<TopCode[]>;
}

export interface AccountStats {
  days: number;
  tz: string;
  from: string;
  to: string;
  totals: { codes: number; scansInRange: number; uniqueScansInRange: number; botScansInRange: number };
  daily: Stats['daily'];
  topCodes: TopCode[];
  breakdown: Stats['breakdown'];
}

export async function accountStats(
  source: AccountStatsSource,
  q: { accountId: string; days: number; tz: string; top?: number; now?: number },
): Promise<AccountStats> {
  const tz = checkTimeZone(q.tz);
  const range = localRange(tz, q.days, q.now ?? Date.now());
  const cover = utcCover(range.boundaries[0]!, range.boundaries.at(-1)!);
  const [codes, days, dims, outside, topCodes] = await Promise.all([
    source.liveCodes(q.accountId),
    source.accountLocalDays(q.accountId, offsetSegments(tz, range)),
    source.accountDims(q.accountId, cover.fromDay, cover.toDay),
    source.accountDimsInSpans(q.accountId, outsideSpans(cover)),
    source.topCodes(q.accountId, cover.fromDay, q.top ?? TOP_CODES_DEFAULT, cover.head),
  ]);
  const daily = dailySeries(range, days);
  return {
    days: range.dates.length,
    tz,
    from: range.from,
    to: range.to,
    totals: {
      codes,
      scansInRange: daily.reduce((n, d) => n + d.scans, 0),
      uniqueScansInRange: daily.reduce((n, d) => n + d.uniqueScans, 0),
      // The rows cover exactly the range's quarter hours, so their bots are the range's.
      botScansInRange: days.reduce((n, d) => n + d.botScans, 0),
    },
    daily,
    topCodes,
    breakdown: breakdowns(withoutOutside(dims, outside)),
  };
}
