// Where deliveries may go. https only, to public addresses; WEBHOOK_ALLOW_PRIVATE=true (an
// operator's choice, for receivers inside their network or tests) also allows http and private,
// loopback and link-local addresses. The URL is checked when saved; the addresses its host
// resolves to are checked again at every delivery (DNS may change: rebinding), and deliveries
// connect to the address that was checked.
import { BlockList, isIP } from 'node:net';
import { ValidationError } from '../errors.ts';
import { NON_PUBLIC_V4_CIDRS } from '../scans/ip-address.ts';
import { URL_MAX } from './webhook-events.ts';

// The same IPv4 ranges that never locate a scanning person: not a public receiver either.
const blocked = new BlockList();
for (const [net, prefix] of NON_PUBLIC_V4_CIDRS) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** An IPv4 address carried inside an IPv6 one (mapped, NAT64, 6to4's first form), else null. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::|::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted?.[1]) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex?.[1] && hex[2]) {
    const hi = Number.parseInt(hex[1], 16);
    const lo = Number.parseInt(hex[2], 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return null;
}

/** Private, loopback, link-local, unspecified, multicast or reserved: not a public receiver. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4 !== null) return blocked.check(v4, 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return true;
}

/** The URL an endpoint is saved with, checked; throws ValidationError naming `field`. */
export function checkWebhookUrl(raw: string, allowPrivate: boolean, field = 'url'): string {
  if (raw.length > URL_MAX) throw new ValidationError(`${field}: must be at most ${URL_MAX} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ValidationError(`${field}: must be an absolute https URL, such as https://example.com/webhooks`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ValidationError(`${field}: must be an https URL (got ${url.protocol.slice(0, -1)})`);
  if (url.protocol === 'http:' && !allowPrivate)
    throw new ValidationError(`${field}: must use https (plain http is allowed only when the server sets WEBHOOK_ALLOW_PRIVATE=true)`);
  if (url.username !== '' || url.password !== '') throw new ValidationError(`${field}: must not carry a user name or password`);
  if (url.hash !== '') throw new ValidationError(`${field}: must not have a #fragment`);
  const host = hostOf(url);
  if (!allowPrivate) {
    if (isIP(host) !== 0 && isPrivateAddress(host))
      throw new ValidationError(
        `${field}: ${host} is a private, loopback or link-local address; receivers must be reachable on the internet`,
      );
    if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal') || !host.includes('.'))
      throw new ValidationError(`${field}: ${host} is not a public host name`);
  }
  return url.toString();
}

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}
