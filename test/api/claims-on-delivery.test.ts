// Claims decided on the carriers' facts (docs/api.md "Claim rules"): an other cart's order reports its shipment and
// scans through the API; a "lost in transit" claim waits for a person while the parcel moves, and is approved on its
// own once the parcel is presumed lost (no scan for DELIVERY_STALLED_AFTER_DAYS) or the carrier reports a failure; a
// claim about the parcel as it arrived has its 30 days counted from the carrier's delivery.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { signedInBuyer, signIn } from "../support/portal.ts";
import type { ApiClient } from "../support/protection-flows.ts";
import { setClaimRules } from "../../server/domain/programs.ts";
import { approveClaim } from "../../server/domain/claim-decisions.ts";
import { customerRecords } from "../../server/domain/privacy.ts";
import { createSealer } from "../../server/secrets/sealer.ts";
import { outbox } from "../support/protection-flows.ts";
import { DEFAULT_STALLED_AFTER_DAYS } from "../../server/domain/delivery-states.ts";
import { assertChangesNothing, assertError } from "../support/api-assertions.ts";

const DAY = 86_400_000;
const STAFF = { kind: "staff", staffId: "stf_reviewer" } as const;

describe.each(DIALECTS)("claims on delivery facts (%s)", (dialect) => {
  let t: TestApi;
  let secret: ApiClient;
  beforeAll(async () => {
    t = await startTestApi({ dialect });
    secret = apiClient(t.baseUrl, t.merchant.secretKey);
    await t.database.db.transaction((tx) =>
      setClaimRules(
        tx,
        t.services,
        { merchantId: t.merchant.merchantId, mode: "test" },
        {
          autoApprove: { maxAmountCentsByCurrency: { USD: 100_000 }, reasons: ["lost_in_transit"] },
        },
      ),
    );
  });
  afterAll(() => t.close());

  /** A buyer's plan whose order has one shipment, scanned in transit now. */
  async function shippedPlan() {
    const buyer = await signedInBuyer(t);
    const { external_id: orderId } = (await t.database.db.get<{ external_id: string }>(
      "SELECT external_id FROM orders WHERE plan_id = ?",
      [buyer.planId],
    ))!;
    const shipment = await secret.post(`/orders/${orderId}/shipments`, {
      carrier: "UPS",
      trackingNumber: `1Z${orderId}`,
    });
    assert.equal(shipment.status, 200, shipment.text);
    t.clock.advance(60_000);
    const scan = await secret.post(`/shipments/${shipment.body.id}/events`, {
      status: "in_transit",
      occurredAt: new Date(t.clock.now).toISOString(),
    });
    assert.equal(scan.status, 200, scan.text);
    return { ...buyer, shipmentId: shipment.body.id as string };
  }

  /** The decision the portal showed the buyer for the claim filed last. */
  let lastDecision: { basis: string[] } | null = null;
  /** The claim filed last. */
  let lastClaimId: string | undefined;

  async function fileLost(buyer: Awaited<ReturnType<typeof shippedPlan>>) {
    t.clock.advance(60_000);
    // A portal session lasts 30 minutes: the buyer signs in again when they come to claim.
    const { buyer: portal } = await signIn(t, buyer);
    const filed = await portal.post("/portal/claims", {
      referenceNumber: buyer.referenceNumber,
      reason: "lost_in_transit",
      occurredAt: new Date(t.clock.now).toISOString(),
      description: "It never came.",
    });
    assert.equal(filed.status, 200, filed.text);
    lastDecision = filed.body.decision;
    lastClaimId = filed.body.id;
    return (await t.database.db.get<{ status: string; decided_by: string | null }>(
      "SELECT status, decided_by FROM claims WHERE id = ?",
      [filed.body.id],
    ))!;
  }

  it("a parcel still moving: the rules leave the claim to a person", async () => {
    assert.deepEqual(await fileLost(await shippedPlan()), { status: "submitted", decided_by: null });
    assert.equal(lastDecision, null);
  });

  it("an access request lists the buyer's parcels and their scans, and what was weighed about the claim", async () => {
    const buyer = await shippedPlan();
    const filed = await fileLost(buyer);
    assert.equal(filed.status, "submitted");
    const records = await t.database.db.transaction((tx) =>
      customerRecords(
        tx,
        createSealer(t.encryptionKey),
        { merchantId: t.merchant.merchantId, mode: "test" },
        {
          email: buyer.email,
          orderIds: [],
        },
      ),
    );
    assert.equal(records.shipments.length, 1);
    assert.equal(records.shipments[0].carrier, "UPS");
    assert.deepEqual(
      records.shipments[0].scans.map((scan) => scan.status),
      ["in_transit"],
    );
    assert.deepEqual(
      records.claimRisk.map((risk) => risk.claimId),
      [lastClaimId],
    );
  });

  it("a parcel without a scan for the stall period is presumed lost: approved by the rules", async () => {
    const buyer = await shippedPlan();
    t.clock.advance(DEFAULT_STALLED_AFTER_DAYS * DAY);
    assert.deepEqual(await fileLost(buyer), { status: "approved", decided_by: "rule:auto_approve" });
    // The buyer reads what the approval rested on.
    assert.deepEqual(lastDecision!.basis, [
      lastDecision!.basis[0],
      "The carrier has reported no movement of your parcel for too long: it is presumed lost.",
    ]);
    assert.match(
      lastDecision!.basis[0],
      /^You asked for \$\d+\.\d{2}, within the \$\d+\.\d{2} your plan still covers\.$/,
    );
  });

  it("a carrier's failure scan: approved by the rules", async () => {
    const buyer = await shippedPlan();
    t.clock.advance(60_000);
    const failed = await secret.post(`/shipments/${buyer.shipmentId}/events`, {
      status: "failure",
      occurredAt: new Date(t.clock.now).toISOString(),
    });
    assert.equal(failed.status, 200, failed.text);
    assert.deepEqual(await fileLost(buyer), { status: "approved", decided_by: "rule:auto_approve" });
    assert.equal(lastDecision!.basis[1], "The carrier reported that it could not deliver your parcel.");
  });

  it("a new scan after a presumed-lost approval on another cart: the approval stands (the merchant was told to pay), and the merchant who paid is reimbursed", async () => {
    const buyer = await shippedPlan();
    t.clock.advance(DEFAULT_STALLED_AFTER_DAYS * DAY);
    assert.equal((await fileLost(buyer)).status, "approved");
    const claimId = lastClaimId!;
    // The approval's claim.updated told the merchant to refund the buyer.
    const updates = await outbox(t.database.db, t.merchant.merchantId, "claim.updated");
    const told = updates.filter((update) => update.data.id === claimId).at(-1)!;
    assert.equal(told.data.status, "approved");
    const resolution = told.data.resolution as { status: string; channel: string };
    assert.deepEqual([resolution.status, resolution.channel], ["pending", "merchant"]);
    const entriesBefore = await t.database.db.all("SELECT id FROM claim_timeline WHERE claim_id = ?", [claimId]);
    t.clock.advance(60_000);
    const moving = await secret.post(`/shipments/${buyer.shipmentId}/events`, {
      status: "out_for_delivery",
      occurredAt: new Date(t.clock.now).toISOString(),
    });
    assert.equal(moving.status, 200, moving.text);
    const claim = (await t.database.db.get<Record<string, unknown>>(
      "SELECT status, decided_by, decision_code, remedy FROM claims WHERE id = ?",
      [claimId],
    ))!;
    assert.deepEqual(claim, {
      status: "approved",
      decided_by: "rule:auto_approve",
      decision_code: "covered",
      remedy: "refund",
    });
    assert.deepEqual(
      await t.database.db.all("SELECT id FROM claim_timeline WHERE claim_id = ?", [claimId]),
      entriesBefore,
      "nothing on the buyer's timeline",
    );
    assert.equal((await outbox(t.database.db, t.merchant.merchantId, "claim.updated")).length, updates.length);
    assert.deepEqual(
      (
        await t.database.db.all<{ template: string }>(
          "SELECT template FROM email_messages WHERE claim_id = ? ORDER BY created_at, id",
          [claimId],
        )
      )
        .map((row) => row.template)
        .sort(),
      ["claim_decided", "claim_received"],
      "no claim_reopened: the buyer may have been refunded already",
    );
    // The merchant refunded the buyer when told to, and confirms it now: paid and reimbursed.
    const resolved = await secret.post(`/merchant/claims/${claimId}/resolution`, { kind: "refund", reference: "re_2" });
    assert.equal(resolved.status, 200, resolved.text);
    assert.equal(resolved.body.status, "paid");
    const reimbursed = await t.database.db.all<{ amount_cents: number | string }>(
      "SELECT amount_cents FROM ledger_entries WHERE kind = 'claim_reimbursement' AND source_id = ?",
      [claimId],
    );
    assert.deepEqual(
      reimbursed.map((entry) => Number(entry.amount_cents)),
      [resolved.body.resolution.amountCents],
    );
  });

  /** A shipped plan whose parcel the carrier delivers 6 days after the purchase; returns the delivery's time. */
  async function deliveredPlan() {
    const buyer = await shippedPlan();
    t.clock.advance(6 * DAY);
    const deliveredAt = t.clock.now;
    const scan = await secret.post(`/shipments/${buyer.shipmentId}/events`, {
      status: "delivered",
      occurredAt: new Date(deliveredAt).toISOString(),
    });
    assert.equal(scan.status, 200, scan.text);
    return { ...buyer, deliveredAt };
  }

  it("a damaged parcel's 30 days count from the carrier's delivery: the last moment is filed, a moment later refused", async () => {
    const buyer = await deliveredPlan();
    t.clock.advance(30 * DAY);
    const { buyer: portal } = await signIn(t, buyer);
    const plan = await portal.get("/portal/plan");
    assert.equal(plan.body.deliveredAt, new Date(buyer.deliveredAt).toISOString());
    assert.equal(plan.body.deliveryClaimsUntil, new Date(t.clock.now).toISOString());
    // The buyer gives the order's day, 36 days ago: within 30 days of the delivery, so it is taken.
    const filed = await portal.post("/portal/claims", {
      referenceNumber: buyer.referenceNumber,
      reason: "damaged_in_transit",
      occurredAt: new Date(buyer.deliveredAt - 6 * DAY).toISOString().slice(0, 10),
      description: "The box arrived crushed.",
    });
    assert.equal(filed.status, 200, filed.text);
    assert.equal(filed.body.status, "submitted");

    // Another delivered order, a millisecond past 30 days after its delivery: refused, whatever day the buyer gives.
    const late = await deliveredPlan();
    t.clock.advance(30 * DAY + 1);
    const { buyer: latePortal } = await signIn(t, late);
    const refused = await assertChangesNothing(
      t.database.db,
      () =>
        latePortal.post("/portal/claims", {
          referenceNumber: late.referenceNumber,
          reason: "missing_items",
          occurredAt: new Date(t.clock.now - DAY).toISOString(),
          description: "One item was not in the box.",
        }),
      1,
    );
    assertError(refused, { status: 422, code: "claim_window_expired", param: "reason" });
    assert.match(refused.body.error.message, /within 30 days of the order's delivery; the carrier delivered it at /);
    // A reason about what happened later than the delivery keeps the buyer's day.
    const recalled = await latePortal.post("/portal/claims", {
      referenceNumber: late.referenceNumber,
      reason: "item_recalled",
      occurredAt: new Date(t.clock.now - DAY).toISOString(),
      description: "The maker recalled it.",
    });
    assert.equal(recalled.status, 200, recalled.text);
  });

  it("a paid claim, or one a person approved, stays as it is when the parcel moves again", async () => {
    const paid = await shippedPlan();
    t.clock.advance(DEFAULT_STALLED_AFTER_DAYS * DAY);
    assert.equal((await fileLost(paid)).status, "approved");
    const paidId = lastClaimId!;
    const resolved = await secret.post(`/merchant/claims/${paidId}/resolution`, { kind: "refund", reference: "re_1" });
    assert.equal(resolved.status, 200, resolved.text);
    t.clock.advance(60_000);
    await secret.post(`/shipments/${paid.shipmentId}/events`, {
      status: "in_transit",
      occurredAt: new Date(t.clock.now).toISOString(),
    });
    assert.equal(
      (await t.database.db.get<{ status: string }>("SELECT status FROM claims WHERE id = ?", [paidId]))!.status,
      "paid",
    );

    const byPerson = await shippedPlan();
    assert.equal((await fileLost(byPerson)).status, "submitted");
    const personId = lastClaimId!;
    await t.database.db.transaction((tx) =>
      approveClaim(tx, t.services, { merchantId: t.merchant.merchantId, mode: "test" }, personId, STAFF, {}),
    );
    t.clock.advance(60_000);
    await secret.post(`/shipments/${byPerson.shipmentId}/events`, {
      status: "delivered",
      occurredAt: new Date(t.clock.now).toISOString(),
    });
    assert.equal(
      (await t.database.db.get<{ status: string }>("SELECT status FROM claims WHERE id = ?", [personId]))!.status,
      "approved",
    );
  });
});
