// Time buckets of the scan roll-ups: quarter hours since the epoch. Every real time
// zone offset is a multiple of 15 minutes, so local days are whole numbers of buckets.
export const BUCKET_MS = 15 * 60 * 1000;

export function bucketOf(ms: number): number {
  return Math.floor(ms / BUCKET_MS);
}

export function bucketStart(bucket: number): number {
  return bucket * BUCKET_MS;
}

export function utcDay(at: Date | number): string {
  return new Date(at).toISOString().slice(0, 10);
}
