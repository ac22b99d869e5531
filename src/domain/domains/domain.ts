// Custom domains: a hostname an account claims for its short links (qr.acme.com/r/…). It is
// verified by a TXT record at _qrtrack.<hostname> holding a random value we give, and re-checked
// on a timer; only an active domain serves anything. The server never fetches the domain itself:
// a DNS TXT lookup is the whole check.
import { isIP } from 'node:net';
import { randomBase62 } from '../accounts/api-key.ts';
import { ValidationError } from '../errors.ts';

export type DomainStatus = 'pending' | 'active' | 'failed';

export interface Domain {
  id: string;
  accountId: string;
  hostname: string;
  status: DomainStatus;
  /** The record to create: its name and the value it must hold. */
  verification: { name: string; value: string };
  isDefault: boolean;
  /** Where an unknown or deleted code on this domain sends its visitor; null: a 404/410 page. */
  fallbackUrl: string | null;
  /** Where `GET /` on this domain sends its visitor; null: 404. */
  rootRedirect: string | null;
  /** Why the last check did not verify it; null after a success. */
  lastError: string | null;
  createdAt: string;
  verifiedAt: string | null;
  checkedAt: string | null;
}

export const VERIFICATION_PREFIX = '_qrtrack.';
const TOKEN_PREFIX = 'qrtrack-verify=';
/** Domains one account may hold. */
export const DOMAINS_PER_ACCOUNT = 50;
/** A pending domain is re-checked on the timer this long, then marked failed (verify still works). */
export const PENDING_CHECK_MS = 7 * 24 * 3600_000;
/** An active domain whose record is gone this many checks in a row stops serving (a DNS hiccup is no reason). */
export const MISSES_BEFORE_FAILED = 3;

export function verificationName(hostname: string): string {
  return `${VERIFICATION_PREFIX}${hostname}`;
}

export function newVerificationValue(): string {
  return TOKEN_PREFIX + randomBase62(32);
}

/**
 * A hostname as an account gives it, normalised (lower case, no trailing dot) or refused: DNS
 * names of at least two labels, no IP address, no port, no scheme.
 */
export function normaliseHostname(raw: string, field = 'hostname'): string {
  const host = raw.trim().toLowerCase().replace(/\.$/, '');
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(host) || host.includes('/'))
    throw new ValidationError(`${field}: give the hostname only (qr.example.com), without https:// or a path`);
  if (host.includes(':')) throw new ValidationError(`${field}: give the hostname without a port`);
  if (isIP(host) !== 0) throw new ValidationError(`${field}: must be a domain name, not an IP address`);
  if (host.length > 253) throw new ValidationError(`${field}: must be at most 253 characters`);
  const labels = host.split('.');
  if (labels.length < 2) throw new ValidationError(`${field}: must be a full domain name such as qr.example.com`);
  for (const label of labels) {
    if (!/^(?!-)[a-z0-9-]{1,63}(?<!-)$/.test(label))
      throw new ValidationError(
        `${field}: "${label}" is not a valid part of a domain name (letters, digits and inner hyphens; 1 to 63 characters)`,
      );
  }
  if (/^[0-9]+$/.test(labels.at(-1) ?? '')) throw new ValidationError(`${field}: must end in a top-level domain, not a number`);
  return host;
}

/** An absolute http(s) URL for a domain's fallback or root redirect. */
export function checkRedirectUrl(raw: string, field: string, hostname: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ValidationError(`${field}: must be an absolute http(s) URL`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new ValidationError(`${field}: must be an absolute http(s) URL`);
  // Back to the same domain would loop: the root or an unknown code answering with itself.
  if (u.hostname.replace(/\.$/, '') === hostname) throw new ValidationError(`${field}: must lead away from ${hostname}, or it would loop`);
  return u.href;
}

export type TxtAnswer = { found: 'match' } | { found: 'none' } | { found: 'other'; values: string[] } | { found: 'error'; error: string };

/** What a check found, and what the domain becomes. */
export interface CheckOutcome {
  status: DomainStatus;
  misses: number;
  lastError: string | null;
  verified: boolean;
}

/**
 * The next state after a check. Pending becomes active on a match; an active domain survives
 * lookup errors and stops serving only after MISSES_BEFORE_FAILED checks in a row found the
 * record gone (printed codes must not die of one DNS hiccup); a failed domain comes back on a match.
 */
export function afterCheck(
  current: { status: DomainStatus; misses: number; createdAt: string },
  answer: TxtAnswer,
  hostname: string,
  nowMs: number,
): CheckOutcome {
  if (answer.found === 'match') return { status: 'active', misses: 0, lastError: null, verified: true };
  const lastError =
    answer.found === 'error'
      ? `the DNS lookup of ${verificationName(hostname)} failed: ${answer.error}`
      : answer.found === 'none'
        ? `no TXT record found at ${verificationName(hostname)}`
        : `the TXT record at ${verificationName(hostname)} holds another value`;
  if (current.status === 'active') {
    if (answer.found === 'error') return { status: 'active', misses: current.misses, lastError, verified: false };
    const misses = current.misses + 1;
    return { status: misses >= MISSES_BEFORE_FAILED ? 'failed' : 'active', misses, lastError, verified: false };
  }
  if (current.status === 'pending' && nowMs - Date.parse(current.createdAt) > PENDING_CHECK_MS)
    return { status: 'failed', misses: 0, lastError, verified: false };
  return { status: current.status, misses: 0, lastError, verified: false };
}

/** Whether one of a TXT lookup's records (each a list of chunks) is the expected value. */
export function txtAnswerOf(records: readonly (readonly string[])[], expected: string): TxtAnswer {
  const values = records.map((chunks) => chunks.join(''));
  if (values.some((v) => v.trim() === expected)) return { found: 'match' };
  return values.length === 0 ? { found: 'none' } : { found: 'other', values };
}
