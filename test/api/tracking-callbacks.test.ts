// AfterShip's signed tracking callbacks (docs/api.md "Tracking callbacks") through the real API on loopback: the
// merchant connects its AfterShip webhook secret, AfterShip posts tracking_update webhooks made and signed as its
// documentation shows (server/domain/tracking-callbacks.ts cites it), and each checkpoint becomes a scan of the
// merchant's shipment of that tracking number and carrier — or nothing, answered 200, when none is known. A callback
// whose signature does not check is 401 and changes nothing.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient, type ApiResponse } from "../support/client.ts";
import { assertChangesNothing, assertError } from "../support/api-assertions.ts";
import { outbox, protectOrderHeadless, type ApiClient } from "../support/protection-flows.ts";
import { signedInBuyer, signIn } from "../support/portal.ts";
import { setClaimRules } from "../../server/domain/programs.ts";
import * as shapes from "../../server/http/response-schemas.ts";

const HOUR = 3_600_000;
const AFTERSHIP_SECRET = "aftership-webhook-secret-7f3c9a21";

/** A checkpoint as AfterShip's tracking object carries it (times with the carrier's offset, as most carriers give). */
function checkpoint(tag: string, subtag: string, at: number, message: string, location: string | null = null) {
  return {
    checkpoint_time: new Date(at).toISOString().replace(/\.\d{3}Z$/, "+00:00"),
    created_at: new Date(at + 60_000).toISOString().replace(/\.\d{3}Z$/, "+00:00"),
    location,
    message,
    slug: "usps",
    tag,
    subtag,
    subtag_message: tag,
  };
}

/** A tracking webhook's body as AfterShip's webhook specification shows it. */
function trackingUpdate(trackingNumber: string, checkpoints: ReturnType<typeof checkpoint>[], slug = "usps") {
  const last = checkpoints.at(-1);
  return {
    event: "tracking_update",
    event_id: crypto.randomUUID(),
    is_tracking_first_tag: true,
    msg: {
      id: "bff5a3bac79b472991a204172473a635",
      tracking_number: trackingNumber,
      slug,
      tag: last?.tag ?? "Pending",
      subtag: last?.subtag ?? "Pending_001",
      subtag_message: last?.subtag_message ?? "Pending",
      title: trackingNumber,
      order_number: "1001",
      checkpoints,
    },
    ts: 1712741696,
  };
}

