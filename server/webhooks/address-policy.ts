import { BlockList, isIP } from "node:net";
import { lookup } from "node:dns/promises";

// Where webhooks may go. Live mode: https, public unicast addresses only. Test mode: http or https, and public
// addresses only too unless the operator allows private ones for local development (WEBHOOK_ALLOW_PRIVATE_URLS).
// Checked after DNS resolution when an endpoint's URL is set, and again before every delivery, which then connects
// to the checked address (no second look-up for DNS to rebind).

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** DNS seam: tests inject their own so no traffic leaves loopback. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

const systemResolver: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

const BLOCKED_IPV4 = [
  ["0.0.0.0", 8], // "this" network
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata (169.254.169.254)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay anycast (deprecated)
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const;

const BLOCKED_IPV6 = [
  ["::", 96], // unspecified, loopback, and the deprecated IPv4-compatible ::a.b.c.d (::7f00:1 is 127.0.0.1)
  ["::ffff:0:0:0", 96], // IPv4-translated ::ffff:0:a.b.c.d (SIIT)
  ["64:ff9b:1::", 48], // local-use NAT64
  ["100::", 64], // discard-only
  ["2001::", 32], // Teredo tunnels
  ["2001:2::", 48], // benchmarking
  ["2001:10::", 28], // ORCHID
  ["2001:20::", 28], // ORCHIDv2
  ["2001:db8::", 32], // documentation
  ["3fff::", 20], // documentation
  ["5f00::", 16], // SRv6 segment identifiers
  ["fc00::", 7], // unique local (includes AWS's fd00:ec2::254 metadata)
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated, still routed inside some networks)
  ["ff00::", 8], // multicast
] as const;

/** 6to4 (2002::/16) carries its IPv4 address in bits 16–47: 10.0.0.0 → 2002:0a00:0000:: */
const sixToFour = (ipv4: string) => {
  const [a, b, c, d] = ipv4.split(".").map(Number);
  return `2002:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}::`;
};

const blocked = new BlockList();
// BlockList also matches IPv4-mapped addresses (::ffff:a.b.c.d, however written) against the IPv4 subnets.
for (const [network, prefix] of BLOCKED_IPV4) {
  blocked.addSubnet(network, prefix, "ipv4");
  blocked.addSubnet(`64:ff9b::${network}`, 96 + prefix, "ipv6"); // NAT64 well-known prefix
  blocked.addSubnet(sixToFour(network), 16 + prefix, "ipv6");
}
for (const [network, prefix] of BLOCKED_IPV6) blocked.addSubnet(network, prefix, "ipv6");

/** True for a public unicast address; false for loopback, private, link-local, metadata, reserved or unparsable. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !blocked.check(address, "ipv4");
  return family === 6 && !blocked.check(address, "ipv6");
}

export class AddressNotAllowedError extends Error {
  /** `https_required`: a live endpoint's URL is plain http; `not_public`: its host is or resolves to a non-public address. */
  readonly reason: "https_required" | "not_public";

  constructor(reason: AddressNotAllowedError["reason"], message: string) {
    super(message);
    this.name = "AddressNotAllowedError";
    this.reason = reason;
  }
}

/**
 * Resolves a host (a URL's hostname: WHATWG parsing has already turned 2130706433, 0x7f.1 and 127.1 into
 * 127.0.0.1) and returns the address to connect to; throws AddressNotAllowedError when the host resolves to nothing
 * or to any non-public address (one bad answer is enough: DNS may rotate between them).
 */
export async function resolvePublicAddress(
  hostname: string,
  resolve: HostResolver = systemResolver,
): Promise<ResolvedAddress> {
  const bare = hostname.replace(/^\[|\]$/g, "");
  const literal = isIP(bare);
  const addresses: ResolvedAddress[] = literal
    ? [{ address: bare, family: literal === 6 ? 6 : 4 }]
    : await resolve(bare).catch(() => []);
  if (addresses.length === 0) throw new AddressNotAllowedError("not_public", `${hostname} does not resolve`);
  // The address itself is not named: the message must not turn into a DNS oracle for internal names.
  if (!addresses.every(({ address }) => isPublicAddress(address)))
    throw new AddressNotAllowedError("not_public", `${hostname} is or resolves to a non-public address`);
  return addresses[0];
}

export interface DestinationPolicy {
  /** WEBHOOK_ALLOW_PRIVATE_URLS=on: test-mode endpoints may reach any address (local development). Never live ones. */
  allowPrivateWebhookUrls?: boolean;
  resolveHost?: HostResolver;
}

/**
 * May an endpoint of `mode` deliver to `url`? The one rule, applied when the URL is set and before every delivery.
 * Resolves to the checked address to connect to, or undefined when any address will do (test mode with private
 * URLs allowed: DNS as usual). Anything but test mode is held to the live rules.
 */
export async function checkDestination(
  url: URL,
  mode: string,
  policy: DestinationPolicy,
): Promise<ResolvedAddress | undefined> {
  if (mode !== "test" && url.protocol !== "https:")
    throw new AddressNotAllowedError("https_required", "live endpoints must use https");
  if (mode === "test" && policy.allowPrivateWebhookUrls) return undefined;
  return resolvePublicAddress(url.hostname, policy.resolveHost);
}
