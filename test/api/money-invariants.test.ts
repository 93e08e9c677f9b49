import { afterAll, beforeAll, describe, it } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient, type ApiResponse } from "../support/client.ts";
import { assertChangesNothing, assertError } from "../support/api-assertions.ts";
import { outbox } from "../support/protection-flows.ts";
import { signedInBuyer } from "../support/portal.ts";
import { approveClaim, denyClaim } from "../../server/domain/claim-decisions.ts";
import { DomainError } from "../../server/domain/errors.ts";
import { setClaimRules } from "../../server/domain/programs.ts";
import type { NewMerchant } from "../../server/domain/merchants.ts";

// docs/api.md "Money invariants": a plan gives its buyer money back through one path only — the free-look fee refund, its
// claims' payouts (within the covered amount) or the merchant's own refund of the order — and a cancelled or voided
// plan pays no claim. Each hole of issue 26 through the API: the refusal is a documented 409 that writes nothing.

const STAFF = { kind: "staff", staffId: "stf_money" } as const;

describe.each(DIALECTS)("money invariants (%s)", (dialect) => {
  let t: TestApi;
  /** A merchant whose claim rules approve lost_in_transit claims on their own (the attack's "automatically"). */
  let autoApproving: NewMerchant;
  beforeAll(async () => {
    t = await startTestApi({ dialect });
    autoApproving = await t.createMerchant("Auto-approving Store");
    await t.database.db.transaction((tx) =>
      setClaimRules(tx, t.services, actorOf(autoApproving), {
        autoApprove: { maxAmountCentsByCurrency: { USD: 1_000_000 }, reasons: ["lost_in_transit"] },
      }),
    );
  });
  afterAll(() => t.close());

  const actorOf = (merchant: NewMerchant) => ({ merchantId: merchant.merchantId, mode: "test" as const });
  const secretOf = (merchant: NewMerchant) => apiClient(t.baseUrl, merchant.secretKey);

  type Buyer = Awaited<ReturnType<typeof signedInBuyer>>;
  const fileClaim = (buyer: Buyer, reason = "lost_in_transit") =>
    buyer.buyer.post("/portal/claims", {
      referenceNumber: buyer.referenceNumber,
      reason,
      occurredAt: new Date(t.clock.now).toISOString(),
      description: "The parcel never came.",
    });
  const cancel = (buyer: Buyer) => buyer.buyer.post("/portal/cancel", { referenceNumber: buyer.referenceNumber });
  const pay = (merchant: NewMerchant, claimId: string) =>
    secretOf(merchant).post(`/merchant/claims/${claimId}/resolution`, { kind: "refund", reference: "re_money" });
  const reportRefund = (merchant: NewMerchant, buyer: Buyer) =>
    secretOf(merchant).post(`/orders/${buyer.session.plan.orderId}/refund`, {});

  const ledgerKinds = async (planId: string) =>
    (
      await t.database.db.all<{ kind: string }>("SELECT kind FROM ledger_entries WHERE plan_id = ? ORDER BY kind", [
        planId,
      ])
    ).map((row) => row.kind);
  const planStatus = async (planId: string) =>
    (await t.database.db.get<{ status: string }>("SELECT status FROM plans WHERE id = ?", [planId]))!.status;

  /** A claim filed in the portal and approved by the claims team. */
  async function approvedClaim(buyer: Buyer, merchant: NewMerchant = t.merchant): Promise<string> {
    const filed = await fileClaim(buyer);
    assert.equal(filed.status, 200, filed.text);
    await t.database.db.transaction((tx) => approveClaim(tx, t.services, actorOf(merchant), filed.body.id, STAFF, {}));
    return filed.body.id as string;
  }

  it("file → approved by a rule → cancel is 409 plan_has_claims and changes nothing; the claim is then paid once", async () => {
    const buyer = await signedInBuyer(t, { merchant: autoApproving });
    const filed = await fileClaim(buyer);
    assert.equal(filed.status, 200, filed.text);
    assert.equal(filed.body.status, "approved", "the rule approved it");
    assert.equal((await buyer.buyer.get("/portal/plan")).body.cancellable, false, "no cancel offered");

    const refused = await assertChangesNothing(t.database.db, () => cancel(buyer), 1);
    assertError(refused, { status: 409, code: "plan_has_claims", param: null });
    assert.equal(await planStatus(buyer.planId), "active");

    assert.equal((await pay(autoApproving, filed.body.id)).status, 200);
    assert.deepEqual(await ledgerKinds(buyer.planId), ["claim_reimbursement", "fee_collected", "merchant_fee_share"]);
    assertError(await cancel(buyer), { status: 409, code: "plan_has_claims" });
    assert.deepEqual(await ledgerKinds(buyer.planId), ["claim_reimbursement", "fee_collected", "merchant_fee_share"]);
  });

  it("an open claim ends the free look too; once it is denied the plan may be cancelled (and takes no claim after)", async () => {
    const buyer = await signedInBuyer(t);
    const filed = await fileClaim(buyer, "damaged_in_transit");
    assert.equal(filed.body.status, "submitted");
    assertError(await assertChangesNothing(t.database.db, () => cancel(buyer), 1), {
      status: 409,
      code: "plan_has_claims",
    });
    await t.database.db.transaction((tx) =>
      denyClaim(tx, t.services, actorOf(t.merchant), filed.body.id, STAFF, { code: "insufficient_evidence" }),
    );
    assert.equal((await buyer.buyer.get("/portal/plan")).body.cancellable, true);
    assert.equal((await cancel(buyer)).status, 200);
    assertError(await fileClaim(buyer), { status: 409, code: "plan_not_active" });
    assert.deepEqual(await ledgerKinds(buyer.planId), [
      "correction",
      "fee_collected",
      "fee_refunded",
      "merchant_fee_share",
    ]);
  });

  it("paying an approved claim of a plan voided since is 409 plan_not_active and writes nothing", async () => {
    const buyer = await signedInBuyer(t);
    const claimId = await approvedClaim(buyer);
    const voided = await secretOf(t.merchant).post("/offers/void", { planId: buyer.planId, reason: "order_cancelled" });
    assert.equal(voided.status, 200, voided.text);

    const refused = await assertChangesNothing(t.database.db, () => pay(t.merchant, claimId), 1);
    assertError(refused, { status: 409, code: "plan_not_active", param: null });
    assert.match(refused.body.error.message, /was voided on .*: its approved claims can no longer be paid/);
    const claim = await secretOf(t.merchant).get(`/merchant/claims/${claimId}`);
    assert.equal(claim.body.status, "approved");
    assert.equal((await buyer.buyer.get("/portal/plan")).body.remainingCoveredCents, 0, "an ended plan covers no more");
    assert.deepEqual(await ledgerKinds(buyer.planId), ["fee_collected", "merchant_fee_share"]);
  });

  it("an approved claim of a plan that ended is closed by denying it with plan_not_active, and only with that", async () => {
    const buyer = await signedInBuyer(t);
    const claimId = await approvedClaim(buyer);
    const deny = (code: string) =>
      t.database.db.transaction((tx) => denyClaim(tx, t.services, actorOf(t.merchant), claimId, STAFF, { code }));
    await assert.rejects(deny("plan_not_active"), (error: DomainError) => error.code === "claim_transition_invalid");

    const voided = await secretOf(t.merchant).post("/offers/void", { planId: buyer.planId, reason: "order_cancelled" });
    assert.equal(voided.status, 200, voided.text);
    await assert.rejects(
      deny("insufficient_evidence"),
      (error: DomainError) => error.code === "claim_transition_invalid",
    );
    const denied = await deny("plan_not_active");
    assert.equal(denied.status, "denied");
    assert.equal(denied.decision?.code, "plan_not_active");
    assertError(await pay(t.merchant, claimId), { status: 409, code: "claim_transition_invalid" });
    assert.deepEqual(await ledgerKinds(buyer.planId), ["fee_collected", "merchant_fee_share"]);
  });

  it("a plan cancelled with an approved claim before the fix (as the attack left them) pays it no more", async () => {
    const buyer = await signedInBuyer(t, { merchant: autoApproving });
    const filed = await fileClaim(buyer);
    assert.equal(filed.body.status, "approved");
    await t.database.db.transaction((tx) =>
      tx.run("UPDATE plans SET status = 'cancelled', cancelled_at = ? WHERE id = ?", [t.clock.now, buyer.planId]),
    );
    assertError(await assertChangesNothing(t.database.db, () => pay(autoApproving, filed.body.id), 1), {
      status: 409,
      code: "plan_not_active",
    });
  });

  it("a refund report of an order whose claim is approved or paid is 409 order_has_claim_payout and writes nothing", async () => {
    const buyer = await signedInBuyer(t);
    const claimId = await approvedClaim(buyer);
    const whileApproved = await assertChangesNothing(t.database.db, () => reportRefund(t.merchant, buyer), 1);
    assertError(whileApproved, { status: 409, code: "order_has_claim_payout", param: "orderId" });
    assert.match(whileApproved.body.error.message, new RegExp(`claim '${claimId}' approved for .*resolution`));

    assert.equal((await pay(t.merchant, claimId)).status, 200);
    const afterPaid = await assertChangesNothing(t.database.db, () => reportRefund(t.merchant, buyer), 1);
    assertError(afterPaid, { status: 409, code: "order_has_claim_payout", param: "orderId" });
    assert.match(afterPaid.body.error.message, /already refunded .* through claim/);
    assert.equal(await planStatus(buyer.planId), "active");
    assert.deepEqual(await ledgerKinds(buyer.planId), ["claim_reimbursement", "fee_collected", "merchant_fee_share"]);
    const order = await t.database.db.get<{ status: string }>("SELECT status FROM orders WHERE plan_id = ?", [
      buyer.planId,
    ]);
    assert.equal(order!.status, "protected");
  });

  it("a refund report after a denied claim voids the plan and credits the share, as before", async () => {
    const buyer = await signedInBuyer(t);
    const filed = await fileClaim(buyer);
    await t.database.db.transaction((tx) =>
      denyClaim(tx, t.services, actorOf(t.merchant), filed.body.id, STAFF, { code: "excluded_by_terms" }),
    );
    const report = await reportRefund(t.merchant, buyer);
    assert.equal(report.status, 200, report.text);
    assert.equal(report.body.consumerRefundIssued, false);
    assert.deepEqual(await ledgerKinds(buyer.planId), [
      "fee_collected",
      "merchant_fee_share",
      "merchant_refund_credit",
    ]);
  });

  const ROUNDS = 6;
  const statusOf = (response: ApiResponse) =>
    response.status === 200 ? "200" : `${response.status} ${response.body?.error?.code}`;
  const decided = (result: PromiseSettledResult<unknown>) => {
    if (result.status === "fulfilled") return "200";
    if (result.reason instanceof DomainError) return `409 ${result.reason.code}`;
    throw result.reason;
  };

  it(`a cancellation and a filing the rules approve, at once (${ROUNDS}×): exactly one wins`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const buyer = await signedInBuyer(t, { merchant: autoApproving });
      const [cancelled, filed] = await Promise.all([cancel(buyer), fileClaim(buyer)]);
      const outcome = [statusOf(cancelled), statusOf(filed)].join(" / ");
      assert.ok(
        outcome === "200 / 409 plan_not_active" || outcome === "409 plan_has_claims / 200",
        `one wins: ${outcome}`,
      );
      if (filed.status === 200) {
        assert.equal((await pay(autoApproving, filed.body.id)).status, 200);
        assert.deepEqual(await ledgerKinds(buyer.planId), [
          "claim_reimbursement",
          "fee_collected",
          "merchant_fee_share",
        ]);
      } else
        assert.deepEqual(await ledgerKinds(buyer.planId), [
          "correction",
          "fee_collected",
          "fee_refunded",
          "merchant_fee_share",
        ]);
    }
  });

  it(`a refund report and an approval, at once (${ROUNDS}×): exactly one wins`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const buyer = await signedInBuyer(t);
      const filed = await fileClaim(buyer);
      const [report, approval] = await Promise.allSettled([
        reportRefund(t.merchant, buyer),
        t.database.db.transaction((tx) => approveClaim(tx, t.services, actorOf(t.merchant), filed.body.id, STAFF, {})),
      ]);
      assert.equal(report.status, "fulfilled");
      const outcome = [statusOf(report.value), decided(approval)].join(" / ");
      assert.ok(
        outcome === "200 / 409 plan_not_active" || outcome === "409 order_has_claim_payout / 200",
        `one wins: ${outcome}`,
      );
    }
  });

  it(`a void and a payment, at once (${ROUNDS}×): a payment lands only while the plan is active`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const buyer = await signedInBuyer(t);
      const claimId = await approvedClaim(buyer);
      const [voided, paid] = await Promise.all([
        secretOf(t.merchant).post("/offers/void", { planId: buyer.planId }),
        pay(t.merchant, claimId),
      ]);
      assert.equal(voided.status, 200, voided.text);
      const events = (await outbox(t.database.db, t.merchant.merchantId)).filter(
        (event) =>
          (event.type === "protection.voided" && event.data.id === buyer.planId) ||
          (event.type === "claim.updated" && event.data.id === claimId && event.data.status === "paid"),
      );
      if (paid.status === 200) {
        assert.deepEqual(
          events.map((event) => event.type),
          ["claim.updated", "protection.voided"],
          "paid before the void",
        );
      } else {
        assertError(paid, { status: 409, code: "plan_not_active" });
        assert.deepEqual(
          events.map((event) => event.type),
          ["protection.voided"],
        );
        assert.ok(!(await ledgerKinds(buyer.planId)).includes("claim_reimbursement"));
      }
    }
  });
});
