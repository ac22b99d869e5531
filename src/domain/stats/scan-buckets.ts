// Time buckets of the scan roll-ups: quarter hours since the epoch. Every real time
// zone offset is a multiple of 15 minutes, so local days are whole numbers of buckets.
export const BUCKET_MS = 15 * 60 * 1000;
export const BUCKETS_PER_DAY = 96;

export function bucketOf(ms: number): number {
  return Math.floor(ms / BUCKET_MS);
}

export function bucketStart(bucket: number): number {
  return bucket * BUCKET_MS;
}

export function utcDay(at: Date | number): string {
  return isoTimestamp(typeof at === 'number' ? at : at.getTime()).slice(0, 10);
}

// V8 formats Date#toISOString through snprintf (about 7,000 instructions, a few percent of a
// whole redirect), so the part up to the second is formatted once per second and reused.
let cachedSecond = Number.NaN;
let cachedPrefix = '';

/** `new Date(ms).toISOString()`, cheaper when called many times within one second. */
export function isoTimestamp(ms: number): string {
  if (!Number.isInteger(ms)) return new Date(ms).toISOString(); // fractional or invalid: as Date does
  const second = Math.floor(ms / 1000);
  const milli = ms - second * 1000;
  if (second !== cachedSecond) {
    const iso = new Date(second * 1000).toISOString();
    // Only the plain 4-digit-year form "YYYY-MM-DDTHH:MM:SS.000Z" has a fixed prefix.
    if (iso.length !== 24) return new Date(ms).toISOString();
    cachedPrefix = iso.slice(0, 20);
    cachedSecond = second;
  }
  return `${cachedPrefix}${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}
