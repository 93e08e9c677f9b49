// The Shopify side end to end through the app's real wiring: the /webhooks/* route with authenticate.webhook (HMACs
// computed as Shopify computes them), the job queue, the bundled API over the in-process SDK transport, and the Admin
// GraphQL calls the library makes — which the test points at a fake Admin API on loopback.
import { it, beforeAll } from "vitest";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { COUNTED_TABLES, rowCounts } from "../support/databases.ts";
import {
  appUninstalledPayload,
  customersRedactPayload,
  dataRequestPayload,
  orderPayload,
  refundPayload,
  scopesUpdatePayload,
  shopRedactPayload,
  TEST_APP,
  variablesOf,
  type WebhookDelivery,
} from "../support/shopify.ts";
import { describeShopifyApp } from "../support/dialect-suites.ts";
import { waitFor } from "../support/wait.ts";
import { buyerEmailHash } from "../../server/domain/buyer-emails.ts";
import { shippingAddressHash } from "../../server/domain/buyer-addresses.ts";
import { formatDecimalAmount } from "@purchase-protection/contract";
import { runningBalances } from "../../server/domain/settlements.ts";
import { confirmedStateJobId } from "../../app/shopify/order-states.server.ts";

const SHOP = "protected-goods.myshopify.com";
const SHOPIFY_TABLES = [
  "shop_installations",
  "shopify_webhook_receipts",
  "shopify_jobs",
  "shopify_orders",
  "shopify_data_requests",
];

// The columns of the rows these tests read.
interface InstallationRow {
  status: string;
  merchant_id: string;
  program_id: string;
  publishable_key: string;
  secret_key_sealed: string;
  product_id: string;
  tiers: string;
}
interface PlanRow {
  id: string;
  status: string;
  fee_cents: number;
  buyer_fee_cents: number;
  covered_amount_cents: number;
  consent: string;
  reference_number: string;
  void_reason: string | null;
  customer_email_sealed: string | null;
  customer_email_hash: string | null;
  order_name: string | null;
  shipping_address_hash: string | null;
}
interface ShopifyOrderRow {
  reference_number: string | null;
  line_price_cents: number;
  fee_cents: number;
  fee_mismatch: number | boolean;
  reference_written_at: number | null;
  refunded_cents: number;
  status: string;
  order_lines: string | null;
  ship_to: string | null;
}
interface JobRow {
  id: string;
  status: string;
  attempts: number;
  last_error: string | null;
}
/** A COUNT(*) AS n; PostgreSQL returns it as a string. */
type CountRow = { n: number | string };

