import { isIPv6 } from "node:net";

// How a client address becomes a rate-limit bucket (docs/api.md "Rate limits"): an IPv4 address is one bucket; an IPv6
// address counts by its /64 — the smallest network an ISP or cloud hands one customer, who can pick any of its 2^64
// addresses — and an IPv4-mapped IPv6 address (::ffff:a.b.c.d) is its IPv4 address. Anything else (a unix socket's
// empty name, a value we cannot parse) is its own bucket, as before.

/** The bucket of a client address: `a.b.c.d`, or the /64 of an IPv6 address as `2001:db8:0:1::/64`. */
export function addressBucket(address: string): string {
  const bare = address.replace(/%.*$/, "");
  if (!isIPv6(bare)) return address;
  const groups = ipv6Groups(bare);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff)
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join(".");
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail as its two groups). */
function ipv6Groups(address: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const text = dotted
    ? `${address.slice(0, dotted.index)}${((+dotted[1] << 8) | +dotted[2]).toString(16)}:${((+dotted[3] << 8) | +dotted[4]).toString(16)}`
    : address;
  const [head, tail] = text.split("::");
  const parse = (part: string | undefined) => (part ? part.split(":").map((group) => parseInt(group, 16)) : []);
  const [first, last] = [parse(head), parse(tail)];
  return [...first, ...new Array<number>(8 - first.length - last.length).fill(0), ...last];
}
