import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { COVERED_REASONS, DISCLOSURE_PHRASE, fullDisclosure } from "./disclosure.ts";

describe("disclosure", () => {
  it("is the spec's two sentences with the company name, and the headless byte-string is the first sentence", () => {
    assert.equal(DISCLOSURE_PHRASE, "This is not insurance");
    assert.equal(
      fullDisclosure("Acme Guarantee Ltd"),
      "This is not insurance. This is a contractual refund guarantee provided by Acme Guarantee Ltd.",
    );
    assert.equal(
      fullDisclosure("Acme Inc."),
      "This is not insurance. This is a contractual refund guarantee provided by Acme Inc.",
    );
  });
  it("lists the 12 covered reasons", () => {
    assert.equal(new Set(COVERED_REASONS).size, 12);
  });
});
