import { BlockList, isIP } from 'node:net';

/**
 * Which network addresses an outbound fetch made on a client's behalf (a Client ID Metadata Document) may reach:
 * public unicast only. Private, loopback, link-local, unique-local, shared (CGNAT), multicast, reserved and
 * documentation ranges are refused, and so are IPv6 forms that embed an IPv4 address (mapped, compatible,
 * translated, NAT64, 6to4, Teredo), which could smuggle a private one: an IPv6 address must be global unicast
 * (2000::/3) and outside the special ranges in it. Checked on the resolved address, so a public name pointing inside
 * is refused too.
 */

// Two lists: a BlockList matches an IPv4 address against IPv6 rules through its mapped form (::ffff:a.b.c.d), so
// one list holding ::ffff:0:0/96 would refuse every IPv4 address.
// Built on first use, so merely importing the library (the MCP function does) runs nothing.
let lists: { blocked4: BlockList; blocked6: BlockList; global6: BlockList; loopback: BlockList } | undefined;

const IPV4_BLOCKED = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const;

/** Special ranges inside global unicast (2000::/3); everything outside it (::/96, ::ffff:0:0:0/96, fc00::/7…) is
 * refused by not being global unicast. */
const IPV6_BLOCKED = [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
] as const;

function blockLists() {
  if (lists) return lists;
  const blocked4 = new BlockList();
  for (const [net, prefix] of IPV4_BLOCKED) blocked4.addSubnet(net, prefix, 'ipv4');
  const blocked6 = new BlockList();
  for (const [net, prefix] of IPV6_BLOCKED) blocked6.addSubnet(net, prefix, 'ipv6');
  const global6 = new BlockList();
  global6.addSubnet('2000::', 3, 'ipv6');
  const loopback = new BlockList();
  loopback.addSubnet('127.0.0.0', 8, 'ipv4');
  loopback.addAddress('::1', 'ipv6');
  lists = { blocked4, blocked6, global6, loopback };
  return lists;
}

/** Whether an address is a loopback address (127.0.0.0/8 or ::1). */
function isLoopbackAddress(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && blockLists().loopback.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Whether a fetch may connect to `address`. `allowLoopback` (tests and local development only, never in a
 * deployed stack) additionally lets loopback addresses through, and nothing else.
 */
export function isAllowedAddress(address: string, options: { allowLoopback?: boolean } = {}): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (options.allowLoopback && isLoopbackAddress(address)) return true;
  const { blocked4, blocked6, global6 } = blockLists();
  if (family === 4) return !blocked4.check(address, 'ipv4');
  return global6.check(address, 'ipv6') && !blocked6.check(address, 'ipv6');
}
