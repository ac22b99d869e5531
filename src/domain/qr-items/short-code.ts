// Short codes: 7 base62 characters from a CSPRNG (62^7 ≈ 3.5e12). Uniqueness is
// enforced by the database; callers retry on the rare conflict.
import { randomBase62 } from '../accounts/api-key.ts';

export const CODE_LENGTH = 7;
const CODE_RE = /^[A-Za-z0-9]{7}$/;

export function generateShortCode(): string {
  return randomBase62(CODE_LENGTH);
}

export function isShortCode(s: string): boolean {
  return CODE_RE.test(s);
}

export function shortUrlFor(publicBaseUrl: string, code: string): string {
  return `${publicBaseUrl}/r/${code}`;
}

/** Where short links live: the instance's public address, or one of an account's domains. */
export interface LinkAddresses {
  /** The origin a code's short link is built on; null: the instance's address. */
  baseFor(domainId: string | null): string;
  /** The domain's hostname, for the item's `domain`; null: the instance's address. */
  hostnameOf(domainId: string | null): string | null;
}

/**
 * Where short links live as plain data, which crosses to a read worker: the instance's address,
 * and each domain's origin and hostname by id.
 */
export interface LinkAddressTable {
  publicBaseUrl: string;
  domains: Record<string, { base: string; hostname: string }>;
}

export function linkAddressesFrom(table: LinkAddressTable): LinkAddresses {
  return {
    baseFor: (domainId) => (domainId === null ? undefined : table.domains[domainId]?.base) ?? table.publicBaseUrl,
    hostnameOf: (domainId) => (domainId === null ? null : (table.domains[domainId]?.hostname ?? null)),
  };
}

/** An item's short link: on its domain when it has one. */
export function shortUrlOf(item: { code: string; domainId: string | null }, addresses: LinkAddresses): string {
  return shortUrlFor(addresses.baseFor(item.domainId), item.code);
}

/**
 * Whether `href` (an http(s) URL) is one of our own short links. Scheme and port are
 * ignored on purpose: `http://` to an https service still lands on /r/ after its upgrade,
 * and an item that redirects to a short link of ours counts every hop as a scan.
 */
export function isOwnShortLink(href: string, publicBaseUrl: string): boolean {
  let target: URL;
  let base: URL;
  try {
    target = new URL(href);
    base = new URL(publicBaseUrl);
  } catch {
    return false;
  }
  const prefix = `${base.pathname.replace(/\/+$/, '')}/r/`.toLowerCase();
  return sameHost(target.hostname, base.hostname) && decodeURIComponentSafe(target.pathname).toLowerCase().startsWith(prefix);
}

/**
 * Host names that reach the same server: a trailing dot (the fully qualified form) changes
 * nothing, and every loopback name is this machine. The URL parser already lower-cases and
 * turns 0x7f000001 into 127.0.0.1.
 */
function sameHost(a: string, b: string): boolean {
  const plain = (h: string) => h.replace(/\.$/, '');
  return plain(a) === plain(b) || (isLoopback(plain(a)) && isLoopback(plain(b)));
}

/** This machine by any name: localhost, 127/8, ::1, the IPv4-mapped 127/8, and the unspecified 0.0.0.0 and :: (which reach it too). */
function isLoopback(host: string): boolean {
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127\.\d+\.\d+\.\d+$/.test(host) ||
    host === '0.0.0.0' ||
    host === '[::1]' ||
    host === '[::]' ||
    /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host)
  );
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
