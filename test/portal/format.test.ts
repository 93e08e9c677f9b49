// The portal's money and time formatting: each currency's own decimals (from Intl, JPY none; the plain decimal form
// is the contract's, packages/contract/test/money.test.ts), typed amounts back to minor units, the countdown's text; and the message catalogue's sentence for a rate-limited look-up.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { parseMoney, remainingText } from "../../app/portal/format.ts";
import { formatDate, formatDateTime, formatMoney } from "../../app/ui/format.ts";
import { localeFrom } from "../../app/portal/locale.ts";
import { errorSentence } from "../../app/portal/messages.ts";

describe("portal formatting", () => {
  it("formats minor units by the currency's decimals", () => {
    assert.equal(formatMoney(12_000, "USD"), "$120.00");
    assert.equal(formatMoney(1_500, "JPY"), "¥1,500");
    assert.equal(formatMoney(1_234, "KWD").replace(/\s/g, " "), "KWD 1.234");
  });

  it("writes money in the buyer's locale, with the currency's symbol and decimals", () => {
    assert.equal(formatMoney(12_999, "USD", "en-US"), "$129.99");
    assert.equal(formatMoney(12_999, "EUR", "de-DE"), "129,99\u00a0€");
    assert.equal(formatMoney(1_500, "JPY", "ja-JP"), "￥1,500");
  });

  it("takes the buyer's locale from Accept-Language: the first one Intl knows, else en-US", () => {
    assert.equal(localeFrom("de-DE,de;q=0.9,en;q=0.8"), "de-DE");
    assert.equal(localeFrom("en;q=0.5, fr-CA"), "fr-CA", "by weight");
    assert.equal(localeFrom("*, x-klingon"), "en-US");
    assert.equal(localeFrom(null), "en-US");
  });

  it("names the zone of every time; a day stays the day it is (UTC midnight is not moved)", () => {
    assert.equal(formatDateTime("2026-11-27T10:14:00Z", "en-GB"), "27 Nov 2026, 10:14 UTC");
    assert.equal(formatDateTime("2026-11-27T10:14:00Z", "en-US", "America/New_York"), "Nov 27, 2026, 05:14 AM EST");
    assert.equal(formatDate("2026-11-27T00:00:00Z", "en-US"), "Nov 27, 2026");
  });

  it("reads a typed amount into minor units, refusing what is not one", () => {
    assert.equal(parseMoney("$129.99", "USD"), 12_999);
    assert.equal(parseMoney("129,99", "USD"), 12_999);
    assert.equal(parseMoney("25.5", "USD"), 2_550);
    assert.equal(parseMoney(" 1,025.05 ", "USD"), 102_505);
    assert.equal(parseMoney("25", "USD"), 2_500);
    assert.equal(parseMoney("1500", "JPY"), 1_500);
    for (const bad of ["", "25.505", "-1", "1e3", "abc", "15.5"])
      assert.equal(parseMoney(bad, bad === "15.5" ? "JPY" : "USD"), undefined, bad);
  });

  it("counts down to the free-look deadline, rounding up to the minute, and stops after it", () => {
    const now = Date.parse("2026-11-23T10:00:00Z");
    assert.equal(remainingText("2026-11-25T10:00:00Z", now), "48 h 00 min");
    assert.equal(remainingText("2026-11-23T11:05:30Z", now), "1 h 06 min");
    assert.equal(remainingText("2026-11-23T10:00:01Z", now), "1 min");
    assert.equal(remainingText("2026-11-23T10:00:00Z", now), undefined);
  });

  it("says when to retry a rate-limited request, and maps codes to plain sentences", () => {
    assert.match(errorSentence({ code: "rate_limited" }, 429, 42), /wait 42 seconds/);
    assert.match(errorSentence({ code: "rate_limited" }, 429, 1800), /about 30 minutes/);
    assert.equal(
      errorSentence({ code: "portal_lookup_failed", message: "internal wording" }, 404),
      "We could not find protection for that e-mail address and reference or order number. Check both and try again.",
    );
    assert.match(errorSentence({ code: "anything", message: "x" }, 500), /Something went wrong/);
  });
});
