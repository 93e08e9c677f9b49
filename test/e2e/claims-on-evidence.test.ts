// Issue 31 end to end: claims decided on the evidence, through the web app's two doors served on loopback — its API
// (/api/v1 as the app's route serves it: the merchant's secret key, the buyer's portal) and Shopify's webhook route
// (signed as Shopify signs them) — with the app's Shopify side and its jobs in this process, on one database:
//   a. another cart: quote and confirm, a shipment and its scans reported through the API, a "lost in transit" claim
//      filed in the portal approved at once on the carrier's failure scan, the buyer reading why;
//   b. a Shopify order: orders/create, fulfillments/create and fulfillment_events/create, the same claim approved at
//      once, then refunded on the order by the payout job;
//   c. a parcel whose last scan is older than DELIVERY_STALLED_AFTER_DAYS (its rows back-dated): presumed lost, approved;
// d. the same photo on two buyers' damage claims: the second goes to a person with duplicate_photo, never denied.
import { it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { describeShopifyApp } from "../support/dialect-suites.ts";
import { fulfillmentEventPayload, fulfillmentPayload, webhookHeaders } from "../support/shopify.ts";
import { apiClient, type ApiResponse } from "../support/client.ts";
import { protectOrderHeadless, type ApiClient } from "../support/protection-flows.ts";
import { postForm, type EvidenceUpload } from "../support/portal.ts";
import { photoPng } from "../support/evidence-images.ts";
import { protectedPaidOrder, setRules } from "../app/shopify-claim-payout-support.ts";
import type { ClaimRulesInput } from "../../server/domain/claim-rules.ts";
import { createTestMerchant, type NewMerchant } from "../../server/domain/merchants.ts";
import { setClaimRules } from "../../server/domain/programs.ts";
import { listClaimQueue } from "../../server/domain/ops-claims.ts";

const SHOP = "e2e-evidence.myshopify.com";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Set for the app here, so the test does not depend on the default. */
const STALLED_AFTER_DAYS = 10;
/** Lost parcels and damaged goods up to 1,000.00 approved at filing, where the evidence allows. */
const RULES: ClaimRulesInput = {
  autoApprove: { maxAmountCentsByCurrency: { USD: 100_000 }, reasons: ["lost_in_transit", "damaged_in_transit"] },
};
const FAILED = "The carrier reported that it could not deliver your parcel.";
const STALLED = "The carrier has reported no movement of your parcel for too long: it is presumed lost.";

interface ClaimRow {
  status: string;
  decided_by: string | null;
  decision_code: string | null;
  decision_basis: string | null;
}

describeShopifyApp(
  "claims decided on the evidence, end to end (%s)",
  { shops: [SHOP], env: { DELIVERY_STALLED_AFTER_DAYS: String(STALLED_AFTER_DAYS) } },
  (app) => {
    let server: ReturnType<typeof serve>;
    let origin: string;
    /** The other cart's merchant and its secret key's client. */
    let merchant: NewMerchant;
    let secret: ApiClient;

    beforeAll(async () => {
      const { handleApiRequest } = await import("../../app/protection-api.server.ts");
      server = serve({
        fetch: (request) =>
          new URL(request.url).pathname.startsWith("/api/v1/") ? handleApiRequest(request) : app.handle(request),
        port: 0,
        hostname: "127.0.0.1",
      });
      await once(server, "listening");
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const { services } = app.runtime().deps;
      merchant = await db().transaction((tx) => createTestMerchant(tx, services, { name: "Harbour Lane Ceramics" }));
      await db().transaction((tx) =>
        setClaimRules(tx, services, { merchantId: merchant.merchantId, mode: "test" }, RULES),
      );
      secret = apiClient(`${origin}/api/v1`, merchant.secretKey);
    });

    afterAll(async () => {
      server?.close();
    });

    const db = () => app.database.db;
    const claimRow = async (claimId: string) =>
      (await db().get<ClaimRow>("SELECT status, decided_by, decision_code, decision_basis FROM claims WHERE id = ?", [
        claimId,
      ]))!;
    const ok = async <T extends ApiResponse>(answer: Promise<T>): Promise<T> => {
      const done = await answer;
      assert.equal(done.status, 200, done.text);
      return done;
    };

    /** A webhook posted to the app over HTTP, signed as Shopify signs it (HMAC of the body). */
    async function fromShopify(topic: string, payload: object): Promise<number> {
      const body = JSON.stringify(payload);
      const response = await fetch(`${origin}/webhooks/${topic}`, {
        method: "POST",
        headers: webhookHeaders({ shop: SHOP, topic }, body),
        body,
      });
      assert.equal(response.status, 200, await response.text());
      return response.status;
    }

    /** An other-cart order protected with the secret key (quote, confirm) and its shipment reported. */
    async function otherCartOrder() {
      const email = `buyer-${randomUUID()}@example.com`;
      const orderId = `order-${randomUUID()}`;
      const { confirmation } = await protectOrderHeadless(secret, merchant.programId, {
        order_id: orderId,
        customer_email: email,
      });
      const shipment = await ok(
        secret.post(`/orders/${orderId}/shipments`, { carrier: "UPS", trackingNumber: `1Z${orderId.slice(-12)}` }),
      );
      return {
        email,
        referenceNumber: confirmation.reference_number,
        shipmentId: shipment.body.id as string,
        scan: (status: string, occurredAt: number) =>
          ok(
            secret.post(`/shipments/${shipment.body.id}/events`, {
              status,
              occurredAt: new Date(occurredAt).toISOString(),
            }),
          ),
      };
    }

    /**
     * The buyer signs in to the portal (e-mail + reference number) and files a claim there, with photos if any;
     * resolves with the claim as the portal shows it afterwards, with its decision.
     */
    async function fileInPortal(
      buyer: { email: string; referenceNumber: string },
      claim: { reason: string; amountCents: number; description: string },
      photos: EvidenceUpload[] = [],
    ) {
      const base = `${origin}/api/v1`;
      const lookup = await ok(
        apiClient(base).post(
          "/portal/lookup",
          { email: buyer.email, referenceNumber: buyer.referenceNumber },
          { idempotencyKey: null },
        ),
      );
      const token = lookup.body.portalToken as string;
      const filed = await ok(
        postForm(
          base,
          token,
          "/portal/claims",
          {
            referenceNumber: buyer.referenceNumber,
            reason: claim.reason,
            occurredAt: new Date().toISOString(),
            description: claim.description,
            amountCents: String(claim.amountCents),
          },
          photos,
        ),
      );
      const shown = await ok(apiClient(base, token).get(`/portal/claims/${filed.body.id}`));
      return shown.body as { id: string; status: string; decision: { basis: string[] } | null };
    }

    /** What the rule's decision rested on, as stored: the delivery fact names what the carrier's scans say. */
    const deliveryFact = async (claimId: string) =>
      (JSON.parse((await claimRow(claimId)).decision_basis ?? "[]") as { fact: string }[]).find(
        (fact) => fact.fact === "delivery",
      );

    it("another cart: a shipment and its scans through the API, the carrier's failure scan; the lost parcel's claim filed in the portal is approved at once, and the buyer reads why", async () => {
      const buyer = await otherCartOrder();
      await buyer.scan("in_transit", Date.now() - 2 * HOUR);
      await buyer.scan("failure", Date.now() - HOUR);
      const claim = await fileInPortal(buyer, {
        reason: "lost_in_transit",
        amountCents: 4_000,
        description: "The carrier gave up.",
      });
      assert.equal(claim.status, "approved");
      const row = await claimRow(claim.id);
      assert.deepEqual([row.decided_by, row.decision_code], ["rule:auto_approve", "covered"]);
      assert.deepEqual(await deliveryFact(claim.id), { fact: "delivery", state: "failed", overdue: false });
      assert.deepEqual(claim.decision!.basis, [claim.decision!.basis[0], FAILED]);
      assert.match(
        claim.decision!.basis[0],
        /^You asked for \$40\.00, within the \$\d+\.\d{2} your plan still covers\.$/,
      );
    });

    it("a Shopify order: orders/create, fulfillments/create and fulfillment_events/create as Shopify sends them; the claim is approved at once and refunded on the order", async () => {
      const paid = await protectedPaidOrder(app, SHOP, (order) => fromShopify("orders/create", order));
      await setRules(app, paid.plan, RULES);
      const shipped = fulfillmentPayload({ orderId: paid.order.id, shipmentStatus: null });
      await fromShopify("fulfillments/create", shipped);
      const events = { orderId: paid.order.id, fulfillmentId: shipped.id };
      const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * HOUR).toISOString();
      await fromShopify(
        "fulfillment_events/create",
        fulfillmentEventPayload({ ...events, status: "in_transit", happenedAt: at(2) }),
      );
      await fromShopify(
        "fulfillment_events/create",
        fulfillmentEventPayload({ ...events, status: "failure", happenedAt: at(1) }),
      );
      await app.settled();

      const buyer = { email: paid.order.email, referenceNumber: paid.plan.reference_number };
      const claim = await fileInPortal(buyer, {
        reason: "lost_in_transit",
        amountCents: 5_000,
        description: "Never came.",
      });
      assert.equal(claim.status, "approved");
      assert.equal((await claimRow(claim.id)).decided_by, "rule:auto_approve");
      assert.deepEqual(await deliveryFact(claim.id), { fact: "delivery", state: "failed", overdue: false });
      assert.equal(claim.decision!.basis[1], FAILED);

      // The app's payout: refunded on the Shopify order, the claim paid.
      const { queueApprovedClaimPayouts } = await import("../../app/shopify/claim-payouts.server.ts");
      assert.equal(await queueApprovedClaimPayouts(app.runtime().deps), 1);
      await app.settled();
      assert.equal((await claimRow(claim.id)).status, "paid");
      assert.equal(app.admin.calls.filter((call) => call.operationName === "RefundClaim").length, 1);
    });

    it(`a parcel without a scan for ${STALLED_AFTER_DAYS} days is presumed lost: the claim is approved at once, and says so`, async () => {
      const buyer = await otherCartOrder();
      await buyer.scan("in_transit", Date.now() - HOUR);
      // As if the parcel had been reported and last scanned longer ago than the stall period.
      const ago = (STALLED_AFTER_DAYS + 1) * DAY;
      await db().run("UPDATE shipments SET created_at = created_at - ?, last_scan_at = last_scan_at - ? WHERE id = ?", [
        ago,
        ago,
        buyer.shipmentId,
      ]);
      await db().run(
        "UPDATE shipment_events SET occurred_at = occurred_at - ?, created_at = created_at - ? WHERE shipment_id = ?",
        [ago, ago, buyer.shipmentId],
      );
      const claim = await fileInPortal(buyer, { reason: "lost_in_transit", amountCents: 3_000, description: "Stuck." });
      assert.equal(claim.status, "approved");
      assert.equal((await claimRow(claim.id)).decided_by, "rule:auto_approve");
      assert.deepEqual(await deliveryFact(claim.id), { fact: "delivery", state: "stalled", overdue: false });
      assert.equal(claim.decision!.basis[1], STALLED);
    });

    it("the same photo on two buyers' claims: the first approved, the second waits for a person with duplicate_photo, never denied", async () => {
      const photo = { name: "parcel.png", bytes: photoPng(31), type: "image/png" };
      const damaged = { reason: "damaged_in_transit", amountCents: 2_000, description: "The box arrived crushed." };
      const first = await otherCartOrder();
      await first.scan("delivered", Date.now() - HOUR);
      assert.equal((await fileInPortal(first, damaged, [photo])).status, "approved");

      const second = await otherCartOrder();
      await second.scan("delivered", Date.now() - HOUR);
      const claim = await fileInPortal(second, damaged, [photo]);
      assert.equal(claim.status, "submitted");
      assert.equal(claim.decision, null);
      assert.deepEqual(await claimRow(claim.id), {
        status: "submitted",
        decided_by: null,
        decision_code: null,
        decision_basis: null,
      });
      const risk = (await db().get<{ level: string; signals: string }>(
        "SELECT level, signals FROM claim_risk_assessments WHERE claim_id = ?",
        [claim.id],
      ))!;
      assert.equal(risk.level, "high");
      assert.deepEqual(
        (JSON.parse(risk.signals) as { name: string }[]).map((signal) => signal.name),
        ["duplicate_photo"],
      );
      // The claims team's queue, filtered to high risk as its page filters it, holds it.
      const queue = await listClaimQueue(db(), app.runtime().deps.services, { risk: "high" });
      assert.deepEqual(
        queue.rows.filter((row) => row.id === claim.id).map((row) => [row.status, row.riskLevel]),
        [["submitted", "high"]],
      );
    });
  },
);
