import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { Hono } from "hono";
import { clientIp } from "./client-ip.ts";

async function addressOf(trustProxy: number, forwardedFor?: string, socket?: string) {
  const app = new Hono();
  app.get("/", (c) => c.text(clientIp(c, trustProxy) ?? "(none)"));
  const env = socket ? { incoming: { socket: { remoteAddress: socket } } } : undefined;
  const response = await app.request("/", { headers: forwardedFor ? { "X-Forwarded-For": forwardedFor } : {} }, env);
  return response.text();
}

describe("client IP", () => {
  it("is the socket address, X-Forwarded-For ignored, when no proxy is trusted", async () => {
    assert.equal(await addressOf(0, "198.51.100.1", "203.0.113.7"), "203.0.113.7");
    assert.equal(await addressOf(0, undefined, "::ffff:203.0.113.7"), "203.0.113.7", "IPv4-mapped IPv6 is unwrapped");
    assert.equal(await addressOf(0, undefined, "2001:db8::1"), "2001:db8::1");
  });

  it("takes the address TRUST_PROXY hops back in X-Forwarded-For, so a client cannot prepend its own", async () => {
    assert.equal(await addressOf(1, "198.51.100.1", "10.0.0.1"), "198.51.100.1");
    assert.equal(await addressOf(1, "6.6.6.6, 198.51.100.1", "10.0.0.1"), "198.51.100.1");
    assert.equal(await addressOf(2, "6.6.6.6, 198.51.100.1, 10.0.0.2", "10.0.0.1"), "198.51.100.1");
    assert.equal(
      await addressOf(3, "198.51.100.1", "10.0.0.1"),
      "198.51.100.1",
      "fewer hops than trusted: the left-most",
    );
    assert.equal(await addressOf(1, undefined, "10.0.0.1"), "10.0.0.1", "no header: the socket");
  });

  it("is unknown without a socket (the Remix mount) unless a trusted proxy names it", async () => {
    assert.equal(await addressOf(0), "(none)");
    assert.equal(await addressOf(0, "198.51.100.1"), "(none)");
    assert.equal(await addressOf(1, "198.51.100.1"), "198.51.100.1");
  });
});