describeShopifyApp(
  "Shopify app (%s): install, order webhooks, uninstall and privacy topics",
  { shops: [SHOP], inOrder: true },
  (app) => {
    let prisma: typeof import("../../app/db.server.ts").prisma;

    beforeAll(async () => {
      ({ prisma } = await import("../../app/db.server.ts"));
    });

    const runtime = () => app.runtime();
    const db = () => app.database.db;
    const deliver = (delivery: Omit<WebhookDelivery, "shop"> & { shop?: string }) =>
      app.deliver({ shop: SHOP, ...delivery });
    const settled = () => app.settledWithOrderEvents();
    const onShopAuthenticated = async () => app.install(SHOP);

    async function installation() {
      return (await db().get<InstallationRow>("SELECT * FROM shop_installations WHERE shop = ?", [SHOP]))!;
    }

    async function storefront() {
      const row = await installation();
      return {
        productId: row.product_id,
        tiers: JSON.parse(row.tiers) as { priceCents: number; variantId: string }[],
      };
    }

    const plansFor = (orderId: number | string) =>
      db().all<PlanRow>("SELECT * FROM plans WHERE order_id = ?", [String(orderId)]);

    it("install: merchant, keys and program; the hidden non-shipping product with price tiers; the config in app-owned metafields", async () => {
      const row = await installation();
      assert.equal(row.status, "installed");
      assert.match(row.publishable_key, /^wk_test_/);
      assert.doesNotMatch(row.secret_key_sealed, /mch_/, "the secret key is stored sealed");
      const merchant = await db().get<{ shop_domain: string }>("SELECT * FROM merchants WHERE id = ?", [
        row.merchant_id,
      ]);
      assert.equal(merchant?.shop_domain, SHOP);

      const productSet = app.admin.calls.find((call) => call.operationName === "ProtectionProductSet")!;
      assert.equal(productSet.accessToken, `shpat_${SHOP}`, "called with the shop's offline token");
      const { input } = variablesOf(productSet, "ProtectionProductSet");
      assert.equal(input.title, "Purchase Protection");
      assert.deepEqual(input.metafields, [{ namespace: "seo", key: "hidden", type: "number_integer", value: "1" }]);
      assert.ok(input.variants.length > 100 && input.variants.length <= 250);
      for (const variant of input.variants) {
        assert.deepEqual(variant.inventoryItem, { requiresShipping: false, tracked: false });
        assert.equal(variant.taxable, false);
      }
      assert.equal(input.variants[0].price, "1.00", "the first tier is the program's minimum fee");
      assert.ok(
        app.admin.calls.some(
          (call) =>
            call.operationName === "PublishProtection" &&
            variablesOf(call, "PublishProtection").input[0].publicationId === "gid://shopify/Publication/1",
        ),
      );

      const { productId, tiers } = await storefront();
      assert.equal(tiers.length, input.variants.length);
      assert.deepEqual(
        tiers.map((tier) => tier.priceCents),
        [...tiers.map((tier) => tier.priceCents)].sort((a, b) => a - b),
      );
      const config = app.admin.metafields.map((metafield) => ({ ...metafield, value: JSON.parse(metafield.value) }));
      assert.deepEqual(
        config.map(({ ownerId, namespace, key, type }) => ({ ownerId, namespace, key, type })),
        [
          { ownerId: "gid://shopify/AppInstallation/42", namespace: "protection", key: "config", type: "json" },
          { ownerId: "gid://shopify/Shop/7", namespace: "$app:protection", key: "config", type: "json" },
        ],
      );
      assert.deepEqual(config[0].value, {
        version: 1,
        publishableKey: row.publishable_key,
        programId: row.program_id,
        apiBase: `${TEST_APP.SHOPIFY_APP_URL}/api/v1`,
        widgetUrl: `${TEST_APP.SHOPIFY_APP_URL}/widget/v1/service-widget.js`,
        productId,
        tiers,
      });
    });

    it("install again (a new session for an installed shop): nothing changes and no setup is queued", async () => {
      const before = {
        jobs: await rowCounts(db(), ["shopify_jobs", "api_keys", "merchants"]),
        calls: app.admin.calls.length,
      };
      await onShopAuthenticated();
      assert.deepEqual(await rowCounts(db(), ["shopify_jobs", "api_keys", "merchants"]), before.jobs);
      assert.equal(app.admin.calls.length, before.calls);
    });

    it("orders/create with _protection=accepted: one plan on the goods amount, and the reference written back to the order", async () => {
      const { productId, tiers } = await storefront();
      const tier = tiers.find((candidate) => candidate.priceCents >= 360)!; // 3 % of 120.00 = 3.60
      const order = orderPayload({
        lines: [
          { productId: 111, price: "100.00" },
          { productId: 222, price: "10.00", quantity: 2 },
          { productId, variantId: tier.variantId, price: formatDecimalAmount(tier.priceCents, "USD") },
        ],
        attributes: { _protection: "accepted", _protection_quote: "quo_from_the_cart" },
        email: "Ada.Buyer@example.com",
      });
      assert.equal(await deliver({ topic: "orders/create", payload: order }), 200);
      await settled();

      const [plan] = await plansFor(order.id);
      assert.equal(plan.status, "active");
      assert.equal(plan.fee_cents, 360);
      assert.equal(plan.covered_amount_cents, 12_000, "the order's subtotal less the protection line");
      assert.equal(JSON.parse(plan.consent).surface, "server");
      assert.equal(
        runtime().deps.sealer.open(plan.customer_email_sealed!),
        "Ada.Buyer@example.com",
        "the address is stored sealed",
      );
      assert.equal(
        plan.customer_email_hash,
        buyerEmailHash(runtime().deps.sealer, " ada.buyer@EXAMPLE.com"),
        "and found by its hash, in any case",
      );
      assert.equal(plan.order_name, order.name, "the order's name as the buyer knows it (#1001)");
      assert.equal(
        plan.shipping_address_hash,
        shippingAddressHash(runtime().deps.sealer, {
          countryCode: "US",
          postalCode: "97201",
          line1: "1 Harbour Road",
        }),
        "the door, as its keyed hash only: the buyer's claims are counted by it too",
      );
      const row = (await db().get<ShopifyOrderRow>("SELECT * FROM shopify_orders WHERE order_id = ?", [
        String(order.id),
      ]))!;
      assert.equal(row.reference_number, plan.reference_number);
      assert.equal(row.line_price_cents, tier.priceCents);
      assert.equal(Number(row.fee_mismatch), 0, "the line is the fee's tier");
      assert.ok(row.reference_written_at, "write-back recorded");
      // For the claims console: the goods (not the protection line) and the destination to the town only.
      assert.deepEqual(JSON.parse(row.order_lines!), [
        { title: "Item", quantity: 1, unitPriceCents: 10_000 },
        { title: "Item", quantity: 2, unitPriceCents: 1_000 },
      ]);
      assert.deepEqual(JSON.parse(row.ship_to!), {
        city: "Portland",
        region: "OR",
        postalCode: "97201",
        countryCode: "US",
      });

      const written = app.admin.orders.get(order.admin_graphql_api_id)!;
      assert.deepEqual(written.customAttributes, [
        { key: "_protection", value: "accepted" },
        { key: "_protection_quote", value: "quo_from_the_cart" },
        { key: "_protection_reference", value: plan.reference_number },
      ]);
      assert.deepEqual(written.metafields, [
        {
          namespace: "$app:protection",
          key: "reference_number",
          type: "single_line_text_field",
          value: plan.reference_number,
        },
      ]);
    });

    it("the protection line is fulfilled at once by the reference's write-back, without notifying the buyer; the goods stay open; a rerun does nothing", async () => {
      const { productId, tiers } = await storefront();
      const tier = tiers.find((candidate) => candidate.priceCents >= 150)!;
      const order = orderPayload({
        lines: [
          { productId: 111, price: "50.00" },
          { productId, variantId: tier.variantId, price: formatDecimalAmount(tier.priceCents, "USD") },
        ],
        attributes: { _protection: "accepted" },
      });
      app.admin.addFulfillmentOrder(order);
      assert.equal(await deliver({ topic: "orders/create", payload: order }), 200);
      await settled();
      const fulfilled = app.admin.fulfillments.filter((fulfillment) => fulfillment.lineItems.length > 0).at(-1)!;
      assert.equal(fulfilled.notifyCustomer, false);
      assert.equal(fulfilled.lineItems.length, 1, "only the protection line");
      assert.equal(fulfilled.lineItems[0].quantity, 1);

      const fulfilmentReads = () =>
        app.admin.calls.filter((call) => call.operationName === "ProtectionFulfillmentOrders").length;
      assert.equal(fulfilmentReads(), 0, "the write-back's own call read the fulfillment orders");

      const before = app.admin.fulfillments.length;
      // The reference's job again, as a retry would run it (a done job keeps no payload).
      const recorded = (await db().get<{ plan_id: string; reference_number: string }>(
        "SELECT plan_id, reference_number FROM shopify_orders WHERE order_id = ?",
        [String(order.id)],
      ))!;
      const job = { id: confirmedStateJobId(recorded.plan_id) };
      await db().run("UPDATE shopify_jobs SET status = 'pending', payload = ?, run_at = 0 WHERE id = ?", [
        JSON.stringify({
          planId: recorded.plan_id,
          orderId: String(order.id),
          orderGid: order.admin_graphql_api_id,
          attributes: order.note_attributes,
          referenceNumber: recorded.reference_number,
          fulfilProtectionLine: true,
        }),
        job.id,
      ]);
      await runtime().queue.runDue();
      assert.equal(app.admin.fulfillments.length, before, "nothing left to fulfill: no second fulfillment");

      // A fulfilment job queued before the write-back fulfilled the line (a deploy with jobs queued) does the same.
      await db().run(
        "UPDATE shopify_jobs SET status = 'pending', kind = 'fulfill_protection_line', payload = ?, run_at = 0 WHERE id = ?",
        [JSON.stringify({ orderGid: order.admin_graphql_api_id }), job.id],
      );
      await runtime().queue.runDue();
      assert.equal(fulfilmentReads(), 1);
      assert.equal(app.admin.fulfillments.length, before, "nothing left to fulfill: no second fulfillment");
    });

    it("a bad HMAC is 401 and creates nothing", async () => {
      const before = await rowCounts(db(), [...COUNTED_TABLES, ...SHOPIFY_TABLES]);
      const order = orderPayload({
        lines: [{ productId: 111, price: "50.00" }],
        attributes: { _protection: "accepted" },
      });
      assert.equal(await deliver({ topic: "orders/create", payload: order, secret: "not-the-app-secret" }), 401);
      assert.deepEqual(await rowCounts(db(), [...COUNTED_TABLES, ...SHOPIFY_TABLES]), before);
    });

    it("the same delivery eight times at once, and again under a new webhook id: one plan", async () => {
      const order = orderPayload({
        lines: [{ productId: 111, price: "80.00" }],
        attributes: { _protection: "accepted" },
      });
      const webhookId = randomUUID();
      const statuses = await Promise.all(
        Array.from({ length: 8 }, () => deliver({ topic: "orders/create", payload: order, webhookId })),
      );
      assert.deepEqual(statuses, Array(8).fill(200));
      assert.equal(await deliver({ topic: "orders/create", payload: order }), 200);
      await settled();
      assert.equal((await plansFor(order.id)).length, 1);
      const receipts = await db().all("SELECT * FROM shopify_webhook_receipts WHERE webhook_id = ?", [webhookId]);
      assert.equal(receipts.length, 1);
      const jobs = await db().all(
        "SELECT * FROM shopify_jobs WHERE kind = 'orders/create' AND status = 'done' AND created_at >= ?",
        [Date.now() - 60_000],
      );
      assert.ok(jobs.length >= 2);
    });

    it("an order the merchant's server protected first: its job records that plan (no second one) and writes its reference back", async () => {
      const order = orderPayload({
        lines: [{ productId: 111, price: "50.00" }],
        attributes: { _protection: "accepted" },
      });
      const installation = (await runtime().deps.installation(SHOP))!;
      const client = runtime().deps.protectionClient(installation);
      const quote = await client.headless.quote(
        {
          order_amount_cents: 5_000,
          order_id: String(order.id),
          protection_program_id: installation.programId,
          currency: "USD",
          customer_email: "buyer@example.com",
        },
        randomUUID(),
      );
      const plan = await client.headless.confirm({ quote_id: quote.quote_id }, randomUUID());
      assert.equal(await deliver({ topic: "orders/create", payload: order }), 200);
      await settled();
      assert.deepEqual(
        (await plansFor(order.id)).map(({ id }) => id),
        [plan.plan_id],
      );
      const row = (await db().get<ShopifyOrderRow>("SELECT * FROM shopify_orders WHERE order_id = ?", [
        String(order.id),
      ]))!;
      assert.equal(row.reference_number, plan.reference_number);
      assert.ok(row.reference_written_at, "write-back recorded");
      assert.equal(app.admin.orders.get(order.admin_graphql_api_id)!.metafields[0].value, plan.reference_number);
    });

    it("declined or absent opt-in: no quote, no plan", async () => {
      const before = await rowCounts(db(), ["quotes", "plans", "shopify_orders"]);
      const choices: Record<string, string>[] = [{ _protection: "declined", _protection_quote: "quo_x" }, {}];
      for (const attributes of choices) {
        assert.equal(
          await deliver({
            topic: "orders/create",
            payload: orderPayload({ lines: [{ productId: 111, price: "30.00" }], attributes }),
          }),
          200,
        );
      }
      await settled();
      assert.deepEqual(await rowCounts(db(), ["quotes", "plans", "shopify_orders"]), before);
    });

    it("the protection line without the attribute still protects; a line that is not the fee's tier is recorded as a fee mismatch", async () => {
      const { productId, tiers } = await storefront();
      // The cart was quoted at 40.00 (fee 1.20 → tier 1.20), then items were added: the plan is on 90.00 (fee 2.70).
      const stale = tiers.find((tier) => tier.priceCents >= 120)!;
      const order = orderPayload({
        lines: [
          { productId: 111, price: "90.00" },
          { productId, variantId: stale.variantId, price: "1.20" },
        ],
      });
      assert.equal(await deliver({ topic: "orders/create", payload: order }), 200);
      await settled();
      const [plan] = await plansFor(order.id);
      assert.equal(plan.fee_cents, 270);
      const row = (await db().get<ShopifyOrderRow>("SELECT * FROM shopify_orders WHERE order_id = ?", [
        String(order.id),
      ]))!;
      assert.equal(row.line_price_cents, 120);
      assert.equal(row.fee_cents, 270);
      assert.equal(Number(row.fee_mismatch), 1);
    });

    it("a split program: the protection line pays the buyer's part, so the tier of that part is no fee mismatch", async () => {
      // docs/api.md "Who pays": 3 % of 120.00 is a fee of 3.60; the buyer pays 25 % of it, 0.90: the 1.00 tier.
      const { productId, tiers } = await storefront();
      const { program_id: programId } = await installation();
      const setPayer = (payer: string, buyerShareBps: number | null) =>
        db().run("UPDATE protection_programs SET payer = ?, buyer_share_bps = ? WHERE id = ?", [
          payer,
          buyerShareBps,
          programId,
        ]);
      const tier = tiers.find((candidate) => candidate.priceCents >= 90)!;
      assert.equal(tier.priceCents, 100);
      const order = orderPayload({
        lines: [
          { productId: 111, price: "120.00" },
          { productId, variantId: tier.variantId, price: "1.00" },
        ],
        attributes: { _protection: "accepted" },
      });
      await setPayer("split", 2_500);
      try {
        assert.equal(await deliver({ topic: "orders/create", payload: order }), 200);
        await settled();
      } finally {
        await setPayer("buyer", null);
      }
      const [plan] = await plansFor(order.id);
      assert.deepEqual([plan.fee_cents, plan.buyer_fee_cents], [360, 90]);
      const row = (await db().get<ShopifyOrderRow>("SELECT * FROM shopify_orders WHERE order_id = ?", [
        String(order.id),
      ]))!;
      assert.equal(row.line_price_cents, 100);
      assert.equal(Number(row.fee_mismatch), 0, "the line is the tier of the buyer's part");
      // Its ledger: the buyer's 0.90 collected through the line, 20 % of it (0.18) the merchant's share, the
      // merchant's own 2.70 on its statement.
      const ledger = await db().all<{ kind: string; amount_cents: number | string }>(
        "SELECT kind, amount_cents FROM ledger_entries WHERE plan_id = ? ORDER BY kind",
        [plan.id],
      );
      assert.deepEqual(
        ledger.map((entry) => [entry.kind, Number(entry.amount_cents)]),
        [
          ["fee_collected", -90],
          ["merchant_fee_share", 18],
          ["merchant_paid_fee", -270],
        ],
      );
    });

    it("a merchant-paid program protects every order without a cart line, the whole fee the merchant's; a stray protection line is refunded; redelivered, still one plan", async () => {
      // docs/shopify.md "Who pays on Shopify". 3 % of 120.00 is 3.60 and 3 % of 50.00 is 1.50, all the merchant's.
      const { productId, tiers } = await storefront();
      const { program_id: programId, merchant_id: merchantId } = await installation();
      const setPayer = (payer: string) =>
        db().run("UPDATE protection_programs SET payer = ?, buyer_share_bps = NULL WHERE id = ?", [payer, programId]);
      /** The open statement's totals of the merchant's own fees and of corrections (docs/api.md "Who pays"). */
      const statementTotals = async () => {
        const usd = (await runningBalances(db(), { merchantId, mode: "test" }, Date.now())).find(
          (balance) => balance.currency === "USD",
        );
        return { paid: usd?.totals.merchant_paid_fee ?? 0, returned: usd?.totals.correction ?? 0 };
      };
      const before = await statementTotals();
      // No opt-in anywhere: the buyer was told, not asked.
      const plain = orderPayload({ lines: [{ productId: 111, price: "120.00" }] });
      // Declined, with a protection line from a cart made before the merchant paid: protected, the line refunded.
      const stray = orderPayload({
        lines: [
          { productId: 111, price: "50.00" },
          { productId, variantId: tiers[0].variantId, price: formatDecimalAmount(tiers[0].priceCents, "USD") },
        ],
        attributes: { _protection: "declined" },
      });
      await setPayer("merchant");
      try {
        const webhookId = randomUUID();
        for (const delivery of [
          { topic: "orders/create", payload: plain, webhookId },
          { topic: "orders/create", payload: plain, webhookId }, // Shopify's retry of the same delivery
          { topic: "orders/create", payload: plain }, // and the order again under a new webhook id
          { topic: "orders/create", payload: stray },
        ])
          assert.equal(await deliver(delivery), 200);
        await settled();
      } finally {
        await setPayer("buyer");
      }

      const plans = await plansFor(plain.id);
      assert.equal(plans.length, 1, "one plan however often the order came");
      const [plan] = plans;
      assert.deepEqual([plan.status, plan.fee_cents, plan.buyer_fee_cents], ["active", 360, 0]);
      const consent = JSON.parse(plan.consent);
      assert.deepEqual([consent.payer, consent.buyerShown, consent.merchantFeeCents], ["merchant", "notice", 360]);
      assert.deepEqual(consent.evidence, [], "no choice of the buyer's is claimed");
      const ledger = await db().all<{ kind: string; amount_cents: number | string }>(
        "SELECT kind, amount_cents FROM ledger_entries WHERE plan_id = ? ORDER BY kind",
        [plan.id],
      );
      assert.deepEqual(
        ledger.map((entry) => [entry.kind, Number(entry.amount_cents)]),
        [["merchant_paid_fee", -360]],
      );
      const row = (await db().get<ShopifyOrderRow>("SELECT * FROM shopify_orders WHERE order_id = ?", [
        String(plain.id),
      ]))!;
      assert.deepEqual([row.line_price_cents, Number(row.fee_mismatch)], [null, 0], "no line, and none expected");
      assert.equal(row.reference_number, plan.reference_number);
      assert.ok(row.reference_written_at, "the reference is written back as for any plan");

      const [strayPlan] = await plansFor(stray.id);
      assert.deepEqual([strayPlan.fee_cents, strayPlan.buyer_fee_cents], [150, 0]);
      const strayRow = (await db().get<ShopifyOrderRow>("SELECT * FROM shopify_orders WHERE order_id = ?", [
        String(stray.id),
      ]))!;
      assert.deepEqual([strayRow.line_price_cents, Number(strayRow.fee_mismatch)], [null, 0]);
      const refunds = await db().all<{ payload: string }>(
        "SELECT payload FROM shopify_jobs WHERE kind = 'refund_protection_lines' AND subject = ?",
        [String(stray.id)],
      );
      assert.equal(refunds.length, 1);
      assert.deepEqual(
        JSON.parse(refunds[0].payload).lines.map((line: { keep: number }) => line.keep),
        [0],
        "the stray line is refunded whole",
      );
      const references = app.admin.calls
        .filter((call) => call.operationName === "ProtectionReference")
        .map((call) => variablesOf(call, "ProtectionReference"))
        .filter((variables) => variables.input.id === stray.admin_graphql_api_id);
      assert.deepEqual(
        references.map((variables) => variables.fulfilling),
        [false],
        "a refunded line is not fulfilled",
      );

      // Cancelled in Shopify: the plan is voided and the merchant's 3.60 comes back (a void returns the merchant's
      // part). On the open statement: −3.60 − 1.50 paid, +3.60 returned.
      assert.equal(
        await deliver({ topic: "orders/cancelled", payload: { ...plain, cancelled_at: new Date().toISOString() } }),
        200,
      );
      await settled();
      assert.equal((await plansFor(plain.id))[0].status, "voided");
      const after = await statementTotals();
      assert.deepEqual([after.paid - before.paid, after.returned - before.returned], [-510, 360]);
    });

    it("a program whose payer became the buyer between the app's look and the quote: nothing is written without the buyer's choice", async () => {
      // The core refuses a confirm resting on no evidence for any program but a merchant-paid one.
      const { secretKey, programId } = (await runtime().deps.installation(SHOP))!;
      const before = await rowCounts(db());
      await assert.rejects(
        runtime().deps.shopify.protectOrder(
          secretKey,
          { order_amount_cents: 5_000, order_id: "no-choice-1", protection_program_id: programId },
          () => [],
          async () => assert.fail("nothing to record"),
        ),
        /payer is buyer now/,
      );
      assert.deepEqual(await rowCounts(db()), before);
    });

    it("an order the API refuses (unsupported currency) is not retried: its job is dead at once, with the API's reason", async () => {
      const order = orderPayload({
        currency: "CHF",
        lines: [{ productId: 111, price: "40.00" }],
        attributes: { _protection: "accepted" },
      });
      assert.equal(await deliver({ topic: "orders/create", payload: order }), 200);
      const job = (await db().get<JobRow>(
        "SELECT * FROM shopify_jobs WHERE kind = 'orders/create' ORDER BY created_at DESC LIMIT 1",
      ))!;
      assert.equal(job.status, "dead");
      assert.equal(job.attempts, 1);
      assert.match(job.last_error ?? "", /currency_unsupported/);
      assert.equal((await plansFor(order.id)).length, 0);
    });

    it("a phone-only order (no e-mail anywhere) gets no plan: the confirm's customer_email_required is final (the job dead at once), and the quote keeps the refusal for the dashboard", async () => {
      const placed = orderPayload({
        lines: [{ productId: 111, price: "40.00" }],
        attributes: { _protection: "accepted" },
      });
      const order = { ...placed, email: null, contact_email: null, customer: { ...placed.customer, email: null } };
      assert.equal(await deliver({ topic: "orders/create", payload: order }), 200);
      await settled();
      const job = (await db().get<JobRow>(
        "SELECT * FROM shopify_jobs WHERE kind = 'orders/create' ORDER BY created_at DESC LIMIT 1",
      ))!;
      assert.equal(job.status, "dead");
      assert.equal(job.attempts, 1, "not retried: no retry can give the order an address");
      assert.match(job.last_error ?? "", /customer_email_required/);
      assert.equal((await plansFor(order.id)).length, 0);
      const quote = await db().get<{ status: string; confirm_refused_code: string | null }>(
        "SELECT status, confirm_refused_code FROM quotes WHERE order_id = ?",
        [String(order.id)],
      );
      assert.deepEqual({ ...quote }, { status: "open", confirm_refused_code: "customer_email_required" });
    });

    it("the reference write-back is retried when the Admin API fails", async () => {
      app.admin.failNext("ProtectionReference", 502);
      const order = orderPayload({
        lines: [{ productId: 111, price: "60.00" }],
        attributes: { _protection: "accepted" },
      });
      assert.equal(await deliver({ topic: "orders/create", payload: order }), 200);
      const job = await waitFor(() =>
        db().get<JobRow>(
          "SELECT * FROM shopify_jobs WHERE kind = 'write_reference' AND attempts = 1 AND status = 'pending' AND payload LIKE ?",
          [`%${order.id}%`],
        ),
      );
      assert.match(job.last_error ?? "", /502|Internal|error/i);
      assert.ok(!app.admin.orders.has(order.admin_graphql_api_id));
      await db().run("UPDATE shopify_jobs SET run_at = 0 WHERE id = ?", [job.id]); // its backoff has passed
      runtime().queue.wake();
      await settled();
      const [plan] = await plansFor(order.id);
      assert.equal(
        app.admin.orders.get(order.admin_graphql_api_id)!.customAttributes.at(-1)!.value,
        plan.reference_number,
      );
    });

    it("orders/cancelled voids the plan; a retried cancellation changes nothing more", async () => {
      const order = orderPayload({
        lines: [{ productId: 111, price: "45.00" }],
        attributes: { _protection: "accepted" },
      });
      await deliver({ topic: "orders/create", payload: order });
      await settled();
      assert.equal(
        await deliver({
          topic: "orders/cancelled",
          payload: { ...order, cancelled_at: new Date().toISOString(), cancel_reason: "customer" },
        }),
        200,
      );
      await deliver({ topic: "orders/cancelled", payload: order });
      await settled();
      const [plan] = await plansFor(order.id);
      assert.equal(plan.status, "voided");
      assert.equal(plan.void_reason, "order_cancelled");
      assert.equal(
        (await db().all("SELECT * FROM events WHERE type = 'protection.voided' AND data LIKE ?", [`%${plan.id}%`]))
          .length,
        1,
      );
    });

    it("refunds/create: a partial refund keeps the plan; the refund that completes the goods amount reports it, counted once", async () => {
      const order = orderPayload({
        lines: [{ productId: 111, price: "70.00" }],
        attributes: { _protection: "accepted" },
      });
      await deliver({ topic: "orders/create", payload: order });
      await settled();
      const partial = refundPayload({ orderId: order.id, amount: "30.00" });
      await deliver({ topic: "refunds/create", payload: partial });
      await deliver({ topic: "refunds/create", payload: partial }); // Shopify retried with a new webhook id
      await settled();
      assert.equal((await plansFor(order.id))[0].status, "active");
      const row = (await db().get<ShopifyOrderRow>("SELECT * FROM shopify_orders WHERE order_id = ?", [
        String(order.id),
      ]))!;
      assert.equal(row.refunded_cents, 3_000, "the retried refund counted once");

      await deliver({ topic: "refunds/create", payload: refundPayload({ orderId: order.id, amount: "40.00" }) });
      await settled();
      const orderRow = (await db().get<{ status: string }>("SELECT * FROM orders WHERE external_id = ?", [
        String(order.id),
      ]))!;
      assert.equal(orderRow.status, "merchant_refunded");
      assert.equal((await plansFor(order.id))[0].status, "voided");
      assert.equal(
        (await db().get<{ status: string }>("SELECT status FROM shopify_orders WHERE order_id = ?", [
          String(order.id),
        ]))!.status,
        "refunded",
      );

      // The app's idempotency keys are an HMAC under the server's key: nobody can compute one from the shop and order
      // and pre-claim it. They are the secret key's (a publishable key's request with the same key is another scope).
      // The refund report takes one; orders/create's quote and confirm take none: they are one unit of work in the
      // core (server/core/shopify.ts), not calls over the SDK.
      const keys = await db().all<{ key: string; key_kind: string; fingerprint: string }>(
        "SELECT key, key_kind, fingerprint FROM idempotency_records WHERE key LIKE 'shopify-%'",
      );
      assert.ok(
        keys.some(({ fingerprint }) => fingerprint.startsWith(`POST /api/v1/orders/${order.id}/refund `)),
        "the refund report",
      );
      assert.deepEqual(
        keys.filter(({ fingerprint }) => fingerprint.includes("/headless/")),
        [],
        "no quote or confirm",
      );
      for (const { key, key_kind } of keys) {
        assert.match(key, /^shopify-[A-Za-z0-9_-]{43}$/);
        assert.equal(key_kind, "secret");
      }
      assert.equal(
        keys.some(({ key }) => key.includes(String(order.id))),
        false,
        "the order id is not in any key",
      );
    });

    it("orders/cancelled that overtakes its orders/create is retried until the plan exists", async () => {
      const order = orderPayload({
        lines: [{ productId: 111, price: "55.00" }],
        attributes: { _protection: "accepted" },
      });
      // orders/create is accepted but its job has not run (as if the app had crashed right after the receipt).
      const { enqueueJob } = await import("../../app/shopify/jobs.server.ts");
      const { orderPayloadOf } = await import("../../app/shopify/webhooks/orders-create.ts");
      await enqueueJob(db(), runtime().deps.services, {
        shop: SHOP,
        kind: "orders/create",
        subject: String(order.id),
        payload: orderPayloadOf(order, runtime().deps.sealer),
        claimed: true,
      });
      assert.equal(await deliver({ topic: "orders/cancelled", payload: order }), 200);
      const cancel = (await db().get<JobRow>(
        "SELECT * FROM shopify_jobs WHERE kind = 'orders/cancelled' ORDER BY created_at DESC LIMIT 1",
      ))!;
      assert.equal(cancel.status, "pending");
      assert.match(cancel.last_error ?? "", /still being protected/);
      // Leases and backoffs run out: the poller runs both (in one batch the cancellation may fail once more, as the
      // plan is not there yet; its next attempt voids).
      for (let round = 0; round < 3 && (await plansFor(order.id))[0]?.status !== "voided"; round++) {
        await db().run("UPDATE shopify_jobs SET locked_until = NULL, run_at = 0 WHERE status = 'pending'");
        await runtime().queue.runDue();
      }
      assert.equal((await plansFor(order.id))[0].status, "voided");
    });

    it("customers/data_request keeps an export of the customer's plans; customers/redact removes the personal data", async () => {
      const email = "private.person@example.com";
      const order = orderPayload({
        lines: [{ productId: 111, price: "25.00" }],
        attributes: { _protection: "accepted" },
        email,
      });
      await deliver({ topic: "orders/create", payload: order });
      await settled();
      await deliver({
        topic: "customers/data_request",
        payload: dataRequestPayload(SHOP, { email, orderIds: [order.id], requestId: 99 }),
      });
      await settled();
      const request = (await db().get<{ export: string }>("SELECT * FROM shopify_data_requests WHERE shop = ?", [
        SHOP,
      ]))!;
      const exported: {
        dataRequestId: number;
        records: { test: { purchases: { id: string }[]; shopifyOrders: { shipTo: unknown }[] } };
      } = JSON.parse(request.export);
      assert.equal(exported.dataRequestId, 99);
      const [plan] = await plansFor(order.id);
      assert.deepEqual(
        exported.records.test.purchases.map((purchase) => purchase.id),
        [plan.id],
      );
      assert.ok(request.export.includes(email));
      // The order's destination kept for the claims console is the customer's too.
      assert.deepEqual(
        exported.records.test.shopifyOrders.map((kept) => kept.shipTo),
        [{ city: "Portland", region: "OR", postalCode: "97201", countryCode: "US" }],
      );

      // Addresses are stored sealed; their keyed hash is what finds them.
      const hashColumns = [
        ["quotes", "customer_email_hash"],
        ["plans", "customer_email_hash"],
        ["email_messages", "recipient_hash"],
      ];
      const byHash = async (table: string, column: string) =>
        Number(
          (await db().get<CountRow>(`SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = ?`, [
            buyerEmailHash(runtime().deps.sealer, email),
          ]))!.n,
        );
      for (const [table, column] of hashColumns)
        assert.equal(await byHash(table, column), 1, `${table}.${column} finds the buyer`);

      await deliver({
        topic: "customers/redact",
        payload: customersRedactPayload(SHOP, { email, orderIds: [order.id] }),
      });
      await settled();
      const stillThere = async (table: string, column: string) =>
        Number(
          (await db().get<CountRow>(`SELECT COUNT(*) AS n FROM ${table} WHERE LOWER(${column}) LIKE ?`, [
            `%${email}%`,
          ]))!.n,
        );
      for (const [table, column] of [
        ["events", "data"],
        ["shopify_jobs", "payload"],
        ["shopify_data_requests", "export"],
      ]) {
        assert.equal(await stillThere(table, column), 0, `${table}.${column} no longer holds the address`);
      }
      for (const [table, column] of hashColumns)
        assert.equal(await byHash(table, column), 0, `${table}.${column} no longer finds the buyer`);
      const message = (await db().get<{ recipient_sealed: string | null }>(
        "SELECT recipient_sealed FROM email_messages WHERE plan_id = ?",
        [plan.id],
      ))!;
      assert.equal(message.recipient_sealed, null, "the sealed recipient is gone too");
      const [redacted] = await plansFor(order.id);
      assert.equal(redacted.customer_email_sealed, null, "the sealed address is gone too");
      assert.equal(redacted.shipping_address_hash, null, "and the shipping address's hash");
      assert.equal(redacted.reference_number, plan.reference_number, "the contract's record stays");
      assert.equal(redacted.fee_cents, plan.fee_cents);
      const shopifyOrder = (await db().get<ShopifyOrderRow>("SELECT * FROM shopify_orders WHERE order_id = ?", [
        String(order.id),
      ]))!;
      assert.equal(shopifyOrder.ship_to, null, "the order's destination is gone (the claims console says Not known)");
    });

    it("app/scopes_update stores the granted scopes on the shop's sessions", async () => {
      const granted = ["read_orders", "write_orders", "read_products", "write_products"];
      assert.equal(await deliver({ topic: "app/scopes_update", payload: scopesUpdatePayload(granted) }), 200);
      await settled();
      const sessions = await prisma().session.findMany({ where: { shop: SHOP } });
      assert.ok(sessions.length > 0);
      for (const session of sessions) assert.equal(session.scope, granted.join(","));
    });

    it("app/uninstalled revokes the keys and deletes the sessions; installing again mints new keys", async () => {
      const before = await installation();
      assert.equal(await deliver({ topic: "app/uninstalled", payload: appUninstalledPayload(SHOP) }), 200);
      await settled();
      const after = await installation();
      assert.equal(after.status, "uninstalled");
      const keys = await db().all<{ revoked_at: number | null }>("SELECT * FROM api_keys WHERE merchant_id = ?", [
        before.merchant_id,
      ]);
      assert.ok(keys.length >= 2 && keys.every((key) => key.revoked_at !== null), "every key revoked");
      assert.equal(await prisma().session.count({ where: { shop: SHOP } }), 0);

      // An order arriving after uninstall protects nothing.
      const order = orderPayload({
        lines: [{ productId: 111, price: "20.00" }],
        attributes: { _protection: "accepted" },
      });
      await deliver({ topic: "orders/create", payload: order });
      await settled();
      assert.equal((await plansFor(order.id)).length, 0);

      await prisma().session.create({
        data: {
          id: `offline_${SHOP}`,
          shop: SHOP,
          state: "",
          isOnline: false,
          scope: TEST_APP.SCOPES,
          accessToken: "shpat_second_install",
        },
      });
      await onShopAuthenticated();
      const again = await installation();
      assert.equal(again.status, "installed");
      assert.equal(again.merchant_id, before.merchant_id, "the same merchant comes back");
      assert.notEqual(again.publishable_key, before.publishable_key);
      // Found by its key: the order-state write-backs (the 5 s outbox follower) may have set metafields since install.
      const config = app.admin.metafields.find(({ namespace, key }) => namespace === "protection" && key === "config")!;
      assert.equal(
        JSON.parse(config.value).publishableKey,
        again.publishable_key,
        "the storefront config carries the new key",
      );
    });

    it("shop/redact erases the shop's merchant and everything the app kept", async () => {
      const { merchant_id: merchantId } = await installation();
      assert.equal(await deliver({ topic: "shop/redact", payload: shopRedactPayload(SHOP) }), 200);
      await settled();
      for (const table of [
        "api_keys",
        "protection_programs",
        "quotes",
        "plans",
        "orders",
        "events",
        "email_messages",
      ]) {
        const n = Number(
          (await db().get<CountRow>(`SELECT COUNT(*) AS n FROM ${table} WHERE merchant_id = ?`, [merchantId]))!.n,
        );
        assert.equal(n, 0, `${table} has no row of the merchant`);
      }
      assert.equal(await db().get("SELECT id FROM merchants WHERE id = ?", [merchantId]), undefined);
      for (const table of SHOPIFY_TABLES) {
        assert.equal(
          Number((await db().get<CountRow>(`SELECT COUNT(*) AS n FROM ${table} WHERE shop = ?`, [SHOP]))!.n),
          0,
          `${table} is empty for the shop`,
        );
      }
      assert.equal(await prisma().session.count({ where: { shop: SHOP } }), 0);
    });
  },
);
