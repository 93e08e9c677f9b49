import { describe, it } from "vitest";
import assert from "node:assert/strict";
import {
  AddressNotAllowedError,
  checkDestination,
  isPublicAddress,
  resolvePublicAddress,
  type ResolvedAddress,
} from "./address-policy.ts";

/** A resolver for IP literals, which must never be looked up. */
const noDns = async (host: string): Promise<ResolvedAddress[]> => assert.fail(`DNS asked for ${host}`);

/** How an endpoint URL may spell a loopback, private or metadata address; each goes through WHATWG URL parsing first. */
const REFUSED: [string, string][] = [
  ["loopback", "http://127.0.0.1/"],
  ["loopback, decimal", "http://2130706433/"],
  ["loopback, hex", "http://0x7f000001/"],
  ["loopback, hex and short", "http://0x7f.1/"],
  ["loopback, octal", "http://0177.0.0.1/"],
  ["loopback, octal as one number", "http://017700000001/"],
  ["loopback, short", "http://127.1/"],
  ["loopback, percent-encoded", "http://%31%32%37.0.0.1/"],
  ["loopback, ideographic full stops", "http://127\u30020\u30020\u30021/"],
  ["loopback, trailing dot", "http://127.0.0.1./"],
  ["this network", "http://0/"],
  ["private 10/8", "http://10.0.0.1/"],
  ["private 10/8, decimal", "http://167772161/"],
  ["private 172.16/12", "http://172.16.0.1/"],
  ["private 192.168/16, hex", "http://0xc0a80101/"],
  ["carrier-grade NAT", "http://100.64.0.1/"],
  ["metadata", "http://169.254.169.254/"],
  ["metadata, decimal", "http://2852039166/"],
  ["metadata, hex octets", "http://0xa9.0xfe.0xa9.0xfe/"],
  ["IPv6 loopback", "http://[::1]/"],
  ["IPv6 loopback, long", "http://[0:0:0:0:0:0:0:1]/"],
  ["IPv6 unspecified", "http://[::]/"],
  ["IPv4-compatible loopback", "http://[::7f00:1]/"],
  ["IPv4-compatible loopback, dotted", "http://[::127.0.0.1]/"],
  ["IPv4-mapped loopback", "http://[::ffff:7f00:1]/"],
  ["IPv4-mapped loopback, dotted", "http://[::ffff:127.0.0.1]/"],
  ["IPv4-mapped loopback, long and dotted", "http://[0:0:0:0:0:ffff:127.0.0.1]/"],
  ["IPv4-mapped metadata", "http://[::ffff:a9fe:a9fe]/"],
  ["IPv4-mapped private", "http://[::ffff:10.0.0.1]/"],
  ["IPv4-translated loopback", "http://[::ffff:0:7f00:1]/"],
  ["IPv4-translated public (SIIT is never a receiver)", "http://[::ffff:0:808:808]/"],
  ["NAT64 loopback", "http://[64:ff9b::7f00:1]/"],
  ["NAT64 loopback, dotted", "http://[64:ff9b::127.0.0.1]/"],
  ["NAT64 metadata", "http://[64:ff9b::a9fe:a9fe]/"],
  ["NAT64 private", "http://[64:ff9b::10.0.0.1]/"],
  ["local-use NAT64", "http://[64:ff9b:1::a00:1]/"],
  ["local-use NAT64 of a public address", "http://[64:ff9b:1::808:808]/"],
  ["6to4 over loopback", "http://[2002:7f00:1::]/"],
  ["6to4 over private 10/8", "http://[2002:a00:1::1]/"],
  ["6to4 over 192.168/16", "http://[2002:c0a8:101::1]/"],
  ["6to4 over metadata", "http://[2002:a9fe:a9fe::1]/"],
  ["Teredo", "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/"],
  ["IPv6 link-local", "http://[fe80::1]/"],
  ["IPv6 site-local", "http://[fec0::1]/"],
  ["IPv6 unique local (AWS metadata)", "http://[fd00:ec2::254]/"],
  ["IPv6 multicast", "http://[ff02::1]/"],
  ["IPv6 documentation", "http://[2001:db8::1]/"],
  ["IPv6 discard-only", "http://[100::1]/"],
];

const ALLOWED: [string, string][] = [
  ["public IPv4", "http://93.184.216.34/"],
  ["public IPv4, decimal", "http://134744072/"],
  ["just outside 172.16/12", "http://172.32.0.1/"],
  ["just outside carrier-grade NAT", "http://100.128.0.1/"],
  ["public IPv6", "http://[2606:4700:4700::1111]/"],
  ["IPv4-mapped public", "http://[::ffff:8.8.8.8]/"],
  ["NAT64 of a public address", "http://[64:ff9b::808:808]/"],
  ["6to4 over a public address", "http://[2002:808:808::1]/"],
];

