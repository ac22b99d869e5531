// Unique-visitor identity without storing who the visitor is: a hash of a daily secret
// salt, the IP and the User-Agent. Once the day's salt is destroyed the hash can no
// longer be tied back to an address, even by us.
import { createHash, hash, randomBytes } from 'node:crypto';
import { normalizeIp } from './ip-address.ts';

/** 16 bytes (32 hex chars): collisions stay negligible within one item's day, and the value is short to index. */
const HASH_BYTES = 16;

/**
 * Truncated SHA-256 of salt, IP and UA. A string salt is hashed as its UTF-8 bytes, as
 * given (a hex string is not decoded), so callers must pass the salt the same way
 * every time. Parts are NUL-separated so no two different inputs run together.
 */
export function visitorHash(salt: Buffer | string, ip: string, userAgent: string): string {
  const address = normalizeIp(ip) ?? ip;
  // The one-shot hash() skips building a Hash object: half the cost of createHash() per scan.
  if (typeof salt === 'string') return hash('sha256', `${salt}\0${address}\0${userAgent}`, 'hex').slice(0, HASH_BYTES * 2);
  return createHash('sha256')
    .update(salt)
    .update(`\0${address}\0${userAgent}`)
    .digest('hex')
    .slice(0, HASH_BYTES * 2);
}

/** A fresh daily salt: 32 bytes from the CSPRNG. */
export function newSalt(): Buffer {
  return randomBytes(32);
}

/** The UTC calendar day, 'YYYY-MM-DD': the window in which unique visitors are counted. */
export { utcDay } from '../stats/scan-buckets.ts';
