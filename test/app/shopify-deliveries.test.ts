// Deliveries from Shopify's fulfilment topics, through the app's real wiring (the webhook route, HMAC, receipts, the
// job queue): a fulfilment is the protected order's shipment (carrier, tracking number) and its fulfilment events are
// scans of it (docs/shopify.md "Delivery facts from Shopify"); a fulfilment whose shipment status becomes "delivered"
// records orders.delivered_at on the protected order, once; and the claim rules read it: a "lost in transit" claim that
// the program's rules would approve on its own goes to review once a delivery is recorded.
import { it } from "vitest";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { fulfillmentEventPayload, fulfillmentPayload, orderPayload } from "../support/shopify.ts";
import { getOrderDelivery } from "../../server/domain/shipments.ts";
import { describeShopifyApp } from "../support/dialect-suites.ts";
import { waitFor } from "../support/wait.ts";
import { fileClaim, protectedPaidOrder, setRules } from "./shopify-claim-payout-support.ts";

const SHOP = "delivered-goods.myshopify.com";

describeShopifyApp("Shopify app (%s): deliveries from the fulfilment topics", { shops: [SHOP] }, (app) => {
  const db = () => app.database.db;
  const deliveredAt = async (orderId: number) => {
    const row = await db().get<{ delivered_at: number | string | null }>(
      "SELECT delivered_at FROM orders WHERE external_id = ?",
      [String(orderId)],
    );
    assert.ok(row, "the order is protected");
    return row.delivered_at === null ? null : Number(row.delivered_at);
  };
  const fulfilment = async (
    topic: "fulfillments/create" | "fulfillments/update",
    payload: ReturnType<typeof fulfillmentPayload>,
    options: { webhookId?: string; secret?: string } = {},
  ) => {
    const status = await app.deliver({ shop: SHOP, topic, payload, ...options });
    await app.settled();
    return status;
  };

  it("fulfillments/update: in transit changes nothing; delivered records its time once (a duplicate or a later fulfilment does not move it)", async () => {
    const { order } = await protectedPaidOrder(app, SHOP);
    const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * 3_600_000).toISOString();

    assert.equal(
      await fulfilment("fulfillments/create", fulfillmentPayload({ orderId: order.id, shipmentStatus: null })),
      200,
    );
    const inTransit = fulfillmentPayload({ orderId: order.id, shipmentStatus: "in_transit", updatedAt: at(30) });
    assert.equal(await fulfilment("fulfillments/update", inTransit), 200);
    assert.equal(await deliveredAt(order.id), null, "not delivered yet");

    const webhookId = randomUUID();
    const delivered = fulfillmentPayload({ orderId: order.id, shipmentStatus: "delivered", updatedAt: at(2) });
    assert.equal(await fulfilment("fulfillments/update", delivered, { webhookId }), 200);
    assert.equal(await deliveredAt(order.id), Date.parse(delivered.updated_at));

    // Shopify retries the same delivery (same webhook id): dropped by its receipt, nothing runs.
    const jobs = await db().get<{ n: number | string }>("SELECT COUNT(*) AS n FROM shopify_jobs");
    assert.equal(await fulfilment("fulfillments/update", { ...delivered, updated_at: at(1) }, { webhookId }), 200);
    assert.deepEqual(await db().get("SELECT COUNT(*) AS n FROM shopify_jobs"), jobs, "no job for a duplicate");

    // A second parcel of the order delivered later: the first delivery stays.
    const later = fulfillmentPayload({ orderId: order.id, shipmentStatus: "delivered", updatedAt: at(1) });
    assert.equal(await fulfilment("fulfillments/update", later), 200);
    assert.equal(await deliveredAt(order.id), Date.parse(delivered.updated_at));
  });

  it("fulfillments/create already delivered records it; a delivery time in the future is taken as now", async () => {
    const { order } = await protectedPaidOrder(app, SHOP);
    const before = Date.now();
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const delivered = fulfillmentPayload({ orderId: order.id, shipmentStatus: "delivered", updatedAt: future });
    assert.equal(await fulfilment("fulfillments/create", delivered), 200);
    const recorded = (await deliveredAt(order.id))!;
    assert.ok(recorded >= before && recorded <= Date.now(), "clamped to when it was received");
  });

  const deliveryOf = (plan: { merchant_id: string; mode: "test" | "live" }, orderId: number) =>
    getOrderDelivery(
      db(),
      app.runtime().deps.services,
      { merchantId: plan.merchant_id, mode: plan.mode },
      String(orderId),
    );
  const scan = async (payload: ReturnType<typeof fulfillmentEventPayload>, webhookId?: string) => {
    const status = await app.deliver({ shop: SHOP, topic: "fulfillment_events/create", payload, webhookId });
    await app.settled();
    return status;
  };

  it("fulfillment_events/create: the fulfilment is the order's shipment and its events are scans; the delivered scan is the order's delivery", async () => {
    const { order, plan } = await protectedPaidOrder(app, SHOP);
    const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * 3_600_000).toISOString();
    const shipped = fulfillmentPayload({ orderId: order.id, shipmentStatus: null });
    assert.equal(await fulfilment("fulfillments/create", shipped), 200);
    const events = { orderId: order.id, fulfillmentId: shipped.id };

    // A label is no scan: nothing changes.
    assert.equal(await scan(fulfillmentEventPayload({ ...events, status: "label_printed", happenedAt: at(50) })), 200);
    const inTransit = fulfillmentEventPayload({ ...events, status: "in_transit", happenedAt: at(48) });
    assert.equal(await scan(inTransit), 200);
    const outForDelivery = fulfillmentEventPayload({ ...events, status: "out_for_delivery", happenedAt: at(5) });
    assert.equal(await scan(outForDelivery), 200);
    const moving = await deliveryOf(plan, order.id);
    assert.equal(moving.state, "in_transit");
    assert.equal(moving.shipments.length, 1);
    const [shipment] = moving.shipments;
    assert.equal(shipment.source, "shopify");
    assert.equal(shipment.carrier, "UPS");
    assert.equal(shipment.trackingNumber, "1Z2345");
    assert.deepEqual(
      shipment.events.map((e) => [e.status, e.occurredAt, e.location]),
      [
        ["in_transit", inTransit.happened_at, "Portland, Oregon, United States"],
        ["out_for_delivery", outForDelivery.happened_at, "Portland, Oregon, United States"],
      ],
    );
    assert.equal(await deliveredAt(order.id), null);

    // The same event sent again by Shopify (a new webhook id: a retry of the topic) is the same scan.
    assert.equal(await scan({ ...outForDelivery, id: outForDelivery.id + 1 }), 200);
    assert.equal((await deliveryOf(plan, order.id)).shipments[0].events.length, 2);

    const delivered = fulfillmentEventPayload({ ...events, status: "delivered", happenedAt: at(1) });
    assert.equal(await scan(delivered), 200);
    const done = await deliveryOf(plan, order.id);
    assert.equal(done.state, "delivered");
    assert.equal(done.deliveredAt, delivered.happened_at);
    assert.equal(await deliveredAt(order.id), Date.parse(delivered.happened_at));

    // The fulfilment's own update to delivered (a later time) is the same shipment; the first delivery stays.
    const update = { ...shipped, shipment_status: "delivered" as const, updated_at: at(0.5) };
    assert.equal(await fulfilment("fulfillments/update", update), 200);
    const after = await deliveryOf(plan, order.id);
    assert.equal(after.shipments.length, 1);
    assert.equal(after.deliveredAt, delivered.happened_at);
    assert.equal(await deliveredAt(order.id), Date.parse(delivered.happened_at));
  });

  it("an event that overtakes its fulfilment makes the shipment, which the fulfilment then completes; a failure speaks for the order", async () => {
    const { order, plan } = await protectedPaidOrder(app, SHOP);
    const first = fulfillmentPayload({ orderId: order.id, shipmentStatus: null });
    const second = fulfillmentPayload({ orderId: order.id, shipmentStatus: null });
    assert.equal(
      await scan(fulfillmentEventPayload({ orderId: order.id, fulfillmentId: first.id, status: "delivered" })),
      200,
    );
    assert.equal(await fulfilment("fulfillments/create", { ...first, tracking_number: "1Z-first" }), 200);
    assert.equal(await fulfilment("fulfillments/create", { ...second, tracking_number: "1Z-second" }), 200);
    assert.equal(
      await scan(fulfillmentEventPayload({ orderId: order.id, fulfillmentId: second.id, status: "failure" })),
      200,
    );
    const delivery = await deliveryOf(plan, order.id);
    assert.deepEqual(
      delivery.shipments.map((s) => [s.trackingNumber, s.state]),
      [
        ["1Z-first", "delivered"],
        ["1Z-second", "failed"],
      ],
    );
    assert.equal(delivery.state, "failed");
  });

  it("a fulfilment of only the protection line (it ships nothing) is no shipment, even marked delivered", async () => {
    const { order, plan, protectionLine } = await protectedPaidOrder(app, SHOP);
    const protectionOnly = {
      ...fulfillmentPayload({ orderId: order.id, shipmentStatus: "delivered" }),
      tracking_number: null,
      tracking_numbers: [],
      line_items: [{ id: protectionLine.id, quantity: 1, requires_shipping: false }],
    };
    assert.equal(await app.deliver({ shop: SHOP, topic: "fulfillments/create", payload: protectionOnly }), 200);
    await app.settled();
    assert.deepEqual((await deliveryOf(plan, order.id)).shipments, []);
    assert.equal(await deliveredAt(order.id), null);
  });

  it("fulfillment events of an order without protection are accepted and change nothing", async () => {
    const order = orderPayload({ lines: [{ productId: 222, price: "40.00" }] });
    assert.equal(await app.deliver({ shop: SHOP, topic: "orders/create", payload: order }), 200);
    await app.settled();
    const before = await db().get(
      "SELECT (SELECT COUNT(*) FROM shipments) AS s, (SELECT COUNT(*) FROM shipment_events) AS e",
    );
    assert.equal(
      await scan(fulfillmentEventPayload({ orderId: order.id, fulfillmentId: 1, status: "delivered" })),
      200,
    );
    assert.deepEqual(
      await db().get("SELECT (SELECT COUNT(*) FROM shipments) AS s, (SELECT COUNT(*) FROM shipment_events) AS e"),
      before,
    );
  });

  it("a webhook whose HMAC is not Shopify's is refused and records nothing", async () => {
    const { order } = await protectedPaidOrder(app, SHOP);
    const jobs = await db().get("SELECT COUNT(*) AS n FROM shopify_jobs");
    const forged = fulfillmentPayload({ orderId: order.id, shipmentStatus: "delivered" });
    assert.equal(await fulfilment("fulfillments/update", forged, { secret: "not-the-app-secret" }), 401);
    assert.equal(await deliveredAt(order.id), null);
    assert.deepEqual(await db().get("SELECT COUNT(*) AS n FROM shopify_jobs"), jobs, "no job");
  });

  it("an order without protection: its delivery is accepted and changes nothing", async () => {
    const order = orderPayload({ lines: [{ productId: 222, price: "40.00" }] });
    assert.equal(await app.deliver({ shop: SHOP, topic: "orders/create", payload: order }), 200);
    await app.settled();
    const orders = await db().get("SELECT COUNT(*) AS n FROM orders");
    const delivered = fulfillmentPayload({ orderId: order.id, shipmentStatus: "delivered" });
    assert.equal(await fulfilment("fulfillments/update", delivered), 200);
    assert.deepEqual(await db().get("SELECT COUNT(*) AS n FROM orders"), orders);
    const job = await db().get<{ status: string }>(
      "SELECT status FROM shopify_jobs WHERE kind = 'fulfillments/update' AND subject = ?",
      [String(order.id)],
    );
    assert.equal(job?.status, "done");
  });

  it("a delivery that overtakes the order's protection waits for it (retried), then is recorded", async () => {
    const { order } = await protectedPaidOrder(app, SHOP);
    // As if orders/create were still running: the order's plan row is not there yet and its job is pending.
    const planRow = (await db().get<{ plan_id: string }>("SELECT plan_id FROM shopify_orders WHERE order_id = ?", [
      String(order.id),
    ]))!;
    await db().run("UPDATE shopify_orders SET plan_id = NULL WHERE order_id = ?", [String(order.id)]);
    const now = Date.now();
    await db().run(
      `INSERT INTO shopify_jobs (id, shop, kind, subject, payload, status, attempts, run_at, locked_until, created_at, updated_at)
         VALUES (?, ?, 'orders/create', ?, '{}', 'pending', 0, ?, NULL, ?, ?)`,
      [`job_test_${randomUUID()}`, SHOP, String(order.id), now + 3_600_000, now, now],
    );
    const delivered = fulfillmentPayload({ orderId: order.id, shipmentStatus: "delivered" });
    assert.equal(await app.deliver({ shop: SHOP, topic: "fulfillments/update", payload: delivered }), 200);
    const job = await waitFor(
      () =>
        db().get<{ id: string; status: string; attempts: number | string; last_error: string | null }>(
          "SELECT * FROM shopify_jobs WHERE kind = 'fulfillments/update' AND subject = ? AND attempts > 0",
          [String(order.id)],
        ),
      { what: "the delivery's first attempt" },
    );
    assert.equal(job.status, "pending", "retried");
    assert.match(job.last_error ?? "", /still being protected/);
    assert.equal(await deliveredAt(order.id), null);

    // orders/create finishes; the retry records the delivery.
    await db().run("UPDATE shopify_orders SET plan_id = ? WHERE order_id = ?", [planRow.plan_id, String(order.id)]);
    await db().run("UPDATE shopify_jobs SET status = 'done' WHERE kind = 'orders/create' AND subject = ?", [
      String(order.id),
    ]);
    await db().run("UPDATE shopify_jobs SET run_at = 0 WHERE id = ?", [job.id]);
    app.runtime().queue.wake();
    // The job is done once its handler has returned (the delivery is recorded in the handler's own transaction,
    // before the queue completes the job): wait for that, then read both.
    await waitFor(
      async () =>
        (await db().get<{ status: string }>("SELECT status FROM shopify_jobs WHERE id = ?", [job.id]))!.status ===
        "done",
      { what: "the retry to be done" },
    );
    assert.notEqual(await deliveredAt(order.id), null, "the retry recorded the delivery");
  });

  it("the claim rules read it: a 'lost in transit' claim is approved by the rule while no delivery is recorded, and goes to review once one is", async () => {
    const undelivered = await protectedPaidOrder(app, SHOP);
    await setRules(app, undelivered.plan, {
      autoApprove: { maxAmountCentsByCurrency: { USD: 10_000 }, reasons: ["lost_in_transit"] },
    });
    const approved = await fileClaim(undelivered, { reason: "lost_in_transit", amountCents: 5_000 });
    assert.equal(approved.status, "approved", "no delivery recorded: the rule approves");

    const delivered = await protectedPaidOrder(app, SHOP);
    assert.equal(
      await fulfilment(
        "fulfillments/update",
        fulfillmentPayload({ orderId: delivered.order.id, shipmentStatus: "delivered" }),
      ),
      200,
    );
    assert.notEqual(await deliveredAt(delivered.order.id), null);
    const reviewed = await fileClaim(delivered, { reason: "lost_in_transit", amountCents: 5_000 });
    assert.equal(reviewed.status, "submitted", "a delivery is recorded: the claims team decides");
    const row = (await db().get<{ decided_by: string | null }>("SELECT decided_by FROM claims WHERE id = ?", [
      reviewed.id,
    ]))!;
    assert.equal(row.decided_by, null);
    assert.equal(
      (await db().get<{ decided_by: string }>("SELECT decided_by FROM claims WHERE id = ?", [approved.id]))!.decided_by,
      "rule:auto_approve",
    );
  });
});
