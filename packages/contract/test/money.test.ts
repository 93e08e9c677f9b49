import { describe, it } from "vitest";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  formatDecimalAmount,
  formatMoney,
  formatMoneyEnUs,
  minorDigits,
  parseDecimalAmount,
  parseTypedMoney,
} from "@purchase-protection/contract";

describe("minorDigits", () => {
  it("is the currency's own number of decimals", () => {
    assert.equal(minorDigits("USD"), 2);
    assert.equal(minorDigits("EUR"), 2);
    assert.equal(minorDigits("JPY"), 0);
    assert.equal(minorDigits("KWD"), 3);
    assert.equal(minorDigits("JPY"), 0, "the same once remembered");
  });
});

describe("the plain decimal form (Shopify's prices, form fields)", () => {
  it("writes minor units with the currency's decimals, no symbol", () => {
    assert.equal(formatDecimalAmount(1234, "USD"), "12.34");
    assert.equal(formatDecimalAmount(5, "USD"), "0.05");
    assert.equal(formatDecimalAmount(2_550, "EUR"), "25.50");
    assert.equal(formatDecimalAmount(1_500, "JPY"), "1500");
    assert.equal(formatDecimalAmount(1_234, "KWD"), "1.234");
  });

  it("reads it back, refusing what is not a plain non-negative amount", () => {
    assert.equal(parseDecimalAmount("12.34", "USD"), 1234);
    assert.equal(parseDecimalAmount(" 12.3 ", "USD"), 1230);
    assert.equal(parseDecimalAmount("12.340", "USD"), 1234);
    assert.equal(parseDecimalAmount("12", "USD"), 1200);
    assert.equal(parseDecimalAmount("1234", "JPY"), 1234);
    assert.ok(Number.isNaN(parseDecimalAmount("12.345", "USD")));
    assert.ok(Number.isNaN(parseDecimalAmount("12.5", "JPY")));
    assert.ok(Number.isNaN(parseDecimalAmount("-1.00", "USD")));
    assert.ok(Number.isNaN(parseDecimalAmount("$12.34", "USD")));
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

  it("writes the service's own amounts in en-US whatever the currency", () => {
    assert.equal(formatMoneyEnUs(12_999, "USD"), "$129.99");
    assert.equal(formatMoneyEnUs(123456, "EUR"), "€1,234.56");
    assert.equal(formatMoneyEnUs(1234, "JPY"), "¥1,234");
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

describe("round trips in every number of decimals the service settles in (0, 2, 3)", () => {
  // JPY 0, USD/EUR/GBP 2, KWD/BHD 3; up to the largest amount accepted anywhere (MAX_AMOUNT_MINOR).
  const currency = fc.constantFrom("JPY", "USD", "EUR", "GBP", "KWD", "BHD");
  const minor = fc.integer({ min: 0, max: 1_000_000_000 });

  it("the plain decimal form reads back to the same minor units", () => {
    fc.assert(
      fc.property(currency, minor, (code, amount) => {
        const text = formatDecimalAmount(amount, code);
        assert.equal(text.split(".")[1]?.length ?? 0, minorDigits(code), text);
        assert.equal(parseDecimalAmount(text, code), amount, text);
      }),
    );
  });

  it("money as shown (en-US, fr-FR) reads back as typed money to the same minor units", () => {
    fc.assert(
      fc.property(currency, minor, fc.constantFrom("en-US", "fr-FR"), (code, amount, locale) => {
        const text = formatMoney(amount, code, locale);
        assert.equal(parseTypedMoney(text, code), amount, text);
      }),
    );
  });
});
