// When an API key stops working: at its own expiry, or at the end of the grace period a
// rotation gave it (product-decisions §12). Plain functions of the stored fields and a clock.
import { ValidationError } from '../errors.ts';
import { parseInstant } from '../dynamic/date-time.ts';

const DAY_SECONDS = 86_400;
/** How long a rotated key may keep working beside its successor: 0 to 7 days, 1 day by default. */
export const ROTATION_GRACE_MAX_SECONDS = 7 * DAY_SECONDS;
export const ROTATION_GRACE_DEFAULT_SECONDS = DAY_SECONDS;

export const KEY_STATUSES = ['active', 'rotated', 'expired', 'revoked'] as const;
/** `rotated`: replaced by a successor and still working until its grace period ends. */
export type KeyStatus = (typeof KEY_STATUSES)[number];

export interface KeyLife {
  revokedAt: string | null;
  expiresAt: string | null;
  replacedBy: string | null;
}

export function keyStatus(k: KeyLife, nowMs: number): KeyStatus {
  if (k.revokedAt !== null) return 'revoked';
  if (k.expiresAt !== null && nowMs >= Date.parse(k.expiresAt)) return 'expired';
  return k.replacedBy !== null ? 'rotated' : 'active';
}

/** Why a key is refused (the 401's error), or null while it works. */
export function keyRefusal(k: KeyLife, nowMs: number): string | null {
  switch (keyStatus(k, nowMs)) {
    case 'revoked':
      return 'API key has been revoked';
    case 'expired':
      return k.replacedBy !== null
        ? `API key expired: it was rotated and its grace period ended at ${k.expiresAt}; use the key that replaced it`
        : `API key expired at ${k.expiresAt}`;
    default:
      return null;
  }
}

/** A new key's expiry: an ISO date-time in the future, normalised to UTC; null or absent: never. */
export function checkKeyExpiry(value: unknown, nowMs: number, field = 'expiresAt'): string | null {
  if (value === undefined || value === null) return null;
  const ms = parseInstant(value, field);
  if (ms <= nowMs) throw new ValidationError(`${field}: must be in the future`);
  return new Date(ms).toISOString();
}

/** When a key rotated now stops: after the grace period, or at its own expiry if that comes first. */
export function graceEnd(nowMs: number, graceSeconds: number, expiresAt: string | null): string {
  if (!Number.isInteger(graceSeconds) || graceSeconds < 0 || graceSeconds > ROTATION_GRACE_MAX_SECONDS) {
    throw new ValidationError(`graceSeconds: must be an integer from 0 to ${ROTATION_GRACE_MAX_SECONDS} (7 days)`);
  }
  const end = nowMs + graceSeconds * 1000;
  return new Date(expiresAt === null ? end : Math.min(end, Date.parse(expiresAt))).toISOString();
}

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: DAY_SECONDS };

/** The CLI's durations: `0`, or a whole number with s, m, h or d (`90d`, `12h`). */
export function parseDurationSeconds(raw: string, what: string): number {
  if (raw === '0') return 0;
  const m = /^(\d{1,6})([smhd])$/.exec(raw.trim());
  if (m === null) throw new ValidationError(`${what}: must be a duration such as 12h, 1d or 90d, got "${raw}"`);
  return Number(m[1]) * (UNIT_SECONDS[m[2] as string] as number);
}
