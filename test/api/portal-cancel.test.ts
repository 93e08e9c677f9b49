import { afterAll, beforeAll, describe, it } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS, rowCounts } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { assertChangesNothing, assertError } from "../support/api-assertions.ts";
import { outbox } from "../support/protection-flows.ts";
import { signIn, signedInBuyer } from "../support/portal.ts";
import { createTestMerchant, type NewMerchant } from "../../server/domain/merchants.ts";
import { submitClaim } from "../../server/domain/claims.ts";

// docs/api.md "Buyer portal API": the free-look cancellation (48 hours from the purchase) and the fee refund it owes —
// refunded by the Shopify app for a Shopify shop, confirmed by the merchant through the API otherwise.

const MINUTE = 60_000;

describe.each(DIALECTS)("free-look cancellation (%s)", (dialect) => {
  let t: TestApi;
  let secret: ReturnType<typeof apiClient>;
  let shop: NewMerchant;
  beforeAll(async () => {
    t = await startTestApi({ dialect });
    secret = apiClient(t.baseUrl, t.merchant.secretKey);
    shop = await t.database.db.transaction((tx) =>
      createTestMerchant(tx, t.services, {
        name: "Shopify Store",
        shopDomain: `s-${crypto.randomUUID()}.myshopify.com`,
      }),
    );
  });
  afterAll(() => t.close());

  /** A signed-in buyer with the clock at `msBeforeEnd` before the plan's free look ends. */
  async function buyerAt(msBeforeEnd: number, merchant?: NewMerchant) {
    const buyer = await signedInBuyer(t, { merchant });
    const end = Date.parse(buyer.session.plan.freeLookEndsAt);
    t.clock.now = end - msBeforeEnd;
    // The session (30 minutes) outlives the jump: open a fresh one at the new time.
    const again = await apiClient(t.baseUrl).post(
      "/portal/lookup",
      { email: buyer.email, referenceNumber: buyer.referenceNumber },
      { idempotencyKey: null },
    );
    assert.equal(again.status, 200, again.text);
    return { ...buyer, buyer: apiClient(t.baseUrl, again.body.portalToken), freeLookEndsAt: end };
  }

  it("at 47:59 the plan is cancelled: event, fee refund and e-mail in the same transaction", async () => {
    const buyer = await buyerAt(MINUTE);
    const before = await rowCounts(t.database.db);
    const response = await buyer.buyer.post("/portal/cancel", { referenceNumber: buyer.referenceNumber });
    assert.equal(response.status, 200, response.text);
    const plan = response.body;
    assert.equal(plan.object, "portal_plan");
    assert.equal(plan.status, "cancelled");
    assert.equal(plan.cancellable, false);
    assert.equal(plan.cancelledAt, new Date(t.clock.now).toISOString());
    assert.deepEqual(plan.feeRefund, {
      amountCents: plan.feeCents,
      currency: "USD",
      status: "pending",
      refundedAt: null,
    });

    const after = await rowCounts(t.database.db);
    assert.deepEqual(after, {
      ...before,
      events: before.events + 1,
      fee_refunds: before.fee_refunds + 1,
      email_messages: before.email_messages + 1,
      idempotency_records: before.idempotency_records + 1,
    });
    const [row] = await t.database.db.all<Record<string, unknown>>(
      "SELECT status, cancelled_at FROM plans WHERE id = ?",
      [buyer.planId],
    );
    assert.deepEqual(
      { ...row, cancelled_at: Number(row.cancelled_at) },
      { status: "cancelled", cancelled_at: t.clock.now },
    );
    const [refund] = await t.database.db.all<Record<string, unknown>>(
      "SELECT channel, status, amount_cents, currency, reference, refunded_at FROM fee_refunds WHERE plan_id = ?",
      [buyer.planId],
    );
    assert.deepEqual(refund, {
      channel: "merchant",
      status: "pending",
      amount_cents: plan.feeCents,
      currency: "USD",
      reference: null,
      refunded_at: null,
    });
    const [email] = await t.database.db.all<Record<string, unknown>>(
      "SELECT template, status FROM email_messages WHERE plan_id = ? AND template = 'free_look_cancelled'",
      [buyer.planId],
    );
    assert.deepEqual(email, { template: "free_look_cancelled", status: "pending" });
    // The suite's other cancellations (before or after this test) have events of their own.
    const events = await outbox(t.database.db, t.merchant.merchantId, "protection.cancelled");
    const ofThisPlan = events.filter((event) => event.data.id === buyer.planId);
    assert.equal(ofThisPlan.length, 1, "one protection.cancelled event for the plan");
    const purchase = ofThisPlan[0].data;
    assert.equal(purchase.status, "cancelled");
    assert.equal(purchase.cancelledAt, plan.cancelledAt);
    assert.deepEqual(purchase.feeRefund, {
      amountCents: plan.feeCents,
      currency: "USD",
      channel: "merchant",
      status: "pending",
      reference: null,
      refundedAt: null,
    });
    // The merchant sees the same on the purchase.
    const merchantView = await secret.get(`/purchases/${buyer.planId}`);
    assert.equal(merchantView.body.status, "cancelled");
    assert.deepEqual(merchantView.body.feeRefund, purchase.feeRefund);
  });

  it("at 48:00 it is 409 free_look_expired and nothing changes", async () => {
    const buyer = await buyerAt(0);
    const response = await assertChangesNothing(
      t.database.db,
      () => buyer.buyer.post("/portal/cancel", { referenceNumber: buyer.referenceNumber }),
      1,
    );
    assertError(response, { status: 409, code: "free_look_expired", param: null });
    assert.equal((await buyer.buyer.get("/portal/plan")).body.cancellable, false);
  });

  it("a cancelled or voided plan is 409 plan_not_active and nothing changes", async () => {
    const cancelled = await buyerAt(10 * MINUTE);
    assert.equal(
      (await cancelled.buyer.post("/portal/cancel", { referenceNumber: cancelled.referenceNumber })).status,
      200,
    );
    const voided = await buyerAt(10 * MINUTE);
    assert.equal((await secret.post("/offers/void", { planId: voided.planId })).status, 200);
    assert.equal((await voided.buyer.get("/portal/plan")).body.cancellable, false);
    for (const plan of [cancelled, voided]) {
      // The clock moved on for the second plan: a fresh session (sign-ins stay open to cancelled and voided plans).
      const { buyer } = await signIn(t, plan);
      const response = await assertChangesNothing(
        t.database.db,
        () => buyer.post("/portal/cancel", { referenceNumber: plan.referenceNumber }),
        1,
      );
      assertError(response, { status: 409, code: "plan_not_active", param: null });
    }
  });

  it("another plan's reference number is 404 and nothing changes; bad bodies are 400", async () => {
    const buyer = await buyerAt(10 * MINUTE);
    const other = await signedInBuyer(t);
    const response = await assertChangesNothing(
      t.database.db,
      () => buyer.buyer.post("/portal/cancel", { referenceNumber: other.referenceNumber }),
      1,
    );
    assertError(response, { status: 404, code: "resource_missing", param: "referenceNumber" });
    for (const body of [{}, { referenceNumber: "" }, { referenceNumber: buyer.referenceNumber, extra: true }]) {
      const bad = await assertChangesNothing(t.database.db, () => buyer.buyer.post("/portal/cancel", body));
      assert.equal(bad.status, 400, bad.text);
    }
    const noKey = await assertChangesNothing(t.database.db, () =>
      buyer.buyer.post("/portal/cancel", { referenceNumber: buyer.referenceNumber }, { idempotencyKey: null }),
    );
    assertError(noKey, { status: 400, code: "idempotency_key_required" });
    assert.equal((await buyer.buyer.get("/portal/plan")).body.status, "active");
  });

  it("a replay with the same Idempotency-Key returns the same answer and writes nothing more", async () => {
    const buyer = await buyerAt(10 * MINUTE);
    const key = crypto.randomUUID();
    const first = await buyer.buyer.post(
      "/portal/cancel",
      { referenceNumber: buyer.referenceNumber },
      { idempotencyKey: key },
    );
    assert.equal(first.status, 200, first.text);
    const replay = await assertChangesNothing(t.database.db, () =>
      buyer.buyer.post("/portal/cancel", { referenceNumber: buyer.referenceNumber }, { idempotencyKey: key }),
    );
    assert.equal(replay.status, 200);
    assert.equal(replay.text, first.text);
    assert.equal(replay.headers.get("idempotent-replayed"), "true");
    // Scoped by the plan: another buyer of the same merchant using the same key runs its own request.
    const other = await buyerAt(10 * MINUTE);
    const theirs = await other.buyer.post(
      "/portal/cancel",
      { referenceNumber: other.referenceNumber },
      { idempotencyKey: key },
    );
    assert.equal(theirs.status, 200, theirs.text);
    assert.equal(theirs.body.referenceNumber, other.referenceNumber);
    assert.equal(theirs.headers.get("idempotent-replayed"), null);
    const kinds = await t.database.db.all<{ key_kind: string }>(
      "SELECT key_kind FROM idempotency_records WHERE key = ? ORDER BY key_kind",
      [key],
    );
    assert.deepEqual(
      kinds.map((row) => row.key_kind).sort(),
      [`portal:${buyer.planId}`, `portal:${other.planId}`].sort(),
    );
  });

  describe("the fee refund", () => {
    it("the merchant confirms it (other carts): refunded with its reference; a second confirm returns the same", async () => {
      const buyer = await buyerAt(10 * MINUTE);
      await buyer.buyer.post("/portal/cancel", { referenceNumber: buyer.referenceNumber });
      const confirmedAt = t.clock.now;
      const first = await secret.post(`/purchases/${buyer.planId}/fee-refund`, { reference: "re_123" });
      assert.equal(first.status, 200, first.text);
      assert.equal(first.body.object, "purchase");
      assert.deepEqual(first.body.feeRefund, {
        amountCents: first.body.feeCents,
        currency: "USD",
        channel: "merchant",
        status: "refunded",
        reference: "re_123",
        refundedAt: new Date(confirmedAt).toISOString(),
      });
      t.clock.advance(MINUTE);
      const again = await assertChangesNothing(
        t.database.db,
        () => secret.post(`/purchases/${buyer.planId}/fee-refund`, { reference: "re_other" }),
        1,
      );
      assert.equal(again.status, 200);
      assert.deepEqual(again.body, first.body);
      const plan = await buyer.buyer.get("/portal/plan");
      assert.deepEqual(plan.body.feeRefund, {
        amountCents: first.body.feeCents,
        currency: "USD",
        status: "refunded",
        refundedAt: new Date(confirmedAt).toISOString(),
      });
    });

    it("not cancelled: 409 fee_refund_not_owed; unknown: 404; another merchant's: 404 — nothing changes", async () => {
      const buyer = await buyerAt(10 * MINUTE);
      const notOwed = await assertChangesNothing(
        t.database.db,
        () => secret.post(`/purchases/${buyer.planId}/fee-refund`, {}),
        1,
      );
      assertError(notOwed, { status: 409, code: "fee_refund_not_owed", param: null });
      const unknown = await assertChangesNothing(
        t.database.db,
        () => secret.post("/purchases/plan_unknown/fee-refund", {}),
        1,
      );
      assertError(unknown, { status: 404, code: "resource_missing" });
      const other = await t.createMerchant();
      const foreign = await assertChangesNothing(
        t.database.db,
        () => apiClient(t.baseUrl, other.secretKey).post(`/purchases/${buyer.planId}/fee-refund`, {}),
        1,
      );
      assertError(foreign, { status: 404, code: "resource_missing" });
      const bad = await assertChangesNothing(t.database.db, () =>
        secret.post(`/purchases/${buyer.planId}/fee-refund`, { reference: "x".repeat(201) }),
      );
      assertError(bad, { status: 400, code: "parameter_invalid", param: "reference" });
    });

    it("a Shopify shop's plan owes its refund on the shopify channel: the API confirm is 409 fee_refund_automatic", async () => {
      const buyer = await buyerAt(10 * MINUTE, shop);
      const cancelled = await buyer.buyer.post("/portal/cancel", { referenceNumber: buyer.referenceNumber });
      assert.equal(cancelled.status, 200, cancelled.text);
      const [refund] = await t.database.db.all<{ channel: string }>(
        "SELECT channel FROM fee_refunds WHERE plan_id = ?",
        [buyer.planId],
      );
      assert.equal(refund.channel, "shopify");
      const response = await assertChangesNothing(
        t.database.db,
        () => apiClient(t.baseUrl, shop.secretKey).post(`/purchases/${buyer.planId}/fee-refund`, {}),
        1,
      );
      assertError(response, { status: 409, code: "fee_refund_automatic", param: null });
    });
  });
});

