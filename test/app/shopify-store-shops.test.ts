// The shop's installation as the store reads it: its fee tiers, read by every order job, are parsed once per text and
// frozen, so one reader cannot change what the next one gets; new tiers (the storefront setup ran again) are read anew.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import type { Queryable } from "../../server/index.ts";
import { findShopInstallation } from "../../app/shopify/store/shops.ts";

const row = (tiers: { priceCents: number; variantId: string }[]) => ({
  shop: "tiers.myshopify.com",
  merchant_id: "mer_1",
  status: "installed",
  mode: "test",
  secret_key_sealed: "sealed",
  publishable_key: "pk",
  program_id: "prog_1",
  product_id: "1",
  tiers: JSON.stringify(tiers),
});

/** A database that answers every read with the row `current()` gives. */
const answering = (current: () => object) => ({ get: async () => current() }) as unknown as Queryable;

describe("a shop's installation from the store", () => {
  it("the same tiers are parsed once and frozen; changed tiers are read anew", async () => {
    let current = row([
      { priceCents: 100, variantId: "11" },
      { priceCents: 105, variantId: "12" },
    ]);
    const db = answering(() => current);
    const first = (await findShopInstallation(db, "tiers.myshopify.com"))!.tiers;
    const second = (await findShopInstallation(db, "tiers.myshopify.com"))!.tiers;
    assert.equal(second, first, "one parse for the same text");
    assert.ok(Object.isFrozen(first) && first.every((tier) => Object.isFrozen(tier)));
    assert.throws(() => (first as unknown as object[]).push({ priceCents: 1, variantId: "1" }));

    current = row([{ priceCents: 200, variantId: "21" }]);
    assert.deepEqual((await findShopInstallation(db, "tiers.myshopify.com"))!.tiers, [
      { priceCents: 200, variantId: "21" },
    ]);
  });
});
