import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { toSnakeCase } from "./casing.ts";

describe("toSnakeCase", () => {
  it("renames keys deeply and leaves values alone", () => {
    assert.deepEqual(toSnakeCase({ quoteId: "qt_1", feeCents: 5, nested: { coveredAmountCents: 1, list: [{ referenceNumber: "CLM" }] }, reasons: ["lostInTransit"] }), {
      quote_id: "qt_1", fee_cents: 5, nested: { covered_amount_cents: 1, list: [{ reference_number: "CLM" }] }, reasons: ["lostInTransit"],
    });
  });
});
