// Local days in an IANA time zone, as UTC instants. Uses Intl (full ICU ships with Node).
import { ValidationError } from '../errors.ts';

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Validates an IANA zone name and returns it as given (ICU would rename some, e.g. Kathmandu → Katmandu). */
export function checkTimeZone(tz: string): string {
  if (!/^[A-Za-z0-9_+\-/]{1,64}$/.test(tz)) throw new ValidationError('tz: must be an IANA time zone such as Europe/Berlin');
  try {
    formatter(tz);
    return tz;
  } catch {
    throw new ValidationError('tz: must be an IANA time zone such as Europe/Berlin');
  }
}

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** Offset of `tz` from UTC at instant `ms`, in milliseconds (east positive). */
function offsetAt(tz: string, ms: number): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(tz).formatToParts(new Date(ms))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** 'YYYY-MM-DD' of instant `ms` in `tz`. */
export function localDate(tz: string, ms: number): string {
  return new Date(ms + offsetAt(tz, ms)).toISOString().slice(0, 10);
}

/** The UTC instant of local midnight starting `date` in `tz` (DST-safe: re-checks the offset once). */
export function startOfLocalDay(tz: string, date: string): number {
  const naive = Date.parse(`${date}T00:00:00Z`);
  let guess = naive - offsetAt(tz, naive);
  guess = naive - offsetAt(tz, guess);
  return guess;
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
