import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { addBusinessDays, payoutTerms } from "./payout-terms.ts";

// Friday 27 Nov 2026, 14:05 UTC.
const FRIDAY = Date.UTC(2026, 10, 27, 14, 5);
const TUESDAY = Date.UTC(2026, 10, 24, 9, 0);

describe("payout terms", () => {
  it("a Shopify shop's refund is the app's, due one business day after the approval (a weekend is skipped)", () => {
    const terms = payoutTerms("shopify", FRIDAY);
    assert.equal(terms.payer, "shopify_refund");
    assert.equal(terms.remedy, "refund");
    assert.equal(terms.dueByMs, Date.UTC(2026, 10, 30, 14, 5));
    assert.equal(payoutTerms("shopify", TUESDAY).dueByMs, Date.UTC(2026, 10, 25, 9, 0));
    assert.equal(
      terms.sentence("Harbour Lane"),
      "The refund goes back automatically to the payment method you used for the order, by 30 Nov 2026 (within 1 business day of the approval). Your bank can take 5–10 business days to show it.",
    );
  });

  it("on other carts the store pays it itself within 7 days of the approval, weekends included", () => {
    const terms = payoutTerms("merchant", FRIDAY);
    assert.equal(terms.payer, "merchant");
    assert.equal(terms.dueByMs, Date.UTC(2026, 11, 4, 14, 5));
    assert.equal(terms.window, "7 days");
    assert.equal(
      terms.sentence("Harbour Lane"),
      "Harbour Lane refunds you directly by 4 Dec 2026 (within 7 days of the approval). Your bank can take 5–10 business days to show it.",
    );
  });

  it("a replacement has the same deadline: the store sends it", () => {
    const merchant = payoutTerms("merchant", FRIDAY, "replacement");
    assert.equal(merchant.dueByMs, payoutTerms("merchant", FRIDAY).dueByMs);
    assert.equal(
      merchant.sentence("Harbour Lane"),
      "Harbour Lane sends you the replacement by 4 Dec 2026 (within 7 days of the approval).",
    );
    const shopify = payoutTerms("shopify", FRIDAY, "replacement");
    assert.equal(shopify.payer, "shopify_refund");
    assert.equal(shopify.dueByMs, payoutTerms("shopify", FRIDAY).dueByMs);
    assert.match(
      shopify.sentence("Harbour Lane"),
      /^Harbour Lane places a free replacement order for you automatically by 30 Nov 2026/,
    );
  });

  it("counts business days Monday to Friday in UTC", () => {
    const saturday = Date.UTC(2026, 10, 28, 23, 0);
    assert.equal(addBusinessDays(saturday, 1), Date.UTC(2026, 10, 30, 23, 0));
    assert.equal(addBusinessDays(FRIDAY, 3), Date.UTC(2026, 11, 2, 14, 5));
    assert.equal(addBusinessDays(FRIDAY, 0), FRIDAY);
  });
});
