import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { signedInBuyer } from "../support/portal.ts";
import { approveClaim } from "../../server/domain/claim-decisions.ts";
import { payoutTerms } from "../../server/domain/payout-terms.ts";

// The portal's claim says what an approved or paid claim brings the buyer (PortalClaim.payout): the amount, the
// remedy, who pays and by when (payoutTerms, the rule the e-mails say too), and once paid, when.

const STAFF = { kind: "staff", staffId: "stf_1" } as const;

describe.each(DIALECTS)("portal claim payout (%s)", (dialect) => {
  let t: TestApi;
  beforeAll(async () => (t = await startTestApi({ dialect })));
  afterAll(() => t.close());

  it("null until approved; approved: pending with the store's terms; paid: paid, with when", async () => {
    const buyer = await signedInBuyer(t);
    const filed = await buyer.buyer.post("/portal/claims", {
      referenceNumber: buyer.referenceNumber,
      reason: "lost_in_transit",
      occurredAt: new Date(t.clock.now).toISOString(),
      description: "Never came.",
      amountCents: 4_250,
    });
    assert.equal(filed.status, 200, filed.text);
    assert.equal(filed.body.payout, null);

    t.clock.advance(1_000);
    const approvedAt = t.clock.now;
    const actor = { merchantId: t.merchant.merchantId, mode: "test" as const };
    await t.database.db.transaction((tx) => approveClaim(tx, t.services, actor, filed.body.id, STAFF, {}));
    const terms = payoutTerms("merchant", approvedAt, "refund");
    const approved = await buyer.buyer.get(`/portal/claims/${filed.body.id}`);
    assert.equal(approved.status, 200, approved.text);
    assert.deepEqual(approved.body.payout, {
      remedy: "refund",
      amountCents: 4_250,
      currency: "USD",
      status: "pending",
      payer: "merchant",
      dueBy: new Date(terms.dueByMs).toISOString().slice(0, 10),
      paidAt: null,
      terms: terms.sentence("Test Store"),
    });
    assert.match(approved.body.payout.terms, /^Test Store refunds you directly by \d{1,2} \w{3} \d{4}/);

    t.clock.advance(60_000);
    const paid = await apiClient(t.baseUrl, t.merchant.secretKey).post(`/merchant/claims/${filed.body.id}/resolution`, {
      kind: "refund",
      reference: "re_1",
    });
    assert.equal(paid.status, 200, paid.text);
    const listed = await buyer.buyer.get("/claims");
    const [claim] = listed.body.data;
    assert.equal(claim.payout.status, "paid");
    assert.equal(claim.payout.paidAt, new Date(t.clock.now).toISOString());
    assert.equal(claim.payout.amountCents, 4_250);
  });
});
