import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { tierFor } from "@purchase-protection/contract";

const TIERS = [100, 105, 110, 200].map((priceCents, index) => ({ priceCents, variantId: String(8001 + index) }));

describe("tierFor", () => {
  it("charges a fee at the smallest tier whose price covers it", () => {
    assert.equal(tierFor(TIERS, 101)?.priceCents, 105);
    assert.equal(tierFor(TIERS, 111)?.variantId, "8004");
  });

  it("charges a fee equal to a tier's price at exactly that tier", () => {
    assert.equal(tierFor(TIERS, 110)?.priceCents, 110);
    assert.equal(tierFor(TIERS, 1)?.priceCents, 100);
  });

  it("has no tier for a fee above every tier, or when there are no tiers", () => {
    assert.equal(tierFor(TIERS, 201), undefined);
    assert.equal(tierFor([], 1), undefined);
  });
});
