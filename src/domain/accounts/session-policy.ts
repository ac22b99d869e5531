// How long a session lives, and its CSRF token. The token is derived from the cookie's
// secret, so it needs no storage and is worthless without the cookie it belongs to.
import { createHash } from 'node:crypto';

/** A session unused this long ends. */
export const SESSION_IDLE_MS = 7 * 24 * 3600_000;
/** No session lives longer than this, however busy. */
export const SESSION_ABSOLUTE_MS = 30 * 24 * 3600_000;
/** last_seen_at is written at most this often, so reads do not turn into writes. */
export const SESSION_TOUCH_MS = 5 * 60_000;

export function sessionAlive(createdAt: string, lastSeenAt: string, now: number): boolean {
  return now - Date.parse(lastSeenAt) < SESSION_IDLE_MS && now - Date.parse(createdAt) < SESSION_ABSOLUTE_MS;
}

export function csrfTokenFor(sessionToken: string): string {
  return createHash('sha256').update(`csrf:${sessionToken}`, 'utf8').digest('base64url');
}

/** A first-run setup link; each start of a server without users prints a new one. */
export const SETUP_TTL_MS = 24 * 3600_000;
export const INVITE_TTL_MS = 7 * 24 * 3600_000;
export const RESET_TTL_MS = 24 * 3600_000;
