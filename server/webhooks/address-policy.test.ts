import { test } from "node:test";
import assert from "node:assert/strict";
import { AddressNotAllowedError, isPublicAddress, resolvePublicAddress } from "./address-policy.ts";

test("loopback, private, link-local, metadata and reserved addresses are not public", () => {
  for (const address of [
    "127.0.0.1", "127.8.9.10", "10.0.0.1", "10.255.255.255", "172.16.0.1", "172.31.255.1", "192.168.1.1", "169.254.169.254",
    "100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255", "::1", "::", "fe80::1", "fd00:ec2::254", "fc00::1",
    "::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:10.0.0.1", "64:ff9b::a9fe:a9fe", "not-an-ip",
  ]) assert.equal(isPublicAddress(address), false, address);
});

test("public unicast addresses are allowed", () => {
  for (const address of ["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) {
    assert.equal(isPublicAddress(address), true, address);
  }
});

test("a host is refused when any of its addresses is not public; literals are checked without DNS", async () => {
  const resolver = async (host: string) =>
    host === "mixed.example.test" ? [{ address: "93.184.216.34", family: 4 as const }, { address: "10.1.2.3", family: 4 as const }]
      : host === "good.example.test" ? [{ address: "93.184.216.34", family: 4 as const }] : [];
  await assert.rejects(resolvePublicAddress("mixed.example.test", resolver), AddressNotAllowedError);
  await assert.rejects(resolvePublicAddress("nothing.example.test", resolver), AddressNotAllowedError);
  await assert.rejects(resolvePublicAddress("127.0.0.1", resolver), AddressNotAllowedError);
  await assert.rejects(resolvePublicAddress("[::1]", resolver), AddressNotAllowedError);
  assert.deepEqual(await resolvePublicAddress("good.example.test", resolver), { address: "93.184.216.34", family: 4 });
});
