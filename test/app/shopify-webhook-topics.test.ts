// Each handled webhook topic, received with a payload shaped as Shopify sends it: the receipt and the named job it
// feeds commit together, and the job keeps only what its work needs (webhook payloads carry customer data). A topic
// we do not handle changes nothing; a webhook id seen before enqueues nothing more. On SQLite and PostgreSQL.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import pino from "pino";
import { COUNTED_TABLES, createTestDatabase, DIALECTS, rowCounts, type TestDatabase } from "../support/databases.ts";
import {
  appUninstalledPayload,
  customersRedactPayload,
  dataRequestPayload,
  fulfillmentEventPayload,
  fulfillmentPayload,
  orderPayload,
  refundPayload,
  scopesUpdatePayload,
  shopRedactPayload,
} from "../support/shopify.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";
import { shippingAddressHash } from "../../server/domain/buyer-addresses.ts";
import { createSealer } from "../../server/secrets/sealer.ts";
import { receiveWebhook } from "../../app/shopify/webhooks.server.ts";
import { HANDLED_TOPICS } from "../../app/shopify/webhooks/topics.ts";
import type { Job } from "../../app/shopify/jobs.server.ts";
import type { ShopifyOrderEdit } from "../../app/shopify/webhooks/orders-edited.ts";
import type { AppSubscriptionsUpdate } from "../../app/shopify/webhooks/app-subscriptions-update.ts";
import type { ShopifyOrderRiskAssessmentChanged } from "../../app/shopify/webhooks/orders-risk-assessment-changed.ts";

const SHOP = "topics.myshopify.com";
const SHOPIFY_TABLES = ["shopify_webhook_receipts", "shopify_jobs"];
const sealer = createSealer(Buffer.alloc(32, 9));

const order = orderPayload({
  lines: [{ productId: 111, price: "50.00" }],
  attributes: { _protection: "accepted" },
  email: "ada@example.com",
});
const refund = refundPayload({ orderId: order.id, amount: "20.00" });
const edit = {
  order_edit: {
    id: 9001,
    order_id: order.id,
    created_at: new Date().toISOString(),
    line_items: { additions: [{ id: 77, delta: 1 }], removals: [{ id: 78, delta: 1 }] },
  },
} satisfies ShopifyOrderEdit;
const dataRequest = dataRequestPayload(SHOP, { email: "ada@example.com", orderIds: [order.id] });
const redact = customersRedactPayload(SHOP, { email: "ada@example.com", orderIds: [order.id] });
const shipped = fulfillmentPayload({ orderId: order.id, shipmentStatus: null });
const delivered = fulfillmentPayload({ orderId: order.id, shipmentStatus: "delivered" });
const subscription = {
  app_subscription: {
    admin_graphql_api_id: "gid://shopify/AppSubscription/4019585080",
    name: "Purchase Protection usage",
    status: "CANCELLED",
    admin_graphql_api_shop_id: "gid://shopify/Shop/548380009",
    created_at: "2026-11-27T10:00:00-05:00",
    updated_at: "2026-11-27T11:00:00-05:00",
    currency: "USD",
    capped_amount: "1000.00",
  },
} satisfies AppSubscriptionsUpdate;
const riskChanged = {
  order_id: order.id,
  admin_graphql_api_order_id: order.admin_graphql_api_id,
  risk_level: "high",
  provider_id: null,
  provider_title: null,
  created_at: null,
} satisfies ShopifyOrderRiskAssessmentChanged;
const scanned = fulfillmentEventPayload({ orderId: order.id, fulfillmentId: delivered.id, status: "out_for_delivery" });

