import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { REFERENCE_NUMBER_PATTERN } from "@purchase-protection/contract";
import { newApiKey, newId, newReferenceNumber, parseApiKey, randomString } from "./ids.ts";

describe("reference numbers", () => {
  it("are CLM-YYYY-XXXXXXXX with the UTC year and Crockford Base32 (no I, L, O, U)", () => {
    const numbers = Array.from({ length: 2_000 }, () => newReferenceNumber(Date.parse("2026-12-31T23:59:59Z")));
    for (const number of numbers) assert.match(number, REFERENCE_NUMBER_PATTERN);
    assert.ok(numbers.every((n) => n.startsWith("CLM-2026-")));
    assert.equal(newReferenceNumber(Date.parse("2027-01-01T00:00:00Z")).slice(4, 8), "2027");
    assert.ok(numbers.every((n) => !/[ILOU]/.test(n.slice(9))));
    assert.ok(new Set(numbers).size > 1_990, "drawn at random");
  });

  it("draw from the random source they are given", () => {
    const zeros = (size: number) => Buffer.alloc(size);
    assert.equal(newReferenceNumber(0, zeros), "CLM-1970-00000000");
  });
});

describe("randomString", () => {
  it("uses only the alphabet and rejects bytes that would bias it", () => {
    // 255 is above the largest multiple of 62 (248) and must be skipped, not folded onto '0'..'6'.
    let call = 0;
    const source = (size: number) => Buffer.alloc(size, call++ === 0 ? 255 : 1);
    assert.equal(randomString("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", 4, source), "1111");
  });
});

describe("resource ids", () => {
  it("sort by creation time, so that pagination can order by id", () => {
    const earlier = newId("qt", 1_000_000);
    const later = newId("qt", 1_000_001);
    assert.ok(earlier < later);
    assert.match(earlier, /^qt_[0-9a-z]{24}$/);
  });
});

describe("API keys", () => {
  it("carry kind and mode in the prefix and 32 base62 characters", () => {
    assert.match(newApiKey("publishable", "test"), /^wk_test_[0-9A-Za-z]{32}$/);
    assert.match(newApiKey("secret", "live"), /^mch_live_[0-9A-Za-z]{32}$/);
    assert.deepEqual(parseApiKey(newApiKey("secret", "test")), { kind: "secret", mode: "test" });
    assert.equal(parseApiKey("sk_test_abc"), undefined);
    assert.equal(parseApiKey(`wk_test_${"a".repeat(31)}`), undefined);
  });
});
