import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { formatMoney, minorDigits } from "@purchase-protection/contract";

describe("minorDigits", () => {
  it("is the currency's own number of decimals", () => {
    assert.equal(minorDigits("USD"), 2);
    assert.equal(minorDigits("EUR"), 2);
    assert.equal(minorDigits("JPY"), 0);
  });
});

describe("formatMoney", () => {
  it("shows minor units in the currency's decimals", () => {
    assert.equal(formatMoney(1234, "USD", "en-US"), "$12.34");
    assert.equal(formatMoney(5, "USD", "en-US"), "$0.05");
    assert.equal(formatMoney(1234, "JPY", "en-US"), "¥1,234");
  });

  it("writes the amount the way the locale given does", () => {
    assert.equal(formatMoney(123456, "EUR", "de-DE"), "1.234,56\u00a0€");
    assert.equal(formatMoney(1234, "GBP", "en-GB"), "£12.34");
  });
});
