// The SDK is published with no dependency on the storefront contract (it exports IDEMPOTENCY_KEY_PATTERN, and its
// .d.ts files must not name an unpublished package), so it holds its own copy of the pattern: this keeps them equal.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { IDEMPOTENCY_KEY_PATTERN as CONTRACT_PATTERN } from "@purchase-protection/contract";
import { IDEMPOTENCY_KEY_PATTERN } from "../src/index.ts";

describe("the SDK and the storefront contract", () => {
  it("check idempotency keys with the same pattern", () => {
    assert.equal(IDEMPOTENCY_KEY_PATTERN.source, CONTRACT_PATTERN.source);
    assert.equal(IDEMPOTENCY_KEY_PATTERN.flags, CONTRACT_PATTERN.flags);
  });
});
