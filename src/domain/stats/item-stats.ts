// The stats use case: validates the parameters, fetches roll-ups for the range, builds the answer.
import { NotFoundError } from '../errors.ts';
import { type DimRow, type ItemCounters, type LocalDayRow, type RecentScan, type Stats, buildStats } from './build-stats.ts';
import { type OffsetSegment, checkTimeZone, localRange, offsetSegments } from './time-zones.ts';
import { type BucketSpan, outsideSpans, utcCover, withoutOutside } from './utc-cover.ts';

export const RECENT_LIMIT = 20;

export interface StatsSource {
  counters(accountId: string, id: string): Promise<ItemCounters | null>;
  /** Bucket roll-ups added up into local days, per segment of one UTC offset. */
  localDays(itemId: string, segments: readonly OffsetSegment[]): Promise<LocalDayRow[]>;
  dims(itemId: string, fromDay: string, toDay: string): Promise<DimRow[]>;
  /** The breakdown rows of the given quarter hours. */
  dimsInSpans(itemId: string, spans: readonly BucketSpan[]): Promise<DimRow[]>;
  recent(itemId: string, limit: number): Promise<RecentScan[]>;
}

export async function itemStats(
  source: StatsSource,
  q: { accountId: string; id: string; days: number; tz: string; now?: number },
): Promise<Stats> {
  const tz = checkTimeZone(q.tz);
  const item = await source.counters(q.accountId, q.id);
  if (!item) throw new NotFoundError('QR item not found');
  const range = localRange(tz, q.days, q.now ?? Date.now());
  // Breakdowns: the UTC days overlapping the local range, less their quarter hours outside it.
  // The database adds up the range's quarter hours (up to 96 a day) into local days.
  const cover = utcCover(range.boundaries[0]!, range.boundaries.at(-1)!);
  const [days, dims, outside, recent] = await Promise.all([
    source.localDays(item.id, offsetSegments(tz, range)),
    source.dims(item.id, cover.fromDay, cover.toDay),
    source.dimsInSpans(item.id, outsideSpans(cover)),
    source.recent(item.id, RECENT_LIMIT),
  ]);
  return buildStats({ item, tz, range, days, dims: withoutOutside(dims, outside), recent });
}

export interface RecentScans {
  scanCount: number;
  uniqueScanCount: number;
  botScanCount: number;
  lastScanAt: string | null;
  recent: RecentScan[];
}

/** The live view's poll: the counters, and the newest human scans (only those after `since`, if given). */
export async function recentScans(source: StatsSource, q: { accountId: string; id: string; since?: string }): Promise<RecentScans> {
  const item = await source.counters(q.accountId, q.id);
  if (!item) throw new NotFoundError('QR item not found');
  const since = q.since === undefined ? null : Date.parse(q.since);
  // Nothing can be newer than the last human scan: skip the index walk.
  const fresh = item.lastScanAt !== null && (since === null || Date.parse(item.lastScanAt) > since);
  const recent = fresh ? await source.recent(item.id, RECENT_LIMIT) : [];
  return {
    scanCount: item.scanCount,
    uniqueScanCount: item.uniqueScanCount,
    botScanCount: item.botScanCount,
    lastScanAt: item.lastScanAt,
    recent: since === null ? recent : recent.filter((r) => Date.parse(r.scannedAt) > since),
  };
}