/** Every handled topic: a real-shaped payload, and what its job keeps. */
const CASES: { topic: string; payload: unknown; kept: unknown; subject?: string }[] = [
  {
    topic: "orders/create",
    payload: order,
    kept: {
      id: String(order.id),
      admin_graphql_api_id: order.admin_graphql_api_id,
      currency: "USD",
      subtotal_price: "50.00",
      email: "ada@example.com",
      // The store's order name: the buyer finds the plan in the portal by it.
      name: order.name,
      note_attributes: [{ name: "_protection", value: "accepted" }],
      // Where the order came from: a draft order's lines and attributes are the merchant's, not the buyer's choice.
      source_name: "web",
      // Each line's title and the destination to the town (no name, street or phone): the claims console's; its gid
      // for a refund of a protection unit.
      line_items: [
        {
          product_id: 111,
          price: "50.00",
          quantity: 1,
          title: "Item",
          id: order.line_items[0].admin_graphql_api_id,
          // The protection line is known by its variant on a Shopify Markets order (docs/shopify.md).
          variant_id: String(order.line_items[0].variant_id),
        },
      ],
      ship_to: { city: "Portland", region: "OR", postalCode: "97201", countryCode: "US" },
      // The street only as the keyed hash of the door: the buyer's claims are counted by it.
      shipping_address_hash: shippingAddressHash(sealer, {
        countryCode: "US",
        postalCode: "97201",
        line1: "1 Harbour Road",
      }),
    },
    subject: String(order.id),
  },
  {
    topic: "orders/edited",
    payload: edit,
    // The lines the edit added to (a protection line added after checkout is refunded); removals are not kept.
    kept: { editId: "9001", orderId: String(order.id), additions: [{ lineId: "gid://shopify/LineItem/77", delta: 1 }] },
    subject: String(order.id),
  },
  {
    topic: "orders/cancelled",
    payload: { ...order, cancelled_at: new Date().toISOString(), cancel_reason: "customer" },
    kept: { id: String(order.id) },
  },
  {
    topic: "refunds/create",
    payload: refund,
    kept: { id: String(refund.id), order_id: String(order.id), note: null, transactions: refund.transactions },
  },
  {
    topic: "fulfillments/create",
    payload: shipped,
    kept: {
      order_id: String(order.id),
      id: String(shipped.id),
      tracking_company: "UPS",
      tracking_number: "1Z2345",
      ships: true,
      shipment_status: null,
      updated_at: shipped.updated_at,
    },
    subject: String(order.id),
  },
  {
    topic: "fulfillments/update",
    payload: delivered,
    kept: {
      order_id: String(order.id),
      id: String(delivered.id),
      tracking_company: "UPS",
      tracking_number: "1Z2345",
      ships: true,
      shipment_status: "delivered",
      updated_at: delivered.updated_at,
    },
    subject: String(order.id),
  },
  {
    // The scan's town, not its street address or coordinates.
    topic: "fulfillment_events/create",
    payload: scanned,
    kept: {
      order_id: String(order.id),
      fulfillment_id: String(delivered.id),
      status: "out_for_delivery",
      happened_at: scanned.happened_at,
      location: "Portland, Oregon, United States",
      message: "Out for delivery",
    },
    subject: String(order.id),
  },
  {
    // The subscription and its new status: the job reads the rest from Shopify.
    topic: "app_subscriptions/update",
    payload: subscription,
    kept: { subscriptionId: "gid://shopify/AppSubscription/4019585080", status: "CANCELLED" },
  },
  {
    // The order only: the job reads its whole risk (and Shopify's recommendation, which the payload lacks).
    topic: "orders/risk_assessment_changed",
    payload: riskChanged,
    kept: { orderId: String(order.id) },
    subject: String(order.id),
  },
  { topic: "app/uninstalled", payload: appUninstalledPayload(SHOP), kept: {} },
  { topic: "app/scopes_update", payload: scopesUpdatePayload(["read_orders"]), kept: { current: ["read_orders"] } },
  { topic: "customers/data_request", payload: dataRequest, kept: dataRequest },
  { topic: "customers/redact", payload: redact, kept: redact },
  { topic: "shop/redact", payload: shopRedactPayload(SHOP), kept: {} },
];

describe.each(DIALECTS)("Shopify webhook topics (%s): each feeds its named job with what it keeps", (dialect) => {
  let database: TestDatabase;
  let deps: Parameters<typeof receiveWebhook>[0];
  const ran: Job[] = [];
  /** Records the jobs handed to it instead of running them: what was enqueued is what is asserted. */
  const queue = { run: async (job: Job) => void ran.push(job) };
  const receive = (topic: string, payload: unknown, webhookId = randomUUID()) =>
    receiveWebhook(deps, queue, { shop: SHOP, topic, webhookId, eventId: randomUUID(), payload });

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    const services = {
      clock: Date.now,
      random: cryptoRandom,
      settings: { companyName: "Test Ltd", portalUrl: "https://portal.example.test" },
    };
    deps = { db: database.db, services, logger: pino({ level: "silent" }), sealer };
  });
  afterAll(() => database?.drop());

  it("every handled topic has a case here", () => {
    assert.deepEqual(CASES.map((testCase) => testCase.topic).sort(), [...HANDLED_TOPICS].sort());
  });

  for (const { topic, payload, kept, subject } of CASES) {
    it(`${topic}: one receipt and one '${topic}' job keeping only what it needs, run at once`, async () => {
      const webhookId = randomUUID();
      assert.equal(await receive(topic, payload, webhookId), "accepted");
      const job = ran.at(-1)!;
      assert.equal(job.kind, topic);
      assert.deepEqual(job.payload, kept);
      const row = (await database.db.get<{ kind: string; subject: string | null; payload: string; status: string }>(
        "SELECT kind, subject, payload, status FROM shopify_jobs WHERE id = ?",
        [job.id],
      ))!;
      assert.deepEqual(
        { ...row, payload: JSON.parse(row.payload) },
        { kind: topic, subject: subject ?? null, payload: kept, status: "pending" },
      );
      assert.ok(
        await database.db.get("SELECT webhook_id FROM shopify_webhook_receipts WHERE webhook_id = ? AND topic = ?", [
          webhookId,
          topic,
        ]),
      );
    });
  }

  it("the same webhook id again: 'duplicate', and nothing more is enqueued or run", async () => {
    const webhookId = randomUUID();
    await receive("orders/create", order, webhookId);
    const before = { rows: await rowCounts(database.db, SHOPIFY_TABLES), ran: ran.length };
    assert.equal(await receive("orders/create", order, webhookId), "duplicate");
    assert.deepEqual({ rows: await rowCounts(database.db, SHOPIFY_TABLES), ran: ran.length }, before);
  });

  it("a topic we do not handle: 'ignored', and no row changes", async () => {
    const before = { rows: await rowCounts(database.db, [...COUNTED_TABLES, ...SHOPIFY_TABLES]), ran: ran.length };
    assert.equal(await receive("products/update", { id: 1, title: "Shirt" }), "ignored");
    assert.deepEqual(
      { rows: await rowCounts(database.db, [...COUNTED_TABLES, ...SHOPIFY_TABLES]), ran: ran.length },
      before,
    );
  });
});
