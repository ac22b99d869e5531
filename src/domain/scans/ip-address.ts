// Client IP normalisation shared by the country lookup and the visitor hash, so a
// dual-stack socket's "::ffff:1.2.3.4" and a plain "1.2.3.4" are the same visitor.
import { BlockList, isIP } from 'node:net';

const MAPPED_DOTTED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;
const MAPPED_HEX = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i;

/** Canonical text form: IPv4-mapped IPv6 unwrapped to IPv4, zone id dropped, lower-case; null when not an IP. */
export function normalizeIp(raw: string): string | null {
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

/** Ranges that never locate a person: private, loopback, link-local, CGNAT, documentation, multicast. */
const NON_PUBLIC = buildNonPublic();

function buildNonPublic(): BlockList {
  const list = new BlockList();
  const v4: [string, number][] = [
    ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16],
    ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
    ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
  ];
  const v6: [string, number][] = [
    ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['2001:db8::', 32], ['64:ff9b:1::', 48],
  ];
  for (const [net, prefix] of v4) list.addSubnet(net, prefix, 'ipv4');
  for (const [net, prefix] of v6) list.addSubnet(net, prefix, 'ipv6');
  return list;
}

/** True for a normalised address that can belong to a visitor somewhere on the internet. */
export function isPublicIp(ip: string): boolean {
  const family = isIP(ip);
  if (family === 0) return false;
  return !NON_PUBLIC.check(ip, family === 4 ? 'ipv4' : 'ipv6');
}
