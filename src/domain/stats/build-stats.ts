// Assembles the stats answer from roll-up rows. Pure: the data layer fetches, this adds up.
import { type LocalRange, dayNumber } from './time-zones.ts';

export const DIMENSIONS = ['device', 'os', 'browser', 'country', 'referrer'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/** Scans of one local day (days since the epoch, in the requested zone). */
export interface LocalDayRow {
  day: number;
  scans: number;
  uniqueScans: number;
}

export interface DimRow {
  dim: string;
  value: string;
  scans: number;
}

export interface RecentScan {
  scannedAt: string;
  device: string;
  os: string | null;
  browser: string | null;
  country: string | null;
  referrer: string | null;
}

export interface ItemCounters {
  id: string;
  code: string;
  scanCount: number;
  uniqueScanCount: number;
  botScanCount: number;
  firstScanAt: string | null;
  lastScanAt: string | null;
}

export interface Stats {
  id: string;
  code: string;
  days: number;
  tz: string;
  from: string;
  to: string;
  totals: {
    scans: number;
    uniqueScans: number;
    scansInRange: number;
    uniqueScansInRange: number;
    botScans: number;
    firstScanAt: string | null;
    lastScanAt: string | null;
  };
  daily: { date: string; scans: number; uniqueScans: number }[];
  recent: RecentScan[];
  breakdown: Record<Dimension, { value: string; scans: number }[]>;
}

export function buildStats(input: {
  item: ItemCounters;
  tz: string;
  range: LocalRange;
  days: LocalDayRow[];
  dims: DimRow[];
  recent: RecentScan[];
}): Stats {
  const { item, tz, range } = input;
  const daily = dailySeries(range, input.days);
  return {
    id: item.id,
    code: item.code,
    days: range.dates.length,
    tz,
    from: range.from,
    to: range.to,
    totals: {
      scans: item.scanCount,
      uniqueScans: item.uniqueScanCount,
      scansInRange: daily.reduce((n, d) => n + d.scans, 0),
      uniqueScansInRange: daily.reduce((n, d) => n + d.uniqueScans, 0),
      botScans: item.botScanCount,
      firstScanAt: item.firstScanAt,
      lastScanAt: item.lastScanAt,
    },
    daily,
    recent: input.recent,
    breakdown: breakdowns(input.dims),
  };
}

/** Zero-filled, oldest first. A day may come in parts (a DST change splits it): they add up. */
export function dailySeries(range: LocalRange, days: readonly LocalDayRow[]): Stats['daily'] {
  const daily = range.dates.map((date) => ({ date, scans: 0, uniqueScans: 0 }));
  const first = range.dates.length > 0 ? dayNumber(range.dates[0]!) : 0;
  for (const d of days) {
    const entry = daily[d.day - first];
    if (!entry) continue;
    entry.scans += d.scans;
    entry.uniqueScans += d.uniqueScans;
  }
  return daily;
}

/**
 * Values listed per breakdown: whoever scans a code sets its Referer header, so the list is
 * unbounded otherwise (docs/api.md). Past the limit the rest are one entry.
 */
export const BREAKDOWN_LIMIT = 50;
/** The entry for the values past the limit (parentheses: no host, country, OS or browser has them). */
export const OTHER_VALUES = '(other)';

export function breakdowns(rows: readonly DimRow[]): Stats['breakdown'] {
  const out = Object.fromEntries(DIMENSIONS.map((d) => [d, new Map<string, number>()])) as Record<Dimension, Map<string, number>>;
  for (const r of rows) {
    const m = out[r.dim as Dimension];
    if (m) m.set(r.value, (m.get(r.value) ?? 0) + r.scans);
  }
  const byScans = (a: { value: string; scans: number }, b: { value: string; scans: number }) =>
    b.scans - a.scans || a.value.localeCompare(b.value);
  const sorted = (m: Map<string, number>) => {
    const all = [...m].map(([value, scans]) => ({ value, scans })).sort(byScans);
    if (all.length <= BREAKDOWN_LIMIT) return all;
    // The first BREAKDOWN_LIMIT − 1 values, then the rest as one: still largest first, and the
    // entries still add up to the scans in range.
    const kept = all.slice(0, BREAKDOWN_LIMIT - 1);
    const rest = all.slice(BREAKDOWN_LIMIT - 1).reduce((sum, v) => sum + v.scans, 0);
    return [...kept, { value: OTHER_VALUES, scans: rest }].sort(byScans);
  };
  return Object.fromEntries(DIMENSIONS.map((d) => [d, sorted(out[d])])) as Stats['breakdown'];
}