describe.each(DIALECTS)("AfterShip tracking callbacks (%s)", (dialect) => {
  let t: TestApi;
  let secret: ApiClient;
  let callbackPath: string;
  beforeAll(async () => {
    t = await startTestApi({ dialect, transport: "socket" });
    secret = apiClient(t.baseUrl, t.merchant.secretKey);
    await t.database.db.transaction((tx) =>
      setClaimRules(
        tx,
        t.services,
        { merchantId: t.merchant.merchantId, mode: "test" },
        { autoApprove: { maxAmountCentsByCurrency: { USD: 100_000 }, reasons: ["lost_in_transit"] } },
      ),
    );
    const connected = await secret.post("/tracking/aftership", { secret: AFTERSHIP_SECRET });
    assert.equal(connected.status, 200, connected.text);
    callbackPath = connected.body.callbackPath;
  });
  afterAll(() => t.close());

  /** Posts the body's exact bytes as AfterShip does, with its headers; signed with `signingSecret` unless null. */
  async function deliver(
    payload: unknown,
    options: { signingSecret?: string | null; path?: string; tamper?: (raw: string) => string } = {},
  ): Promise<ApiResponse> {
    // Pretty-printed: the signature is over the bytes sent, not over a re-serialisation of the JSON.
    const raw = JSON.stringify(payload, null, 2);
    const signingSecret = options.signingSecret === undefined ? AFTERSHIP_SECRET : options.signingSecret;
    const headers: Record<string, string> = {
      "Content-Type": "application/json",
      "User-Agent": "AfterShipTrackingWebhook/4.0.0 (https://www.aftership.com)",
      "As-Webhook-Version": "2026-07",
    };
    if (signingSecret !== null)
      headers["Aftership-Hmac-Sha256"] = createHmac("sha256", signingSecret).update(raw, "utf8").digest("base64");
    const response = await fetch(`${new URL(t.baseUrl).origin}${options.path ?? callbackPath}`, {
      method: "POST",
      headers,
      body: options.tamper ? options.tamper(raw) : raw,
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined, text };
  }

  /** A protected order with a shipment the merchant reported; its tracking number is new each time. */
  async function reportedShipment(carrier = "USPS") {
    const { quote } = await protectOrderHeadless(secret, t.merchant.programId);
    const trackingNumber = `9400${Math.floor(Math.random() * 1e15)}`;
    const shipment = await secret.post(`/orders/${quote.order_id}/shipments`, { carrier, trackingNumber });
    assert.equal(shipment.status, 200, shipment.text);
    return { orderId: quote.order_id as string, shipmentId: shipment.body.id as string, trackingNumber };
  }

  const scanCount = async (shipmentId: string) =>
    Number(
      (await t.database.db.get<{ n: number | string }>(
        "SELECT COUNT(*) AS n FROM shipment_events WHERE shipment_id = ?",
        [shipmentId],
      ))!.n,
    );

  it("connecting: the secret is kept sealed and never shown; the answer gives the callback's path for the mode", async () => {
    const again = await secret.post("/tracking/aftership", { secret: AFTERSHIP_SECRET });
    assert.equal(again.status, 200, again.text);
    shapes.trackingConnection.parse(again.body);
    assert.equal(again.body.callbackPath, `/api/v1/tracking/aftership/${t.merchant.merchantId}/test`);
    assert.equal(again.body.livemode, false);
    assert.ok(!again.text.includes(AFTERSHIP_SECRET));
    const row = (await t.database.db.get<{ secret_sealed: string }>(
      "SELECT secret_sealed FROM tracking_connections WHERE merchant_id = ? AND mode = 'test' AND provider = 'aftership'",
      [t.merchant.merchantId],
    ))!;
    assert.ok(!row.secret_sealed.includes(AFTERSHIP_SECRET));
    // Only a secret key connects: the facts it lets in decide claims that are paid.
    const widget = apiClient(t.baseUrl, t.merchant.publishableKey);
    assertError(
      await assertChangesNothing(t.database.db, () => widget.post("/tracking/aftership", { secret: "other" })),
      { status: 403, code: "secret_key_required" },
    );
    assertError(
      await assertChangesNothing(t.database.db, () => secret.post("/tracking/aftership", { secret: "has space" })),
      { status: 400, code: "parameter_invalid", param: "secret" },
    );
  });

  it("a signed tracking_update records each checkpoint as a scan: states and the order's delivery follow", async () => {
    const { orderId, shipmentId, trackingNumber } = await reportedShipment();
    const start = t.clock.now;
    const events = await outbox(t.database.db, t.merchant.merchantId, "shipment.updated");
    const received = await deliver(
      trackingUpdate(trackingNumber, [
        checkpoint("InfoReceived", "InfoReceived_001", start - 30 * HOUR, "Shipping label created"),
        checkpoint("InTransit", "InTransit_007", start - 20 * HOUR, "Departed facility", "LOUISVILLE, KY, US"),
        checkpoint("OutForDelivery", "OutForDelivery_001", start - 3 * HOUR, "Out for delivery"),
        checkpoint("Delivered", "Delivered_001", start - HOUR, "Delivered, front door"),
      ]),
    );
    assert.equal(received.status, 200, received.text);
    shapes.trackingCallback.parse(received.body);
    assert.deepEqual(received.body, {
      object: "tracking_callback",
      event: "tracking_update",
      shipmentIds: [shipmentId],
      scansRecorded: 3,
    });
    const delivery = await secret.get(`/orders/${orderId}/delivery`);
    assert.equal(delivery.body.state, "delivered");
    assert.equal(delivery.body.deliveredAt, new Date(start - HOUR).toISOString());
    assert.deepEqual(
      delivery.body.shipments[0].events.map((e: { status: string; location: string | null }) => [e.status, e.location]),
      [
        ["in_transit", "LOUISVILLE, KY, US"],
        ["out_for_delivery", null],
        ["delivered", null],
      ],
    );
    // Each scan went through the same domain function as the API's: one shipment.updated each.
    assert.equal((await outbox(t.database.db, t.merchant.merchantId, "shipment.updated")).length, events.length + 3);
    const delivered = await t.database.db.get<{ delivered_at: number | string }>(
      "SELECT delivered_at FROM orders WHERE external_id = ?",
      [orderId],
    );
    assert.equal(Number(delivered!.delivered_at), start - HOUR);
  });

  it("the same checkpoints again (AfterShip's next update, or its retry) record nothing new", async () => {
    const { shipmentId, trackingNumber } = await reportedShipment();
    const first = [
      checkpoint("InTransit", "InTransit_001", t.clock.now - 5 * HOUR, "Accepted at USPS Origin Facility"),
    ];
    assert.equal((await deliver(trackingUpdate(trackingNumber, first))).body.scansRecorded, 1);
    const repeated = await assertChangesNothing(t.database.db, () => deliver(trackingUpdate(trackingNumber, first)));
    assert.equal(repeated.status, 200, repeated.text);
    assert.deepEqual(repeated.body.shipmentIds, [shipmentId]);
    assert.equal(repeated.body.scansRecorded, 0);
    // The next update carries the old checkpoint and a new one: only the new one is recorded.
    const next = await deliver(
      trackingUpdate(trackingNumber, [
        ...first,
        checkpoint("Exception", "Exception_004", t.clock.now - HOUR, "Held in customs"),
      ]),
    );
    assert.equal(next.body.scansRecorded, 1);
    assert.equal(await scanCount(shipmentId), 2);
  });

  it("a tracking the merchant did not report, another carrier's, or another event: 200, nothing recorded", async () => {
    const { trackingNumber } = await reportedShipment();
    const scans = [checkpoint("InTransit", "InTransit_001", t.clock.now - HOUR, "In transit")];
    for (const payload of [
      trackingUpdate("UNKNOWN-TRACKING-1", scans),
      // The shipment's carrier is USPS: FedEx's parcel of the same number is another parcel.
      trackingUpdate(trackingNumber, scans, "fedex"),
      { ...trackingUpdate(trackingNumber, scans), event: "edd_revise" },
      { ...trackingUpdate(trackingNumber, scans), event: "tracking_pending_time" },
    ]) {
      const response = await assertChangesNothing(t.database.db, () => deliver(payload));
      assert.equal(response.status, 200, response.text);
      assert.equal(response.body.scansRecorded, 0);
    }
  });

  it("a missing or wrong signature, a changed body, another merchant's or mode's URL: 401, nothing recorded", async () => {
    const { shipmentId, trackingNumber } = await reportedShipment();
    const payload = trackingUpdate(trackingNumber, [
      checkpoint("Delivered", "Delivered_001", t.clock.now - HOUR, "Delivered"),
    ]);
    const other = await t.createMerchant("Other shop");
    const refused = [
      () => deliver(payload, { signingSecret: null }),
      () => deliver(payload, { signingSecret: "not-the-secret" }),
      () => deliver(payload, { tamper: (raw) => raw.replace("Delivered_001", "Delivered_002") }),
      // Signed right, sent to a URL whose merchant or mode has not connected that secret.
      () => deliver(payload, { path: `/api/v1/tracking/aftership/${other.merchantId}/test` }),
      () => deliver(payload, { path: `/api/v1/tracking/aftership/${t.merchant.merchantId}/live` }),
      () => deliver(payload, { path: `/api/v1/tracking/aftership/${t.merchant.merchantId}/staging` }),
      // A merchant key is no signature.
      () =>
        apiClient(t.baseUrl, t.merchant.secretKey).post(callbackPath.replace("/api/v1", ""), payload, {
          idempotencyKey: null,
        }),
    ];
    for (const send of refused)
      assertError(await assertChangesNothing(t.database.db, send), { status: 401, code: "signature_invalid" });
    assert.equal(await scanCount(shipmentId), 0);
  });

  it("the scans decide claims as the API's do: a lost parcel's claim approved, and the approval standing when it moves again (other carts: the merchant was told to pay)", async () => {
    const buyer = await signedInBuyer(t);
    const { external_id: orderId } = (await t.database.db.get<{ external_id: string }>(
      "SELECT external_id FROM orders WHERE plan_id = ?",
      [buyer.planId],
    ))!;
    const trackingNumber = `LOST${orderId}`;
    const shipment = await secret.post(`/orders/${orderId}/shipments`, { carrier: "usps", trackingNumber });
    assert.equal(shipment.status, 200, shipment.text);
    const lost = await deliver(
      trackingUpdate(trackingNumber, [
        checkpoint("InTransit", "InTransit_001", t.clock.now - 48 * HOUR, "In transit"),
        checkpoint("Exception", "Exception_013", t.clock.now - HOUR, "Shipment lost"),
      ]),
    );
    assert.equal(lost.body.scansRecorded, 2);

    t.clock.advance(60_000);
    const { buyer: portal } = await signIn(t, buyer);
    const filed = await portal.post("/portal/claims", {
      referenceNumber: buyer.referenceNumber,
      reason: "lost_in_transit",
      occurredAt: new Date(t.clock.now).toISOString(),
      description: "It never came.",
    });
    assert.equal(filed.status, 200, filed.text);
    assert.equal(filed.body.status, "approved");
    assert.equal(filed.body.decision.basis[1], "The carrier reported that it could not deliver your parcel.");

    t.clock.advance(60_000);
    const found = await deliver(
      trackingUpdate(trackingNumber, [
        checkpoint("InTransit", "InTransit_001", t.clock.now - 48 * HOUR - 2 * 60_000, "In transit"),
        checkpoint("Exception", "Exception_013", t.clock.now - HOUR - 2 * 60_000, "Shipment lost"),
        checkpoint("OutForDelivery", "OutForDelivery_001", t.clock.now - 30_000, "Out for delivery"),
      ]),
    );
    assert.equal(found.body.scansRecorded, 1);
    const claim = (await t.database.db.get<{ status: string; decided_by: string | null }>(
      "SELECT status, decided_by FROM claims WHERE id = ?",
      [filed.body.id],
    ))!;
    // On another cart the merchant pays the buyer itself and was told to at the approval, so a new scan does not take
    // the approval back (docs/api.md "Claim decisions"); the scan is recorded for the claims team to see.
    assert.deepEqual(claim, { status: "approved", decided_by: "rule:auto_approve" });
    const scans = await t.database.db.get<{ n: number | string }>(
      "SELECT COUNT(*) AS n FROM shipment_events WHERE shipment_id = ?",
      [shipment.body.id],
    );
    assert.equal(Number(scans!.n), 3);
  });
});
