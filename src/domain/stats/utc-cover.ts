// Breakdowns (and the account's top codes) are summed per UTC day, but a range in a time zone
// other than UTC starts and ends at local midnights, inside UTC days. The range is read as the
// UTC days it overlaps, less the quarter hours of those days outside it: at most one part-day
// at each end, so the read stays bounded whatever the range.
import type { DimRow } from './build-stats.ts';
import { BUCKETS_PER_DAY, bucketOf, utcDay } from './scan-buckets.ts';

/** Quarter hours [fromBucket, toBucket). */
export interface BucketSpan {
  fromBucket: number;
  toBucket: number;
}

export interface UtcCover {
  /** The first and last UTC day the range overlaps ('YYYY-MM-DD'). */
  fromDay: string;
  toDay: string;
  /** The quarter hours of fromDay before the range starts, if any. */
  head: BucketSpan | null;
  /** The quarter hours of toDay after the range ends, if any. */
  tail: BucketSpan | null;
}

/** The cover of the instants [start, end) (milliseconds; local midnights are whole quarter hours). */
export function utcCover(start: number, end: number): UtcCover {
  const first = bucketOf(start);
  const last = bucketOf(end - 1) + 1;
  const firstDayStart = Math.floor(first / BUCKETS_PER_DAY) * BUCKETS_PER_DAY;
  const lastDayEnd = Math.ceil(last / BUCKETS_PER_DAY) * BUCKETS_PER_DAY;
  return {
    fromDay: utcDay(start),
    toDay: utcDay(end - 1),
    head: first > firstDayStart ? { fromBucket: firstDayStart, toBucket: first } : null,
    tail: lastDayEnd > last ? { fromBucket: last, toBucket: lastDayEnd } : null,
  };
}

/** The spans of a cover to take off its days' sums. */
export function outsideSpans(cover: UtcCover): BucketSpan[] {
  return [cover.head, cover.tail].filter((s): s is BucketSpan => s !== null);
}

/** The daily rows less the rows of the quarter hours outside the range; values left at 0 go. */
export function withoutOutside(daily: readonly DimRow[], outside: readonly DimRow[]): DimRow[] {
  if (outside.length === 0) return [...daily];
  const less = new Map<string, number>();
  for (const r of outside) less.set(`${r.dim}\u0000${r.value}`, (less.get(`${r.dim}\u0000${r.value}`) ?? 0) + r.scans);
  const out: DimRow[] = [];
  for (const r of daily) {
    const scans = r.scans - (less.get(`${r.dim}\u0000${r.value}`) ?? 0);
    if (scans > 0) out.push({ dim: r.dim, value: r.value, scans });
  }
  return out;
}