describe.each(DIALECTS)("free look: all or nothing, and what claims were paid (%s)", (dialect) => {
  let t: TestApi;
  let failAfterSideEffects = false;
  beforeAll(async () => {
    t = await startTestApi({
      dialect,
      afterSideEffects: () => {
        if (failAfterSideEffects) throw new Error("injected fault after the side effects");
      },
    });
  });
  afterAll(() => t.close());

  it("a fault after the cancellation's writes rolls all of them back: plan, fee refund, event, e-mail, key", async () => {
    const buyer = await signedInBuyer(t);
    failAfterSideEffects = true;
    try {
      const response = await assertChangesNothing(t.database.db, () =>
        buyer.buyer.post("/portal/cancel", { referenceNumber: buyer.referenceNumber }),
      );
      assertError(response, { status: 500, code: "internal_error" });
    } finally {
      failAfterSideEffects = false;
    }
    const plan = await buyer.buyer.get("/portal/plan");
    assert.equal(plan.body.status, "active");
    assert.equal(plan.body.cancellable, true);
    assert.equal((await buyer.buyer.post("/portal/cancel", { referenceNumber: buyer.referenceNumber })).status, 200);
  });

  it("remainingCoveredCents is the covered amount less what the plan's claims were paid", async () => {
    const buyer = await signedInBuyer(t);
    const covered = buyer.session.plan.coveredAmountCents as number;
    assert.equal(buyer.session.plan.remainingCoveredCents, covered);
    const actor = { merchantId: t.merchant.merchantId, mode: "test" as const };
    for (const reason of ["lost_in_transit", "missing_items"])
      await t.database.db.transaction((tx) =>
        submitClaim(tx, t.services, actor, { referenceNumber: buyer.referenceNumber, reason }),
      );
    // Filed but unpaid claims take nothing off; paid ones do.
    assert.equal((await buyer.buyer.get("/portal/plan")).body.remainingCoveredCents, covered);
    await t.database.db.transaction((tx) =>
      tx.run(
        "UPDATE claims SET status = 'paid', paid_amount_cents = 1500 WHERE plan_id = ? AND reason = 'lost_in_transit'",
        [buyer.planId],
      ),
    );
    assert.equal((await buyer.buyer.get("/portal/plan")).body.remainingCoveredCents, covered - 1500);
  });
});
