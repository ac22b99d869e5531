// Local days in an IANA time zone, as UTC instants. Uses Intl (full ICU ships with Node).
import { ValidationError } from '../errors.ts';
import { LruCache } from '../scans/lru-cache.ts';
import { BUCKET_MS, bucketOf, bucketStart } from './scan-buckets.ts';

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Validates an IANA zone name and returns it as given (ICU would rename some, e.g. Kathmandu → Katmandu). */
export function checkTimeZone(tz: string): string {
  if (!/^[A-Za-z0-9_+\-/]{1,64}$/.test(tz)) throw new ValidationError('tz: must be an IANA time zone such as Europe/Berlin');
  try {
    formatter(tz);
    // Answers echo the zone's proper spelling ('utc' → 'UTC', 'europe/berlin' → 'Europe/Berlin').
    // Not resolvedOptions(): older ICU data "canonicalizes" Asia/Kathmandu back to Asia/Katmandu.
    return properSpelling().get(tz.toLowerCase()) ?? tz;
  } catch {
    throw new ValidationError('tz: must be an IANA time zone such as Europe/Berlin');
  }
}

let spellings: Map<string, string> | null = null;
function properSpelling(): Map<string, string> {
  spellings ??= new Map(['UTC', ...Intl.supportedValuesOf('timeZone')].map((z) => [z.toLowerCase(), z]));
  return spellings;
}

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** Offset of `tz` from UTC at instant `ms`, in milliseconds (east positive). */
export function offsetAt(tz: string, ms: number): number {
  if (tz === 'UTC') return 0;
  const parts: Record<string, number> = {};
  for (const p of formatter(tz).formatToParts(new Date(ms))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** 'YYYY-MM-DD' of instant `ms` in `tz`. */
export function localDate(tz: string, ms: number): string {
  return new Date(ms + offsetAt(tz, ms)).toISOString().slice(0, 10);
}

// Local midnights by zone and date. A past day's midnight never changes while the process
// runs, and each costs two Intl calls (about 30 µs), so a 90-day range is found once.
const midnights = new LruCache<string, number>(20_000);

/**
 * The UTC instant `date` starts in `tz`: its local midnight (DST-safe: re-checks the offset
 * once), or, where a DST change skips midnight (Atlantic/Azores, America/Santiago and
 * America/Havana go from 23:59 to 01:00), the first instant that is locally `date`.
 */
export function startOfLocalDay(tz: string, date: string): number {
  const key = `${tz} ${date}`;
  const hit = midnights.get(key);
  if (hit !== undefined) return hit;
  const naive = Date.parse(`${date}T00:00:00Z`);
  const first = offsetAt(tz, naive);
  const second = offsetAt(tz, naive - first);
  let guess = naive - second;
  // Two offsets that differ mean a DST change close by, which may have skipped midnight.
  if (first !== second && (localDate(tz, guess) !== date || localDate(tz, guess - 1000) === date)) guess = firstSecondOf(tz, date, guess);
  midnights.set(key, guess);
  return guess;
}

/** Binary search, to the second, for the first instant near `near` that is locally `date` or later. */
function firstSecondOf(tz: string, date: string, near: number): number {
  let lo = near - 6 * 3_600_000; // still the day before: no zone moves its clock by 6 hours
  let hi = near + 6 * 3_600_000;
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (localDate(tz, mid) >= date) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** Days since the epoch of a 'YYYY-MM-DD' date. */
export function dayNumber(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) / 86_400_000;
}

export function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

export interface LocalRange {
  from: string;
  to: string;
  dates: string[];
  /** dates.length + 1 instants: boundaries[i] starts dates[i]; the last one ends the range. */
  boundaries: number[];
}

/** The `days` local dates ending today in `tz`, with their UTC boundaries. */
export function localRange(tz: string, days: number, now: number): LocalRange {
  const to = localDate(tz, now);
  const from = addDays(to, -(days - 1));
  const dates = Array.from({ length: days }, (_, i) => addDays(from, i));
  const boundaries = [...dates, addDays(to, 1)].map((d) => startOfLocalDay(tz, d));
  return { from, to, dates, boundaries };
}

/**
 * A stretch of quarter-hour buckets over which `tz` keeps one UTC offset: there, the
 * bucket `b` starts on local day number `floor((b + offsetBuckets) / BUCKETS_PER_DAY)`.
 */
export interface OffsetSegment {
  fromBucket: number;
  toBucket: number; // exclusive
  offsetBuckets: number;
}

// Segments by zone and range: they change only when the local date does.
const segmentCache = new LruCache<string, OffsetSegment[]>(5_000);

/**
 * The buckets of `range` cut where the zone's offset changes (DST), so the database can
 * add buckets up into local days with plain integer arithmetic: one segment for most
 * ranges, two or three across DST changes.
 */
export function offsetSegments(tz: string, range: LocalRange): OffsetSegment[] {
  const key = `${tz} ${range.from} ${range.to}`;
  let segments = segmentCache.get(key);
  if (!segments) {
    segments = findSegments(tz, range.boundaries.map(bucketOf));
    segmentCache.set(key, segments);
  }
  return segments;
}

function findSegments(tz: string, bounds: readonly number[]): OffsetSegment[] {
  const offsetOf = (bucket: number) => Math.round(offsetAt(tz, bucketStart(bucket)) / BUCKET_MS);
  const segments: OffsetSegment[] = [];
  let from = bounds[0]!;
  let offset = offsetOf(from);
  for (let i = 1; i < bounds.length; i++) {
    const end = bounds[i]!;
    const endOffset = offsetOf(end);
    // The offset at the day's end differs: it changed during the day. Bisect for the first
    // bucket with another offset (`lo` always has the current one, `hi` another).
    while (endOffset !== offset) {
      let lo = Math.max(from, bounds[i - 1]!);
      let hi = end;
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (offsetOf(mid) === offset) lo = mid;
        else hi = mid;
      }
      segments.push({ fromBucket: from, toBucket: hi, offsetBuckets: offset });
      from = hi;
      offset = offsetOf(hi);
    }
  }
  segments.push({ fromBucket: from, toBucket: bounds.at(-1)!, offsetBuckets: offset });
  return segments.filter((seg) => seg.toBucket > seg.fromBucket);
}
