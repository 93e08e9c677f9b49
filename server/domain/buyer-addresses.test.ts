import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { normaliseShippingAddress, shippingAddressHash } from "./buyer-addresses.ts";
import { buyerEmailHash } from "./buyer-emails.ts";
import { createSealer } from "../secrets/sealer.ts";

const sealer = createSealer(Buffer.alloc(32, 3));
const DOOR = { countryCode: "GB", postalCode: "SW1A 1AA", line1: "10 Downing Street" };

describe("shipping address hash", () => {
  it("one door however it is typed: case, runs of spaces, the postal code's inner space", () => {
    const typed = { countryCode: " gb", postalCode: "sw1a1aa ", line1: "10   DOWNING  street " };
    assert.equal(normaliseShippingAddress(typed), normaliseShippingAddress(DOOR));
    assert.equal(shippingAddressHash(sealer, typed), shippingAddressHash(sealer, DOOR));
  });

  it("another door, country or postal code is another hash", () => {
    const hash = shippingAddressHash(sealer, DOOR);
    for (const other of [
      { ...DOOR, line1: "11 Downing Street" },
      { ...DOOR, countryCode: "IE" },
      { ...DOOR, postalCode: "SW1A 2AA" },
    ])
      assert.notEqual(shippingAddressHash(sealer, other), hash);
  });

  it("keyed like the e-mail hash, never equal to an e-mail's, and not the address", () => {
    const hash = shippingAddressHash(sealer, DOOR)!;
    assert.notEqual(shippingAddressHash(createSealer(Buffer.alloc(32, 4)), DOOR), hash, "another key, another hash");
    assert.notEqual(buyerEmailHash(sealer, normaliseShippingAddress(DOOR)!), hash);
    assert.equal(hash.toLowerCase().includes("downing"), false);
  });

  it("no country or first line: no hash (a postal code alone is a street, not a door); no postal code is allowed", () => {
    assert.equal(shippingAddressHash(sealer, { ...DOOR, line1: "  " }), null);
    assert.equal(shippingAddressHash(sealer, { ...DOOR, countryCode: null }), null);
    assert.notEqual(shippingAddressHash(sealer, { ...DOOR, postalCode: undefined }), null);
  });
});
