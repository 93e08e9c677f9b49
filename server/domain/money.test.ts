import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { applyBps, assertSupportedCurrency } from "./money.ts";
import { MAX_AMOUNT_MINOR } from "../vocabulary/money.ts";
import { DomainError } from "./errors.ts";

describe("applyBps", () => {
  it("rounds half up in integer minor units", () => {
    assert.equal(applyBps(12_999, 300), 390); // 389.97
    assert.equal(applyBps(50, 300), 2); // 1.5 → 2
    assert.equal(applyBps(49, 300), 1); // 1.47 → 1
    assert.equal(applyBps(0, 300), 0);
  });
  it("stays exact at the largest accepted amount", () => {
    assert.equal(applyBps(MAX_AMOUNT_MINOR, 10_000), MAX_AMOUNT_MINOR);
    assert.ok(Number.isSafeInteger(MAX_AMOUNT_MINOR * 10_000 + 5_000));
  });
});

describe("currencies", () => {
  it("accepts the settled currencies and names the rest as unsupported", () => {
    for (const code of ["USD", "CAD", "EUR", "GBP", "AUD", "NZD", "JPY"]) assertSupportedCurrency(code);
    assert.throws(
      () => assertSupportedCurrency("XYZ"),
      (e: unknown) => e instanceof DomainError && e.code === "currency_unsupported" && e.field === "currency",
    );
  });
});
