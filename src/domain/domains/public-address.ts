// The instance's public address: the origin its short links are built on. Asked for at first
// run (prefilled from the browser's location), PUBLIC_BASE_URL overrides it. An address only
// this machine or this network can reach is the commonest first mistake (every printed code
// would open nowhere), so it is named wherever the address shows. Browser-safe: the setup page
// checks the address as it is typed.
import { ValidationError } from '../errors.ts';

/** Where the address in force came from. */
export type AddressSource = 'env' | 'setup' | 'default';

/**
 * An http(s) origin, or a ValidationError naming `field`. The app and the API live at /app/
 * and /v1/ of the site's root, so a path cannot work; a query or fragment means a paste gone wrong.
 */
export function parsePublicAddress(raw: string, field = 'publicBaseUrl'): string {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw new ValidationError(`${field}: must be an address such as https://qr.example.com`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new ValidationError(`${field}: must start with http:// or https://`);
  if (u.username !== '' || u.password !== '') throw new ValidationError(`${field}: must not hold a user name or password`);
  if (u.search !== '' || u.hash !== '' || raw.includes('?') || raw.includes('#'))
    throw new ValidationError(`${field}: must not have a query or fragment`);
  if (u.pathname.replace(/\/+$/, '') !== '')
    throw new ValidationError(`${field}: must be the site's root, without a path (the app lives at /app/ and the API at /v1/)`);
  return u.origin;
}

/** Why phones cannot open codes on this address, or null when it looks public. */
export function addressWarning(origin: string): string | null {
  const host = new URL(origin).hostname.replace(/\.$/, '');
  const reach = reachOf(host);
  if (reach === 'public') return null;
  const what = reach === 'loopback' ? 'only this machine' : 'only this network';
  return `${origin} is an address ${what} can reach: a phone that scans a code cannot open it. Set the public address people will scan (Account → Domains, or PUBLIC_BASE_URL).`;
}

type Reach = 'loopback' | 'private' | 'public';

/** Names and addresses that never reach the public internet. */
export function reachOf(hostname: string): Reach {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  // URL's parser has turned any IPv4 spelling into dotted decimal, and IPv6 into its short form.
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) return ipv4Reach(host);
  if (host.includes(':')) return ipv6Reach(host);
  // A single label (http://nas:3000) resolves only on a local network, as do these suffixes.
  if (!host.includes('.') || /\.(local|lan|home|internal|intranet|corp|home\.arpa)$/.test(host)) return 'private';
  return 'public';
}

function ipv4Reach(ip: string): Reach {
  const [a = 0, b = 0] = ip.split('.').map(Number);
  if (a === 127 || a === 0) return 'loopback';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254)) return 'private';
  if (a === 100 && b >= 64 && b <= 127) return 'private'; // carrier-grade NAT
  return 'public';
}

function ipv6Reach(ip: string): Reach {
  if (ip === '::1' || ip === '::') return 'loopback';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (mapped?.[1]) return ipv4Reach(mapped[1]);
  if (/^::ffff:7f/.test(ip)) return 'loopback';
  if (/^f[cd]/.test(ip) || /^fe[89ab]/.test(ip)) return 'private';
  return 'public';
}
