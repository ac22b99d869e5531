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
  breakdown: Record<Dimension, { value: string; scans: number }[]> & Partial<Attribution>;
  /** Scans in range the code refused (its schedule, expiry, cap or password): never in the totals. */
  blocked?: Blocked;
}

/** A code's scans by the rule that matched, the split variant and where they were sent (docs/dynamic-codes.md). */
export interface Attribution {
  /** Rule ids; "none" when no rule matched. */
  rule: { value: string; scans: number }[];
  /** "<ruleId>#<variant index>", with the variant's unique scans beside its scans. */
  variant: { value: string; scans: number; uniqueScans: number }[];
  destination: { value: string; scans: number }[];
}

export interface Blocked {
  scheduled: number;
  expired: number;
  capped: number;
  passwordRequired: number;
  passwordFailed: number;
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
    // Only a code whose scans went through rules has these breakdowns.
    breakdown: { ...breakdowns(input.dims), ...(input.dims.some((r) => r.dim === 'rule') ? attribution(input.dims) : {}) },
    blocked: blockedOf(input.dims),
  };
}

/** The rule, variant and destination breakdowns, from the item's rule rows (domain/scans/scan-batch.ts). */
export function attribution(rows: readonly DimRow[]): Attribution {
  const sums = {
    rule: new Map<string, number>(),
    variant: new Map<string, number>(),
    variantUnique: new Map<string, number>(),
    destination: new Map<string, number>(),
  };
  for (const r of rows) {
    const m = sums[r.dim as keyof typeof sums];
    if (m) m.set(r.value, (m.get(r.value) ?? 0) + r.scans);
  }
  const listed = (m: Map<string, number>) => [...m].map(([value, scans]) => ({ value, scans })).sort(byScans);
  return {
    rule: listed(sums.rule),
    // A split has at most 10 variants and a code 25 rules: the list is bounded, ordered by rule and place.
    variant: [...sums.variant]
      .map(([value, scans]) => ({ value, scans, uniqueScans: sums.variantUnique.get(value) ?? 0 }))
      .sort((a, b) => a.value.localeCompare(b.value, 'en', { numeric: true })),
    destination: cut(listed(sums.destination)),
  };
}

function blockedOf(rows: readonly DimRow[]): Blocked {
  const out: Blocked = { scheduled: 0, expired: 0, capped: 0, passwordRequired: 0, passwordFailed: 0 };
  for (const r of rows) {
    if (r.dim !== 'blocked') continue;
    if (r.value === 'password_required') out.passwordRequired += r.scans;
    else if (r.value === 'password_failed') out.passwordFailed += r.scans;
    else if (r.value === 'scheduled' || r.value === 'expired' || r.value === 'capped') out[r.value] += r.scans;
  }
  return out;
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

const byScans = (a: { value: string; scans: number }, b: { value: string; scans: number }) =>
  b.scans - a.scans || a.value.localeCompare(b.value);

/**
 * A list sorted largest first, cut to BREAKDOWN_LIMIT: the first BREAKDOWN_LIMIT − 1 values, then
 * the rest as one, still largest first, and the entries still add up to the scans in range.
 */
function cut(all: { value: string; scans: number }[]): { value: string; scans: number }[] {
  if (all.length <= BREAKDOWN_LIMIT) return all;
  const kept = all.slice(0, BREAKDOWN_LIMIT - 1);
  const rest = all.slice(BREAKDOWN_LIMIT - 1).reduce((sum, v) => sum + v.scans, 0);
  return [...kept, { value: OTHER_VALUES, scans: rest }].sort(byScans);
}

export function breakdowns(rows: readonly DimRow[]): Stats['breakdown'] {
  const out = Object.fromEntries(DIMENSIONS.map((d) => [d, new Map<string, number>()])) as Record<Dimension, Map<string, number>>;
  for (const r of rows) {
    const m = out[r.dim as Dimension];
    if (m) m.set(r.value, (m.get(r.value) ?? 0) + r.scans);
  }
  const sorted = (m: Map<string, number>) => cut([...m].map(([value, scans]) => ({ value, scans })).sort(byScans));
  return Object.fromEntries(DIMENSIONS.map((d) => [d, sorted(out[d])])) as Stats['breakdown'];
}
