import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { IDEMPOTENCY_KEY_PATTERN, REFERENCE_NUMBER_PATTERN } from "@purchase-protection/contract";

describe("IDEMPOTENCY_KEY_PATTERN", () => {
  it("takes 16 to 255 characters of A-Z, a-z, 0-9, underscore and hyphen", () => {
    for (const key of ["a".repeat(16), "Z".repeat(255), "order_1234-abcd_EFGH", crypto.randomUUID()])
      assert.match(key, IDEMPOTENCY_KEY_PATTERN);
  });

  it("refuses shorter, longer and other characters", () => {
    for (const key of [
      "a".repeat(15),
      "a".repeat(256),
      "order 1234 abcd efgh",
      "order.1234.abcd.efgh",
      "ordér_1234_abcd_efgh",
      "",
    ]) {
      assert.doesNotMatch(key, IDEMPOTENCY_KEY_PATTERN, key);
    }
  });
});

describe("REFERENCE_NUMBER_PATTERN", () => {
  it("takes CLM-, a four-digit year and 8 Crockford Base32 characters", () => {
    for (const number of ["CLM-2026-7KQ3M9XW", "CLM-1970-00000000", "CLM-2026-ZZZZZZZZ"])
      assert.match(number, REFERENCE_NUMBER_PATTERN);
  });

  it("refuses I, L, O, U, lower case and other lengths", () => {
    for (const number of [
      "CLM-2026-7KQ3M9XI",
      "CLM-2026-7KQ3M9XL",
      "CLM-2026-7KQ3M9XO",
      "CLM-2026-7KQ3M9XU",
      "clm-2026-7kq3m9xw",
      "CLM-2026-7KQ3M9X",
      "CLM-26-7KQ3M9XW",
    ]) {
      assert.doesNotMatch(number, REFERENCE_NUMBER_PATTERN, number);
    }
  });
});
