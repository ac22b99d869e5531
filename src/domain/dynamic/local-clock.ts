// Local wall time in an IANA zone, for time and weekday conditions on the redirect hot path.
// Intl gives the zone's offset (DST included); an offset only changes on a whole minute, so
// each zone keeps the offset of the current minute and asks Intl again once a minute at
// most: a scan costs two integer divisions, not a formatToParts (a few µs and an array).
import { offsetAt } from '../stats/time-zones.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

interface ZoneOffset {
  /** Epoch minute the offset was computed for. */
  minute: number;
  offsetMs: number;
}
const offsets = new Map<string, ZoneOffset>();
const last = { tz: '', minute: Number.NaN, offsetMs: 0 };

/** Offset of `tz` from UTC at `nowMs` (east positive), in ms. `tz` must be a valid zone (checkRules made sure). */
export function zoneOffsetMs(tz: string, nowMs: number): number {
  if (tz === 'UTC') return 0;
  const minute = Math.floor(nowMs / MINUTE_MS);
  // Rules of one item tend to share a zone: the last answer is reused without a Map lookup.
  if (tz === last.tz && minute === last.minute) return last.offsetMs;
  let cached = offsets.get(tz);
  if (cached === undefined) {
    cached = { minute: Number.NaN, offsetMs: 0 };
    offsets.set(tz, cached);
  }
  if (cached.minute !== minute) {
    cached.offsetMs = offsetAt(tz, minute * MINUTE_MS);
    cached.minute = minute;
  }
  last.tz = tz;
  last.minute = minute;
  last.offsetMs = cached.offsetMs;
  return cached.offsetMs;
}

/** Minutes since local midnight (0–1439) at `nowMs` in `tz`. */
export function localMinuteOfDay(tz: string, nowMs: number): number {
  const local = Math.floor((nowMs + zoneOffsetMs(tz, nowMs)) / MINUTE_MS);
  return ((local % 1440) + 1440) % 1440;
}

/** Local day of the week at `nowMs` in `tz`: 0 Sunday … 6 Saturday. */
export function localWeekday(tz: string, nowMs: number): number {
  const day = Math.floor((nowMs + zoneOffsetMs(tz, nowMs)) / DAY_MS);
  // 1970-01-01 was a Thursday (4).
  return (((day + 4) % 7) + 7) % 7;
}
