import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { formatMoney, minorDigits, parseTypedMoney } from "@purchase-protection/contract";

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

describe("parseTypedMoney", () => {
  it("reads an amount as people type it, in minor units of the currency", () => {
    for (const [typed, cents] of [
      ["$129.99", 12_999],
      ["129.99", 12_999],
      ["129,99", 12_999],
      ["129,99 €", 12_999],
      ["US$ 129.9", 12_990],
      ["USD 129", 12_900],
      [" 25.5 ", 2_550],
      ["1,299.99", 129_999],
      ["1.299,99", 129_999],
      ["1 299,99", 129_999],
      ["1\u202f299,99", 129_999],
      ["1,299", 129_900],
      ["1,234,567.89", 123_456_789],
      ["0.05", 5],
    ] as const)
      assert.equal(parseTypedMoney(typed, "USD"), cents, typed);
    assert.equal(parseTypedMoney("¥1,234", "JPY"), 1_234);
    assert.equal(parseTypedMoney("1.234", "JPY"), undefined, "a lone '.' before three digits is not guessed");
    assert.equal(parseTypedMoney("1.234,5", "EUR"), 123_450);
  });

  it("refuses what is not an amount, or has more decimals than the currency", () => {
    for (const bad of ["", "$", "abc", "-5", "1e3", "25.505", "25,5,5", "12,34.5", "1,2345", "1234,567,8", "12.", ".5"])
      assert.equal(parseTypedMoney(bad, "USD"), undefined, bad);
    assert.equal(parseTypedMoney("12.5", "JPY"), undefined);
    assert.equal(parseTypedMoney("1234567890123", "USD"), undefined, "more than 12 whole digits");
  });
});
