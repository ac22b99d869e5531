// Daily scans of many codes at once, for the codes list's sparklines: one query for a whole
// page instead of one stats request per row. Read from the same quarter-hour roll-ups as an
// item's stats, cut at local midnight the same way, so each point equals that day in /stats.
import { type LocalDayRow, dailySeries } from './build-stats.ts';
import { type OffsetSegment, checkTimeZone, localRange, offsetSegments } from './time-zones.ts';

/** The list's sparklines always cover the last 14 days, as the stats page does by default. */
export const SPARKLINE_DAYS = 14;

export interface ItemLocalDayRow extends LocalDayRow {
  itemId: string;
}

export interface SparklineSource {
  /** Bucket roll-ups of these items added up into local days, per segment of one UTC offset. */
  localDaysOfItems(itemIds: readonly string[], segments: readonly OffsetSegment[]): Promise<ItemLocalDayRow[]>;
}

export interface Sparklines {
  days: number;
  tz: string;
  from: string;
  to: string;
  /** One per item asked for, in that order: human scans per local day, oldest first, zero-filled. */
  series: { id: string; scans: number[] }[];
}

export async function sparklines(
  source: SparklineSource,
  q: { itemIds: readonly string[]; tz: string; now?: number },
): Promise<Sparklines> {
  const tz = checkTimeZone(q.tz);
  const range = localRange(tz, SPARKLINE_DAYS, q.now ?? Date.now());
  const rows = q.itemIds.length === 0 ? [] : await source.localDaysOfItems(q.itemIds, offsetSegments(tz, range));
  const byItem = new Map<string, LocalDayRow[]>();
  for (const r of rows) {
    const list = byItem.get(r.itemId);
    if (list) list.push(r);
    else byItem.set(r.itemId, [r]);
  }
  return {
    days: SPARKLINE_DAYS,
    tz,
    from: range.from,
    to: range.to,
    series: q.itemIds.map((id) => ({ id, scans: dailySeries(range, byItem.get(id) ?? []).map((d) => d.scans) })),
  };
}
