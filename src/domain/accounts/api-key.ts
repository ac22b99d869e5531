// API keys: format, generation and hashing. Keys are shown once; only their
// SHA-256 is stored, and a presented key is found by looking its hash up.
import { createHash, randomBytes } from 'node:crypto';
import { ValidationError } from '../errors.ts';

export const SCOPES = ['qr:read', 'qr:write', 'webhooks:read', 'webhooks:write'] as const;
export type Scope = (typeof SCOPES)[number];

export const KEY_PREFIX = 'qrt_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_LENGTH = 40;
/** How much of the key is kept visible for listings: the prefix plus a few characters. */
const VISIBLE_LENGTH = KEY_PREFIX.length + 6;

export interface NewApiKey {
  key: string;
  prefix: string;
  hash: string;
}

/** Uniform base62 characters from a CSPRNG (rejection sampling: no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function generateApiKey(): NewApiKey {
  const key = KEY_PREFIX + randomBase62(SECRET_LENGTH);
  return { key, prefix: key.slice(0, VISIBLE_LENGTH), hash: hashApiKey(key) };
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Cheap shape check before any lookup: a malformed token is rejected without touching the database. */
export function looksLikeApiKey(token: string): boolean {
  return token.startsWith(KEY_PREFIX) && token.length >= KEY_PREFIX.length + 32 && token.length <= 128 && /^[A-Za-z0-9_]+$/.test(token);
}

export function parseScopes(raw: string): Scope[] {
  const parts = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (parts.length === 0) throw new ValidationError(`scopes: at least one of ${SCOPES.join(', ')} is required`);
  const scopes = new Set<Scope>();
  for (const p of parts) {
    if (!(SCOPES as readonly string[]).includes(p))
      throw new ValidationError(`scopes: unknown scope "${p}" (allowed: ${SCOPES.join(', ')})`);
    scopes.add(p as Scope);
  }
  return SCOPES.filter((s) => scopes.has(s));
}
