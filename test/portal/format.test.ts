// The portal's money and time formatting: each currency's own decimals (from Intl, JPY none), typed amounts back to
// minor units, the countdown's text; and the message catalogue's sentence for a rate-limited look-up.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { formatMoney, moneyInput, parseMoney, remainingText } from "../../app/portal/format.ts";
import { errorSentence } from "../../app/portal/messages.ts";

describe("portal formatting", () => {
  it("formats minor units by the currency's decimals", () => {
    assert.equal(formatMoney(12_000, "USD"), "$120.00");
    assert.equal(formatMoney(1_500, "JPY"), "¥1,500");
    assert.equal(formatMoney(1_234, "KWD").replace(/\s/g, " "), "KWD 1.234");
    assert.equal(moneyInput(1_500, "JPY"), "1500");
    assert.equal(moneyInput(2_550, "EUR"), "25.50");
  });

  it("reads a typed amount into minor units, refusing what is not one", () => {
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
      "We could not find protection for that e-mail address and reference number. Check both and try again.",
    );
    assert.match(errorSentence({ code: "anything", message: "x" }, 500), /Something went wrong/);
  });
});
