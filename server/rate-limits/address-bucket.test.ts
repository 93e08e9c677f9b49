import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { addressBucket } from "./address-bucket.ts";

describe("addressBucket: IPv4 per address, IPv6 per /64", () => {
  it("keeps an IPv4 address as it is", () => {
    assert.equal(addressBucket("203.0.113.9"), "203.0.113.9");
    assert.notEqual(addressBucket("203.0.113.9"), addressBucket("203.0.113.10"));
  });

  it("puts every address of one /64 in one bucket, whatever its spelling", () => {
    const bucket = "2001:db8:85a3:8d3::/64";
    for (const address of [
      "2001:db8:85a3:8d3:1319:8a2e:370:7348",
      "2001:0db8:85a3:08d3:ffff:ffff:ffff:ffff",
      "2001:DB8:85A3:8D3::1",
      "2001:db8:85a3:8d3::",
      "2001:db8:85a3:8d3::1%eth0",
      "2001:db8:85a3:8d3:0:0:1.2.3.4",
    ])
      assert.equal(addressBucket(address), bucket, address);
    assert.equal(addressBucket("2001:db8:85a3:8d4::1"), "2001:db8:85a3:8d4::/64", "the next /64 is another bucket");
    assert.equal(addressBucket("::1"), "0:0:0:0::/64");
    assert.equal(addressBucket("fe80::1"), "fe80:0:0:0::/64");
  });

  it("an IPv4-mapped IPv6 address is its IPv4 address", () => {
    assert.equal(addressBucket("::ffff:203.0.113.9"), "203.0.113.9");
    assert.equal(addressBucket("::FFFF:cb00:7109"), "203.0.113.9");
    assert.equal(addressBucket("0:0:0:0:0:ffff:203.0.113.9"), "203.0.113.9");
  });

  it("leaves what is no address as it is", () => {
    for (const value of ["", "unknown", "2001:db8::g", "1.2.3"]) assert.equal(addressBucket(value), value);
  });
});
