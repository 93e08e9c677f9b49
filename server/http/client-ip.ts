import type { Context } from "hono";

/** What @hono/node-server passes as `c.env`: the Node request, whose socket has the peer address. */
type NodeBindings = { incoming?: { socket?: { remoteAddress?: string } } } | undefined;

/**
 * The client's IP address: the socket's peer address, or — only when `trustProxy` names how many proxies sit in
 * front of this server — the address that many hops back in `X-Forwarded-For` (each proxy appends the address it
 * received from). Behind fewer hops than claimed, the left-most address is used. Undefined when there is no
 * socket (the Vite dev server's Remix mount) and no trusted header: callers then skip IP-keyed limits rather than lump everyone
 * into one bucket.
 */
export function clientIp(c: Context, trustProxy: number): string | undefined {
  return clientAddress(c.env, c.req.header("x-forwarded-for"), trustProxy);
}

/** clientIp from its parts: @hono/node-server's bindings and the X-Forwarded-For header (the Remix app's pages). */
export function clientAddress(
  bindings: unknown,
  forwardedFor: string | undefined | null,
  trustProxy: number,
): string | undefined {
  const socketAddress = normalise((bindings as NodeBindings)?.incoming?.socket?.remoteAddress);
  if (trustProxy <= 0) return socketAddress;
  const forwarded = (forwardedFor ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  if (forwarded.length === 0) return socketAddress;
  // The chain as this server sees it: client, proxies…, then the peer on the socket (the last proxy).
  const index = forwarded.length - trustProxy;
  return normalise(forwarded[Math.max(0, index)]);
}

/** IPv4 peers of a dual-stack socket appear as ::ffff:a.b.c.d. */
function normalise(address: string | undefined): string | undefined {
  if (!address) return undefined;
  return address.startsWith("::ffff:") && address.includes(".") ? address.slice(7) : address;
}
