import { BlockList, isIP } from "node:net";
import { lookup } from "node:dns/promises";

// Where live-mode webhooks may go: public unicast addresses only. Checked after DNS resolution, when an endpoint
// is created or its URL changed, and again before every live delivery (which then connects to the checked address).

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** DNS seam: tests inject their own so no traffic leaves loopback. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));

const blocked = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this" network
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata (169.254.169.254)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) blocked.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["fc00::", 7], // unique local (includes AWS's fd00:ec2::254 metadata)
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
  ["2001:db8::", 32], // documentation
] as const) blocked.addSubnet(network, prefix, "ipv6");

/** An IPv4 address carried inside IPv6 (::ffff:a.b.c.d, ::a.b.c.d, NAT64 64:ff9b::/96), else undefined. */
function embeddedIpv4(address: string): string | undefined {
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return undefined;
  const high = parseInt(hex[1], 16);
  const low = parseInt(hex[2], 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

/** True for a public unicast address; false for loopback, private, link-local, metadata, reserved or unparsable. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !blocked.check(address, "ipv4");
  if (family !== 6) return false;
  const inner = embeddedIpv4(address);
  if (inner !== undefined) return isPublicAddress(inner);
  return !blocked.check(address, "ipv6");
}

export class AddressNotAllowedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AddressNotAllowedError";
  }
}

/**
 * Resolves a live endpoint's host and returns the address to connect to; throws AddressNotAllowedError when the
 * host resolves to nothing or to any non-public address (one bad answer is enough: DNS may rotate between them).
 */
export async function resolvePublicAddress(hostname: string, resolve: HostResolver = systemResolver): Promise<ResolvedAddress> {
  const bare = hostname.replace(/^\[|\]$/g, "");
  const literal = isIP(bare);
  const addresses: ResolvedAddress[] = literal ? [{ address: bare, family: literal === 6 ? 6 : 4 }] : await resolve(bare);
  if (addresses.length === 0) throw new AddressNotAllowedError(`${hostname} does not resolve`);
  const refused = addresses.find(({ address }) => !isPublicAddress(address));
  if (refused) throw new AddressNotAllowedError(`${hostname} resolves to ${refused.address}, which is not a public address`);
  return addresses[0];
}
