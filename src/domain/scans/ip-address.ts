// Client IP normalisation shared by the country lookup and the visitor hash, so a
// dual-stack socket's "::ffff:1.2.3.4" and a plain "1.2.3.4" are the same visitor.
import { isIP } from 'node:net';

const MAPPED_DOTTED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;
const MAPPED_HEX = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i;

/** Canonical text form: IPv4-mapped IPv6 unwrapped to IPv4, zone id dropped, lower-case; null when not an IP. */
export function normalizeIp(raw: string): string | null {
  // The common case on every scan, a plain dotted IPv4 address, needs no rewriting.
  if (parseIpv4(raw) >= 0) return raw;
  const ip = raw.trim().replace(/%.*$/, '').toLowerCase();
  const dotted = MAPPED_DOTTED.exec(ip);
  if (dotted?.[1] && isIP(dotted[1]) === 4) return dotted[1];
  const hex = MAPPED_HEX.exec(ip);
  if (hex?.[1] && hex[2]) return hexPairToIpv4(hex[1], hex[2]);
  return isIP(ip) === 0 ? null : ip;
}

function hexPairToIpv4(high: string, low: string): string {
  const h = Number.parseInt(high, 16);
  const l = Number.parseInt(low, 16);
  return [h >> 8, h & 0xff, l >> 8, l & 0xff].join('.');
}

/**
 * Ranges that never locate a person: private, loopback, link-local, CGNAT, benchmarking,
 * documentation, multicast, reserved. Checked with integer masks rather than
 * `net.BlockList`, which costs microseconds per call on the redirect path.
 */
export const NON_PUBLIC_V4_CIDRS: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
];

/** [network, mask] pairs as unsigned 32-bit integers. */
const NON_PUBLIC_V4 = NON_PUBLIC_V4_CIDRS.map(([net, prefix]) => {
  const mask = (~0 << (32 - prefix)) >>> 0;
  return [(parseIpv4(net) & mask) >>> 0, mask] as const;
});

/**
 * A dotted IPv4 address as an unsigned 32-bit integer, or -1 when `s` is not one in the
 * form `net.isIP` accepts (four decimal octets 0–255, no leading zeros). Scans every
 * redirect's client address twice, so it reads characters instead of splitting strings.
 */
export function parseIpv4(s: string): number {
  const len = s.length;
  if (len < 7 || len > 15) return -1;
  let value = 0;
  let octets = 0;
  let i = 0;
  while (octets < 4) {
    const start = i;
    let octet = 0;
    while (i < len) {
      const c = s.charCodeAt(i) - 48;
      if (c < 0 || c > 9) break;
      octet = octet * 10 + c;
      i++;
    }
    const digits = i - start;
    if (digits === 0 || digits > 3 || octet > 255 || (digits > 1 && s.charCodeAt(start) === 48)) return -1;
    value = value * 256 + octet;
    octets++;
    if (octets < 4) {
      if (s.charCodeAt(i) !== 46) return -1; // '.'
      i++;
    }
  }
  return i === len ? value : -1;
}

/** True for a normalised address that can belong to a visitor somewhere on the internet. */
export function isPublicIp(ip: string): boolean {
  const n = parseIpv4(ip);
  if (n >= 0) {
    for (const [net, mask] of NON_PUBLIC_V4) if ((n & mask) >>> 0 === net) return false;
    return true;
  }
  return isIP(ip) === 6 && isGlobalUnicastV6(ip);
}

/** Only 2000::/3 is routed to end users; everything else (ULA, link-local, multicast, ::/8) is not. */
function isGlobalUnicastV6(ip: string): boolean {
  const [first = '', second = ''] = ip.split(':', 2);
  const h1 = Number.parseInt(first || '0', 16);
  const h2 = Number.parseInt(second || '0', 16);
  if ((h1 & 0xe000) !== 0x2000) return false;
  return !(h1 === 0x2001 && h2 === 0x0db8); // documentation prefix
}
