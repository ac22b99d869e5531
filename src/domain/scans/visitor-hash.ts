// Unique-visitor identity without storing who the visitor is: a hash of a daily secret
// salt, the IP and the User-Agent. Once the day's salt is destroyed the hash can no
// longer be tied back to an address, even by us.
import { createHash, randomBytes } from 'node:crypto';
import { normalizeIp } from './ip-address.ts';

/** 16 bytes (32 hex chars): collisions stay negligible within one item's day, and the value is short to index. */
const HASH_BYTES = 16;

/**
 * Truncated SHA-256 of salt, IP and UA. A string salt is hashed as its UTF-8 bytes, as
 * given (a hex string is not decoded), so callers must pass the salt the same way
 * every time. Parts are NUL-separated so no two different inputs run together.
 * On the redirect path: one update of one string costs half of five updates.
 */
export function visitorHash(salt: Buffer | string, ip: string, userAgent: string): string {
  const address = normalizeIp(ip) ?? ip;
  const hash = createHash('sha256');
  if (typeof salt === 'string') hash.update(`${salt}\0${address}\0${userAgent}`);
  else hash.update(salt).update(`\0${address}\0${userAgent}`);
  return hash.digest('hex').slice(0, HASH_BYTES * 2);
}

/** A fresh daily salt: 32 bytes from the CSPRNG. */
export function newSalt(): Buffer {
  return randomBytes(32);
}

/** The UTC calendar day, 'YYYY-MM-DD': the window in which unique visitors are counted. */
export { utcDay } from '../stats/scan-buckets.ts';
