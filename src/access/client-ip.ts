/**
 * Who a keyless client is, for the 1 request/s rule: its IPv4 address, or its IPv6 /64 network
 * (one subscriber usually holds a whole /64, so per-address limits would be trivially bypassed).
 * IPv4-mapped IPv6 (::ffff:1.2.3.4, what dual-stack sockets report) is the IPv4 address.
 * The address given is already the right one: behind trusted proxies the HTTP layer resolves it.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** A stable identity string for an address; anything unparseable shares the one "unknown" identity. */
export function clientIdentity(ip: string | undefined): string {
  if (!ip) return 'unknown';
  if (ip.indexOf(':') === -1) return isIPv4(ip) ? ip : 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  const zoneless = ip.replace(/%.*$/, '');
  if (!isIPv6(zoneless)) return 'unknown';
  return `${ipv6Prefix64(zoneless)}::/64`;
}

/** The first four 16-bit groups of a valid IPv6 address, lowercase, without leading zeros. */
function ipv6Prefix64(ip: string): string {
  const [head, tail] = ip.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  let groups: string[];
  if (tail === undefined) {
    groups = headGroups;
  } else {
    const tailGroups = tail === '' ? [] : tail.split(':');
    // An embedded IPv4 tail counts as two groups; it only matters for the length, never the /64.
    const tailLength = tailGroups.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
    groups = [...headGroups, ...Array<string>(8 - headGroups.length - tailLength).fill('0'), ...tailGroups];
  }
  return groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':');
}