describe("webhook address policy", () => {
  for (const [what, url] of REFUSED) {
    it(`refuses ${what}: ${url}`, async () => {
      const { hostname } = new URL(url);
      await assert.rejects(
        resolvePublicAddress(hostname, noDns),
        (error: unknown) => error instanceof AddressNotAllowedError && error.reason === "not_public",
      );
    });
  }

  for (const [what, url] of ALLOWED) {
    it(`allows ${what}: ${url}`, async () => {
      const { hostname } = new URL(url);
      const address = await resolvePublicAddress(hostname, noDns);
      assert.equal(address.address, hostname.replace(/^\[|\]$/g, ""));
    });
  }

  it("refuses every reserved range", () => {
    for (const address of [
      "192.0.0.1",
      "192.0.2.1",
      "192.88.99.1",
      "198.18.0.1",
      "198.19.255.1",
      "198.51.100.1",
      "203.0.113.1",
      "224.0.0.1",
      "239.255.255.250",
      "240.0.0.1",
      "255.255.255.255",
      "2001:2::1",
      "2001:10::1",
      "2001:20::1",
      "3fff::1",
      "5f00::1",
    ])
      assert.equal(isPublicAddress(address), false, address);
  });

  it("judges addresses however a resolver writes them, zone index included; anything unparsable is not public", () => {
    for (const address of [
      "0:0:0:0:0:ffff:127.0.0.1",
      "0000:0000:0000:0000:0000:0000:0000:0001",
      "2002:0a00:0001:0000:0000:0000:0000:0001",
      "64:ff9b::10.1.2.3",
      "FE80::1",
      "fe80::1%eth0",
      "not-an-ip",
      "",
    ]) {
      assert.equal(isPublicAddress(address), false, address);
    }
    for (const address of ["8.8.8.8", "2606:4700:4700:0000:0000:0000:0000:1111", "::FFFF:8.8.8.8"])
      assert.equal(isPublicAddress(address), true, address);
  });

  it("a host is refused when any of its addresses is not public, or when it does not resolve", async () => {
    const resolver = async (host: string): Promise<ResolvedAddress[]> => {
      if (host === "down.example.test") throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
      if (host === "mixed.example.test")
        return [
          { address: "93.184.216.34", family: 4 },
          { address: "10.1.2.3", family: 4 },
        ];
      return host === "good.example.test" ? [{ address: "93.184.216.34", family: 4 }] : [];
    };
    await assert.rejects(resolvePublicAddress("mixed.example.test", resolver), {
      message: "mixed.example.test is or resolves to a non-public address",
    });
    await assert.rejects(resolvePublicAddress("nothing.example.test", resolver), {
      message: "nothing.example.test does not resolve",
    });
    await assert.rejects(resolvePublicAddress("down.example.test", resolver), {
      message: "down.example.test does not resolve",
    });
    assert.deepEqual(await resolvePublicAddress("good.example.test", resolver), {
      address: "93.184.216.34",
      family: 4,
    });
  });

  it("decides per mode: live needs https and a public address even when private URLs are allowed; test mode needs a public address unless they are", async () => {
    const loopback = new URL("http://127.0.0.1:8080/hooks");
    const httpsLoopback = new URL("https://127.0.0.1/hooks");
    const isReason = (reason: string) => (error: unknown) =>
      error instanceof AddressNotAllowedError && error.reason === reason;
    await assert.rejects(checkDestination(loopback, "test", { resolveHost: noDns }), isReason("not_public"));
    await assert.rejects(
      checkDestination(loopback, "test", { allowPrivateWebhookUrls: false, resolveHost: noDns }),
      isReason("not_public"),
    );
    assert.equal(
      await checkDestination(loopback, "test", { allowPrivateWebhookUrls: true, resolveHost: noDns }),
      undefined,
      "any address, DNS as usual",
    );
    await assert.rejects(
      checkDestination(loopback, "live", { allowPrivateWebhookUrls: true, resolveHost: noDns }),
      isReason("https_required"),
    );
    await assert.rejects(
      checkDestination(httpsLoopback, "live", { allowPrivateWebhookUrls: true, resolveHost: noDns }),
      isReason("not_public"),
    );
    const publicHost = async () => [{ address: "93.184.216.34", family: 4 as const }];
    assert.deepEqual(
      await checkDestination(new URL("http://hooks.example.test/"), "test", { resolveHost: publicHost }),
      { address: "93.184.216.34", family: 4 },
      "test mode may use http",
    );
    assert.deepEqual(
      await checkDestination(new URL("https://hooks.example.test/"), "live", { resolveHost: publicHost }),
      { address: "93.184.216.34", family: 4 },
    );
  });
});
