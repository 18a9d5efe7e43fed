/**
 * Which IP addresses a metadata URI may make tongate connect to. A token's `uri` is written by whoever deployed
 * the contract, so without this rule anyone could make tongate reach its own loopback, the LAN, or a cloud's
 * metadata service (169.254.169.254): server-side request forgery. Refused unless the operator allows private
 * addresses (--fetch-metadata-allow-private): loopback, private, shared (CGNAT), link-local, multicast,
 * reserved, unspecified, unique-local and site-local v6, and any v6 form that embeds such a v4 address
 * (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`).
 */
import { BlockList, isIP } from 'node:net';

const V4_REFUSED: Array<[string, number, string]> = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared (CGNAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

const V6_REFUSED: Array<[string, number, string]> = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['fc00::', 7, 'unique-local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
  ['2001:db8::', 32, 'documentation'],
  ['100::', 64, 'discard-only'],
];

const v4Lists = V4_REFUSED.map(([net, prefix, why]) => ({ list: subnet(net, prefix, 'ipv4'), why }));
const v6Lists = V6_REFUSED.map(([net, prefix, why]) => ({ list: subnet(net, prefix, 'ipv6'), why }));

function subnet(net: string, prefix: number, type: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  list.addSubnet(net, prefix, type);
  return list;
}

/** Why `ip` may not be connected to (e.g. "loopback"), or null when it is a public address. Not an IP: refused. */
export function refusedAddressReason(ip: string): string | null {
  const bare = ip.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 4) return v4Lists.find(({ list }) => list.check(bare, 'ipv4'))?.why ?? null;
  if (family !== 6) return 'not an IP address';
  const groups = expandV6(bare);
  const embedded = embeddedV4(groups);
  if (embedded !== null) {
    const why = refusedAddressReason(embedded);
    return why === null ? null : `${why} (IPv4 inside IPv6)`;
  }
  return v6Lists.find(({ list }) => list.check(bare, 'ipv6'))?.why ?? null;
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted v4 part included). */
function expandV6(ip: string): number[] {
  let text = ip.split('%')[0].toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split('.').map(Number);
    text = text.slice(0, -dotted[1].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : new Array(8 - headGroups.length - tailGroups.length).fill('0');
  return [...headGroups, ...zeros, ...tailGroups].map((g) => parseInt(g, 16));
}

/** The IPv4 address an IPv6 address stands for, if it is one of the forms that carry one. */
function embeddedV4(g: number[]): string | null {
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  const zeroPrefix = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroPrefix(5) && g[5] === 0xffff) return v4(g[6], g[7]); // ::ffff:a.b.c.d, IPv4-mapped
  if (zeroPrefix(6) && (g[6] !== 0 || g[7] > 1)) return v4(g[6], g[7]); // ::a.b.c.d, IPv4-compatible (deprecated)
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4(g[6], g[7]); // NAT64
  if (g[0] === 0x2002) return v4(g[1], g[2]); // 6to4
  return null;
}
