import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { assertChangesNothing, assertError } from "../support/api-assertions.ts";
import { outbox, protectOrderHeadless, type ApiClient } from "../support/protection-flows.ts";
import * as shapes from "../../server/http/response-schemas.ts";
import { redactCustomer } from "../../server/domain/privacy.ts";
import { createSealer } from "../../server/secrets/sealer.ts";

// Delivery facts from other carts (docs/api.md "Delivery facts", "Delivery states"): the merchant reports a protected
// order's shipments and their carriers' scans with its secret key; GET /orders/{orderId}/delivery shows the order's
// shipments, scans and derived states; each change appends shipment.updated, a repeated report changes nothing.

const DAY = 86_400_000;

describe.each(DIALECTS)("delivery facts API (%s)", (dialect) => {
  let t: TestApi;
  let secret: ApiClient;
  beforeAll(async () => {
    t = await startTestApi({ dialect });
    secret = apiClient(t.baseUrl, t.merchant.secretKey);
  });
  afterAll(() => t.close());

  async function protectedOrderId(): Promise<string> {
    const { quote } = await protectOrderHeadless(secret, t.merchant.programId);
    return quote.order_id;
  }

  const deliveredAtOf = async (orderId: string) =>
    (await t.database.db.get<{ delivered_at: number | string | null }>(
      "SELECT delivered_at FROM orders WHERE external_id = ?",
      [orderId],
    ))!.delivered_at;

  const shipmentEvents = async () => (await outbox(t.database.db, t.merchant.merchantId, "shipment.updated")).length;

  it("a shipment and its scans: states recomputed, the order's delivery recorded, shipment.updated on each change", async () => {
    const orderId = await protectedOrderId();
    const empty = await secret.get(`/orders/${orderId}/delivery`);
    assert.equal(empty.status, 200, empty.text);
    assert.deepEqual(empty.body, {
      object: "order_delivery",
      orderId,
      state: "not_shipped",
      deliveredAt: null,
      overdue: false,
      shipments: [],
      livemode: false,
    });

    const eventsBefore = await shipmentEvents();
    const reported = await secret.post(`/orders/${orderId}/shipments`, {
      carrier: "UPS",
      trackingNumber: "1Z999AA10123456784",
      promisedDeliveryDate: "2026-11-25",
    });
    assert.equal(reported.status, 200, reported.text);
    shapes.shipment.parse(reported.body);
    assert.equal(reported.body.orderId, orderId);
    assert.equal(reported.body.source, "api");
    assert.equal(reported.body.state, "pending");
    assert.equal(reported.body.deliveryDeadline, "2026-12-10T00:00:00.000Z");
    assert.equal(await shipmentEvents(), eventsBefore + 1);
    const shipmentId: string = reported.body.id;

    t.clock.advance(DAY);
    const scanned = await secret.post(`/shipments/${shipmentId}/events`, {
      status: "in_transit",
      occurredAt: new Date(t.clock.now - 3_600_000).toISOString(),
      location: "Louisville, KY",
    });
    assert.equal(scanned.status, 200, scanned.text);
    assert.equal(scanned.body.state, "in_transit");
    assert.equal(scanned.body.events.length, 1);
    assert.equal(scanned.body.events[0].location, "Louisville, KY");
    assert.equal(await deliveredAtOf(orderId), null);

    t.clock.advance(DAY);
    const deliveredAt = new Date(t.clock.now - 60_000).toISOString();
    const delivered = await secret.post(`/shipments/${shipmentId}/events`, {
      status: "delivered",
      occurredAt: deliveredAt,
    });
    assert.equal(delivered.body.state, "delivered");
    assert.equal(delivered.body.deliveredAt, deliveredAt);
    // The claim rules read the order's delivery.
    assert.equal(Number(await deliveredAtOf(orderId)), Date.parse(deliveredAt));
    assert.equal(await shipmentEvents(), eventsBefore + 3);
    const [latest] = (await outbox(t.database.db, t.merchant.merchantId, "shipment.updated")).slice(-1);
    assert.deepEqual(shapes.shipment.parse(latest.data), delivered.body);

    const read = await secret.get(`/orders/${orderId}/delivery`);
    shapes.orderDelivery.parse(read.body);
    assert.equal(read.body.state, "delivered");
    assert.equal(read.body.deliveredAt, deliveredAt);
    assert.deepEqual(read.body.shipments, [delivered.body]);
  });

  it("the same tracking number is the same shipment and the same scan the same event: a repeat changes nothing", async () => {
    const orderId = await protectedOrderId();
    const report = { carrier: "DHL", trackingNumber: "JD014600003828" };
    const first = await secret.post(`/orders/${orderId}/shipments`, report);
    const scan = { status: "out_for_delivery", occurredAt: new Date(t.clock.now).toISOString() };
    const scanned = await secret.post(`/shipments/${first.body.id}/events`, scan);
    assert.equal(scanned.status, 200, scanned.text);
    // A new Idempotency-Key each time: only the stored answer is new.
    const again = await assertChangesNothing(
      t.database.db,
      () => secret.post(`/orders/${orderId}/shipments`, report),
      1,
    );
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.id, first.body.id);
    const scannedAgain = await assertChangesNothing(
      t.database.db,
      () => secret.post(`/shipments/${first.body.id}/events`, scan),
      1,
    );
    assert.deepEqual(scannedAgain.body, scanned.body);

    // A promised date learnt later updates the shipment (and says so).
    const eventsBefore = await shipmentEvents();
    const promised = await secret.post(`/orders/${orderId}/shipments`, {
      ...report,
      promisedDeliveryDate: "2026-12-01",
    });
    assert.equal(promised.body.id, first.body.id);
    assert.equal(promised.body.promisedDeliveryDate, "2026-12-01");
    assert.equal(promised.body.carrier, "DHL");
    assert.equal(await shipmentEvents(), eventsBefore + 1);
  });

  it("concurrent reports of one tracking number make one shipment, and of one scan one event", async () => {
    const orderId = await protectedOrderId();
    const report = { carrier: "FedEx", trackingNumber: "794644790138" };
    const shipments = await Promise.all(
      Array.from({ length: 5 }, () => secret.post(`/orders/${orderId}/shipments`, report)),
    );
    assert.deepEqual(
      shipments.map((response) => response.status),
      [200, 200, 200, 200, 200],
    );
    assert.equal(new Set(shipments.map((response) => response.body.id)).size, 1);
    const scan = { status: "in_transit", occurredAt: new Date(t.clock.now).toISOString() };
    const scans = await Promise.all(
      Array.from({ length: 5 }, () => secret.post(`/shipments/${shipments[0].body.id}/events`, scan)),
    );
    assert.ok(scans.every((response) => response.status === 200));
    const delivery = await secret.get(`/orders/${orderId}/delivery`);
    assert.equal(delivery.body.shipments.length, 1);
    assert.equal(delivery.body.shipments[0].events.length, 1);
    const events = (await outbox(t.database.db, t.merchant.merchantId, "shipment.updated")).filter(
      (event) => event.data.orderId === orderId,
    );
    assert.equal(events.length, 2, "one for the shipment, one for its scan");
  });

  it("stalled after 10 days without a scan (presumed lost), moving again with a new scan; overdue 14 days after the promise", async () => {
    const orderId = await protectedOrderId();
    const promisedDay = new Date(t.clock.now).toISOString().slice(0, 10);
    const shipment = await secret.post(`/orders/${orderId}/shipments`, {
      carrier: "Royal Mail",
      trackingNumber: "RM123456785GB",
      promisedDeliveryDate: promisedDay,
    });
    const lastScan = t.clock.now;
    await secret.post(`/shipments/${shipment.body.id}/events`, {
      status: "in_transit",
      occurredAt: new Date(lastScan).toISOString(),
    });
    t.clock.advance(10 * DAY - 1);
    assert.equal((await secret.get(`/orders/${orderId}/delivery`)).body.state, "in_transit");
    t.clock.advance(1);
    const stalled = await secret.get(`/orders/${orderId}/delivery`);
    assert.equal(stalled.body.state, "stalled");
    assert.equal(stalled.body.shipments[0].stalledSince, new Date(lastScan + 10 * DAY).toISOString());
    assert.equal(stalled.body.overdue, false);

    const moving = await secret.post(`/shipments/${shipment.body.id}/events`, {
      status: "delayed",
      occurredAt: new Date(t.clock.now).toISOString(),
    });
    assert.equal(moving.body.state, "in_transit");
    assert.equal(moving.body.stalledSince, null);

    t.clock.advance(6 * DAY);
    const overdue = await secret.get(`/orders/${orderId}/delivery`);
    assert.equal(overdue.body.overdue, true);
    assert.equal(
      overdue.body.shipments[0].deliveryDeadline,
      new Date(Date.parse(promisedDay) + 15 * DAY).toISOString(),
    );
  });

  it("a customer redaction takes the scans' places and the carriers' words, in the scans and their events", async () => {
    const orderId = await protectedOrderId();
    const shipment = await secret.post(`/orders/${orderId}/shipments`, { carrier: "Evri", trackingNumber: "H00A" });
    const scan = {
      status: "attempted_delivery",
      occurredAt: new Date(t.clock.now).toISOString(),
      location: "Hebden Bridge",
      message: "Left a card at 4 Mill Lane",
    };
    assert.equal((await secret.post(`/shipments/${shipment.body.id}/events`, scan)).status, 200);
    const owner = { merchantId: t.merchant.merchantId, mode: "test" as const };
    await t.database.db.transaction((tx) =>
      redactCustomer(tx, createSealer(t.encryptionKey), owner, { email: null, orderIds: [orderId] }),
    );
    const [redacted] = (await secret.get(`/orders/${orderId}/delivery`)).body.shipments;
    assert.deepEqual(
      redacted.events.map((e: { status: string; location: unknown; message: unknown }) => [
        e.status,
        e.location,
        e.message,
      ]),
      [["attempted_delivery", null, null]],
    );
    const events = await outbox(t.database.db, t.merchant.merchantId, "shipment.updated");
    const mine = events.filter((event) => event.data.orderId === orderId);
    assert.equal(mine.length, 2);
    for (const event of mine) assert.doesNotMatch(JSON.stringify(event.data), /Hebden|Mill Lane/);
  });

  it("bad input gets the documented error and changes nothing", async () => {
    const orderId = await protectedOrderId();
    const shipment = await secret.post(`/orders/${orderId}/shipments`, { carrier: "UPS", trackingNumber: "1Z1" });
    const path = `/shipments/${shipment.body.id}/events`;
    const now = new Date(t.clock.now).toISOString();
    const db = t.database.db;

    assertError(
      await assertChangesNothing(
        db,
        () => secret.post(`/orders/order-unknown/shipments`, { carrier: "UPS", trackingNumber: "1" }),
        1,
      ),
      { status: 404, code: "resource_missing" },
    );
    assertError(
      await assertChangesNothing(db, () =>
        secret.post(`/orders/${orderId}/shipments`, { carrier: "UPS", trackingNumber: "2", weight: 1 }),
      ),
      { status: 400, code: "parameter_unknown", param: "weight" },
    );
    assertError(
      await assertChangesNothing(db, () =>
        secret.post(`/orders/${orderId}/shipments`, {
          carrier: "UPS",
          trackingNumber: "3",
          promisedDeliveryDate: "25/11/2026",
        }),
      ),
      { status: 400, code: "parameter_invalid", param: "promisedDeliveryDate" },
    );
    assertError(
      await assertChangesNothing(db, () =>
        secret.post(`/orders/${orderId}/shipments`, { carrier: "UPS", trackingNumber: "bad\nline" }),
      ),
      { status: 400, code: "parameter_invalid", param: "trackingNumber" },
    );
    assertError(await assertChangesNothing(db, () => secret.post(path, { status: "lost", occurredAt: now })), {
      status: 400,
      code: "parameter_invalid",
      param: "status",
    });
    assertError(
      await assertChangesNothing(db, () => secret.post(path, { status: "in_transit", occurredAt: "2026-11-22 12:00" })),
      { status: 400, code: "parameter_invalid", param: "occurredAt" },
    );
    const tomorrow = new Date(t.clock.now + DAY).toISOString();
    assertError(
      await assertChangesNothing(db, () => secret.post(path, { status: "in_transit", occurredAt: tomorrow }), 1),
      {
        status: 400,
        code: "occurred_at_in_future",
        param: "occurredAt",
      },
    );
    assertError(
      await assertChangesNothing(
        db,
        () => secret.post(`/shipments/shp_unknown/events`, { status: "in_transit", occurredAt: now }),
        1,
      ),
      { status: 404, code: "resource_missing" },
    );

    // Another merchant's order and shipment do not exist for this one; a publishable key may not report.
    const other = apiClient(t.baseUrl, (await t.createMerchant()).secretKey);
    assertError(await assertChangesNothing(db, () => other.post(path, { status: "in_transit", occurredAt: now }), 1), {
      status: 404,
      code: "resource_missing",
    });
    assertError(await other.get(`/orders/${orderId}/delivery`), { status: 404, code: "resource_missing" });
    const publishable = apiClient(t.baseUrl, t.merchant.publishableKey);
    assertError(
      await assertChangesNothing(db, () =>
        publishable.post(`/orders/${orderId}/shipments`, { carrier: "UPS", trackingNumber: "4" }),
      ),
      { status: 403, code: "secret_key_required" },
    );
    assertError(await publishable.get(`/orders/${orderId}/delivery`), { status: 403, code: "secret_key_required" });
  });
});
