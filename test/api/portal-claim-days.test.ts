import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { assertChangesNothing, assertError } from "../support/api-assertions.ts";
import { signedInBuyer } from "../support/portal.ts";

// A claim's occurredAt given as a day (YYYY-MM-DD, what the portal's date picker sends) is the buyer's day, not a
// made-up UTC midnight: it is "in the future" only while it has begun nowhere yet, so a buyer ahead of UTC (Sydney,
// Auckland, Kiribati UTC+14) can file about their today.

describe.each(DIALECTS)("claims about a day (%s)", (dialect) => {
  let t: TestApi;
  beforeAll(async () => (t = await startTestApi({ dialect })));
  afterAll(() => t.close());

  const file = (buyer: Awaited<ReturnType<typeof signedInBuyer>>, occurredAt: string, reason: string) =>
    buyer.buyer.post("/portal/claims", {
      referenceNumber: buyer.referenceNumber,
      reason,
      occurredAt,
      description: "It arrived broken.",
    });

  it("the buyer's today is accepted though it is tomorrow in UTC; a day begun nowhere is refused", async () => {
    // The test clock reads 2026-11-22T12:00Z: 23 November has begun at UTC+12 and later, 24 November nowhere.
    assert.equal(new Date(t.clock.now).toISOString(), "2026-11-22T12:00:00.000Z");
    const buyer = await signedInBuyer(t);
    const today = await file(buyer, "2026-11-23", "damaged_in_transit");
    assert.equal(today.status, 200, today.text);
    assert.equal(today.body.occurredAt, "2026-11-23T00:00:00.000Z", "the day as it was picked");

    const refused = await assertChangesNothing(t.database.db, () => file(buyer, "2026-11-24", "lost_in_transit"), 1);
    assertError(refused, { status: 422, code: "occurred_in_future", param: "occurredAt" });
  });
});
