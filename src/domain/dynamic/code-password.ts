// A code behind a password: the password is stored only as an argon2id hash (hashed and
// checked on libuv's thread pool, never on the thread answering short links), and a visitor
// who gave it carries a cookie for this one code for 12 hours. The cookie is an HMAC keyed by
// the stored hash itself: no secret to configure or share between processes, and a new
// password ends every cookie made for the old one.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { LruCache } from '../scans/lru-cache.ts';
import { hashPassword, verifyPassword } from '../accounts/password.ts';
import { ValidationError } from '../errors.ts';

import { CODE_PASSWORD_MAX } from './lifecycle.ts';

export { CODE_PASSWORD_MAX, CODE_PASSWORD_MIN } from './lifecycle.ts';
export const PASSWORD_COOKIE_MS = 12 * 3_600_000;
/** Wrong passwords per code and address in a window, then 429 (docs/dynamic-codes.md). */
export const CODE_PASSWORD_LIMITS = { perEmail: 10, perAddress: 100, windowMs: 15 * 60_000 };

export function hashCodePassword(password: string): Promise<string> {
  return hashPassword(password);
}

/** A request's password hashed ahead (on the thread pool; planning is synchronous): absent, removed (null) or its hash. */
export async function passwordOf(body: { password?: string | null }): Promise<{ passwordHash?: string | null }> {
  if (body.password === undefined) return {};
  return { passwordHash: body.password === null ? null : await hashCodePassword(body.password) };
}

/**
 * Distinct passwords one batch or import may set: each argon2id hash holds a thread of libuv's
 * pool (shared with file reads and DNS) for tens of milliseconds, so a thousand different ones
 * would hold it for seconds. Codes of one campaign share a password: it is hashed once.
 */
export const DISTINCT_PASSWORDS_PER_REQUEST = 20;

/** passwordOf for the rows of one batch or import: each distinct password hashed once, at most `max` of them. */
export function passwordHasher(
  max = DISTINCT_PASSWORDS_PER_REQUEST,
): (body: { password?: string | null }) => Promise<{ passwordHash?: string | null }> {
  const hashes = new Map<string, Promise<string>>();
  return async (body) => {
    if (body.password === undefined) return {};
    if (body.password === null) return { passwordHash: null };
    let hash = hashes.get(body.password);
    if (hash === undefined) {
      if (hashes.size >= max)
        throw new ValidationError(`password: at most ${max} different passwords in one request; codes that share one are hashed once`);
      hash = hashCodePassword(body.password);
      hashes.set(body.password, hash);
    }
    return { passwordHash: await hash };
  };
}

/**
 * Right answers remembered for a while, by the stored hash and a SHA-256 of the password: an API
 * client sending X-QR-Password on every request would otherwise cost an argon2id verification
 * each, and hold libuv's thread pool. Wrong ones are never remembered (the limiter counts them).
 */
const RIGHT_ANSWERS = new LruCache<string, number>(2_000);
const REMEMBER_MS = 10 * 60_000;

export async function checkCodePassword(stored: string, given: string, nowMs = Date.now()): Promise<boolean> {
  // The schema bounds stored passwords; a longer guess cannot be right and is not hashed.
  if (given.length > CODE_PASSWORD_MAX * 4) return false;
  const key = `${stored}\n${createHash('sha256').update(given).digest('base64')}`;
  const until = RIGHT_ANSWERS.get(key);
  if (until !== undefined && until > nowMs) return true;
  const right = await verifyPassword(stored, given);
  if (right) RIGHT_ANSWERS.set(key, nowMs + REMEMBER_MS);
  return right;
}

/** The cookie's name: one a code, so a visitor's cookies for two codes never mix. */
export function passwordCookieName(code: string): string {
  return `qrp_${code}`;
}

/** The cookie's value: when it ends and the MAC over the code and that time. */
export function passwordCookieValue(passwordHash: string, code: string, nowMs: number): string {
  const until = nowMs + PASSWORD_COOKIE_MS;
  return `${until}.${mac(passwordHash, code, until)}`;
}

export function passwordCookieValid(passwordHash: string, code: string, value: string | undefined, nowMs: number): boolean {
  if (value === undefined || value.length > 100) return false;
  const dot = value.indexOf('.');
  const until = Number(value.slice(0, dot));
  if (dot < 1 || !Number.isSafeInteger(until) || until <= nowMs || until > nowMs + PASSWORD_COOKIE_MS) return false;
  const given = Buffer.from(value.slice(dot + 1));
  const expected = Buffer.from(mac(passwordHash, code, until));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function mac(passwordHash: string, code: string, until: number): string {
  return createHmac('sha256', passwordHash).update(`${code}.${until}`).digest('base64url');
}

/** One cookie's value from a Cookie header, without parsing the others (this runs on every scan of the code). */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
