// The key a per-address limit counts under. An IPv6 host is handed a whole /64 (2^64
// addresses), so keying on the full address let one host take a fresh address per request:
// IPv6 is keyed by its /64. An IPv4-mapped IPv6 address (::ffff:1.2.3.4) is its IPv4 address.
import net from 'node:net';

export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1] as string;
  if (net.isIPv6(address)) return `${ipv6Prefix64(address)}::/64`;
  return address;
}

/** The first four groups of an IPv6 address, without leading zeros ("2001:db8:0:1"). */
function ipv6Prefix64(address: string): string {
  const bare = address.split('%')[0] as string; // a zone index (fe80::1%eth0) is not part of the address
  const [head = '', tail] = bare.split('::') as [string, string | undefined];
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  // An embedded IPv4 tail (::1.2.3.4) is two groups; only the first four groups matter here.
  const tailCount = tailGroups.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const groups =
    tail === undefined ? headGroups : [...headGroups, ...Array<string>(8 - headGroups.length - tailCount).fill('0'), ...tailGroups];
  return groups
    .slice(0, 4)
    .map((g) => (g.includes('.') ? '0' : (parseInt(g, 16) || 0).toString(16)))
    .join(':');
}
