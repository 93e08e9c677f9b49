import { describe, it } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { REFERENCE_NUMBER_PATTERN } from "@purchase-protection/contract";
import { newReferenceNumber } from "../../server/domain/ids.ts";

const vectors = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "reference-numbers.json"), "utf8")) as {
  pattern: string;
  valid: string[];
  invalid: { value: string; why: string }[];
};

describe("server: reference-numbers.json", () => {
  it("REFERENCE_NUMBER_PATTERN is the vectors' pattern and agrees on every vector", () => {
    assert.equal(REFERENCE_NUMBER_PATTERN.source, vectors.pattern);
    for (const value of vectors.valid) assert.match(value, REFERENCE_NUMBER_PATTERN);
    for (const { value, why } of vectors.invalid) assert.doesNotMatch(value, REFERENCE_NUMBER_PATTERN, why);
  });

  it("the numbers the server mints match the vectors' pattern", () => {
    const pattern = new RegExp(vectors.pattern);
    for (let i = 0; i < 500; i++) assert.match(newReferenceNumber(Date.parse("2026-11-22T12:00:00Z")), pattern);
  });
});
