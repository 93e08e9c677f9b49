// The opt-in when an order's pieces disagree (docs/shopify.md "When the opt-in and the protection line disagree"),
// through the app's real wiring: orders/create delivered to the webhook route with Shopify's HMAC, the job weighing the
// choice attribute, the checkout block's choice metafield (Shopify's copy of the cart metafield onto the order, on the
// fake Admin API) and the protection line; then the plan with the evidence its consent rests on, or none, and a refund
// of the protection units no plan stands behind (refundCreate on the fake Admin API, against the order's sale); and
// orders/edited, an edit adding or removing a protection line after checkout.
import { it, beforeAll } from "vitest";
import assert from "node:assert/strict";
import { COUNTED_TABLES, rowCounts } from "../support/databases.ts";
import { orderPayload, refundPayload, shopifyId, type OrderLine } from "../support/shopify.ts";
import type { ShopifyOrderEdit } from "../../app/shopify/webhooks/orders-edited.ts";
import { describeShopifyApp } from "../support/dialect-suites.ts";
import { formatDecimalAmount } from "@purchase-protection/contract";
import { LINE_REFUND_NOTE } from "../../app/shopify/fee-refunds.server.ts";

const SHOP = "opt-in-goods.myshopify.com";
const SHOPIFY_TABLES = ["shopify_orders", "shopify_jobs"];

interface PlanRow {
  status: string;
  fee_cents: number;
  covered_amount_cents: number;
  consent: string;
}
interface ShopifyOrderRow {
  line_price_cents: number | null;
  fee_cents: number;
  fee_mismatch: number | boolean;
  refunded_cents: number | string;
  status: string;
}

type Order = ReturnType<typeof orderPayload>;

describeShopifyApp(
  "Shopify app (%s): the opt-in when the attribute, the checkout metafield and the protection line disagree",
  { shops: [SHOP] },
  (app) => {
    let tier: { priceCents: number; variantId: string };
    let productId: string;

    beforeAll(async () => {
      const row = (await app.database.db.get<{ product_id: string; tiers: string }>(
        "SELECT * FROM shop_installations WHERE shop = ?",
        [SHOP],
      ))!;
      productId = row.product_id;
      // 3 % of 120.00 = 3.60: the tier every order below is quoted at.
      tier = (JSON.parse(row.tiers) as (typeof tier)[]).find((candidate) => candidate.priceCents >= 360)!;
    });

    const db = () => app.database.db;
    const protectionLine = (quantity = 1): OrderLine => ({
      productId,
      variantId: tier.variantId,
      price: formatDecimalAmount(tier.priceCents, "USD"),
      quantity,
    });
    const goods: OrderLine = { productId: 111, price: "120.00" };

    /** The checkout block's choice, as Shopify copies the cart metafield onto the order. */
    const checkoutChose = (order: Order, value: string) =>
      app.admin.metafields.push({
        ownerId: order.admin_graphql_api_id,
        namespace: "$app:protection",
        key: "choice",
        type: "single_line_text_field",
        value,
      });

    /** Shopify holds the order, paid, when it sends orders/create; the app's job runs and settles. */
    async function placed(order: Order) {
      app.admin.addPaidOrder(order);
      const before = { rows: await counts(), refunds: app.admin.refunds.length, calls: app.admin.calls.length };
      assert.equal(await app.deliver({ shop: SHOP, topic: "orders/create", payload: order }), 200);
      await app.settledWithOrderEvents();
      return before;
    }
    const counts = () => rowCounts(db(), [...COUNTED_TABLES, ...SHOPIFY_TABLES]);
    const planOf = (order: Order) => db().get<PlanRow>("SELECT * FROM plans WHERE order_id = ?", [String(order.id)]);
    const rowOf = (order: Order) =>
      db().get<ShopifyOrderRow>("SELECT * FROM shopify_orders WHERE order_id = ?", [String(order.id)]);
    const refundsOf = (order: Order) =>
      app.admin.refunds.filter((refund) => refund.input.orderId === order.admin_graphql_api_id);
    const operationsSince = (from: number) => app.admin.calls.slice(from).map((call) => call.operationName);

    /** A plan and its row, and no protection unit refunded. */
    async function assertProtected(order: Order, evidence: string[]) {
      const plan = (await planOf(order))!;
      assert.equal(plan.status, "active");
      assert.equal(plan.fee_cents, 360);
      assert.equal(plan.covered_amount_cents, 12_000, "the goods, not the protection line");
      assert.deepEqual(JSON.parse(plan.consent).evidence, evidence);
      assert.deepEqual(refundsOf(order), [], "no refund");
    }

    /**
     * No quote, no plan, no order row: only the line refund's job, done; and one refund of all the protection units,
     * not restocked, against the order's sale, under the app's note.
     */
    async function assertRefundedWithoutPlan(order: Order, before: { rows: Record<string, number> }, units = 1) {
      assert.equal(await planOf(order), undefined);
      assert.equal(await rowOf(order), undefined);
      const after = await counts();
      // The orders/create job and the refund's job; nothing else.
      assert.deepEqual(after, { ...before.rows, shopify_jobs: before.rows.shopify_jobs + 2 });
      const job = await db().get<{ status: string }>(
        "SELECT status FROM shopify_jobs WHERE kind = 'refund_protection_lines' AND subject = ?",
        [String(order.id)],
      );
      assert.equal(job?.status, "done");
      const [refund, ...more] = refundsOf(order);
      assert.deepEqual(more, []);
      const sale = app.admin.paidOrder(order.admin_graphql_api_id)!.transactions[0];
      assert.deepEqual(refund.input, {
        orderId: order.admin_graphql_api_id,
        note: LINE_REFUND_NOTE,
        notify: true,
        refundLineItems: [
          {
            lineItemId: order.line_items.find((line) => String(line.product_id) === productId)!.admin_graphql_api_id,
            quantity: units,
            restockType: "NO_RESTOCK",
          },
        ],
        transactions: [
          {
            orderId: order.admin_graphql_api_id,
            parentId: sale.id,
            gateway: sale.gateway,
            kind: "REFUND",
            amount: formatDecimalAmount(tier.priceCents * units, "USD"),
          },
        ],
      });
    }

    it("1. the line without the attribute (an accelerated checkout dropped it): a plan resting on the line the buyer added", async () => {
      const order = orderPayload({ lines: [goods, protectionLine()] });
      const before = await placed(order);
      await assertProtected(order, ["protection_line"]);
      const row = (await rowOf(order))!;
      assert.equal(Number(row.line_price_cents), tier.priceCents);
      assert.equal(Number(row.fee_mismatch), 0);
      assert.ok(operationsSince(before.calls).includes("OrderProtectionChoice"), "the checkout metafield was asked");
    });

    it("1. the line without the attribute, the checkout block's metafield accepted: a plan resting on both", async () => {
      const order = orderPayload({ lines: [goods, protectionLine()] });
      checkoutChose(order, "accepted");
      await placed(order);
      await assertProtected(order, ["checkout_metafield", "protection_line"]);
    });

    it("1. the line without the attribute, the checkout block's metafield declined: no plan, the fee refunded", async () => {
      const order = orderPayload({ lines: [goods, protectionLine()] });
      checkoutChose(order, "declined");
      const before = await placed(order);
      await assertRefundedWithoutPlan(order, before);
    });

    it("2. the attribute without the line: a plan on the buyer's recorded choice, its uncollected fee flagged; no Admin read", async () => {
      const order = orderPayload({ lines: [goods], attributes: { _protection: "accepted" } });
      const before = await placed(order);
      await assertProtected(order, ["choice_attribute"]);
      const row = (await rowOf(order))!;
      assert.equal(row.line_price_cents, null);
      assert.equal(Number(row.fee_mismatch), 1, "the merchant sees a plan whose fee no line collected");
      assert.ok(!operationsSince(before.calls).includes("OrderProtectionChoice"), "the attribute settles it");
    });

    it("2. the line with the attribute declined (the buyer's last word was no): no plan, the fee refunded", async () => {
      const order = orderPayload({ lines: [goods, protectionLine()], attributes: { _protection: "declined" } });
      const before = await placed(order);
      await assertRefundedWithoutPlan(order, before);
      assert.ok(!operationsSince(before.calls).includes("OrderProtectionChoice"));
    });

    it("3. the line with quantity 2: one plan, the second unit refunded once; its refunds/create is not a refund of the goods", async () => {
      const order = orderPayload({ lines: [goods, protectionLine(2)], attributes: { _protection: "accepted" } });
      const before = await placed(order);
      const plan = (await planOf(order))!;
      assert.deepEqual(JSON.parse(plan.consent).evidence, ["choice_attribute", "protection_line"]);
      assert.equal(plan.covered_amount_cents, 12_000, "the goods, without either unit");
      const row = (await rowOf(order))!;
      assert.equal(Number(row.line_price_cents), tier.priceCents, "one unit: the plan's");
      assert.equal(Number(row.fee_mismatch), 0);
      const [refund, ...more] = refundsOf(order);
      assert.deepEqual(more, []);
      assert.deepEqual(refund.input.refundLineItems, [
        { lineItemId: order.line_items[1].admin_graphql_api_id, quantity: 1, restockType: "NO_RESTOCK" },
      ]);
      assert.equal(refund.input.transactions[0].amount, formatDecimalAmount(tier.priceCents, "USD"));
      assert.equal(refund.input.note, LINE_REFUND_NOTE);
      const after = await counts();
      assert.equal(after.plans, before.rows.plans + 1);

      // The same order again (Shopify's second delivery under a new id): the plan is the same, nothing refunded again.
      assert.equal(await app.deliver({ shop: SHOP, topic: "orders/create", payload: order }), 200);
      await app.settled();
      assert.equal(refundsOf(order).length, 1);
      assert.equal((await counts()).plans, after.plans);

      // Shopify announces the app's refund: it is not the merchant's refund of the goods.
      const refunded = refundPayload({ orderId: order.id, amount: refund.input.transactions[0].amount });
      assert.equal(
        await app.deliver({ shop: SHOP, topic: "refunds/create", payload: { ...refunded, note: LINE_REFUND_NOTE } }),
        200,
      );
      await app.settled();
      const counted = (await rowOf(order))!;
      assert.equal(Number(counted.refunded_cents), 0);
      assert.equal(counted.status, "protected");
    });

    it("4. a draft order with the line and the attribute the merchant set: no plan, the fee refunded", async () => {
      const order = orderPayload({
        lines: [goods, protectionLine()],
        attributes: { _protection: "accepted" },
        sourceName: "shopify_draft_order",
      });
      const before = await placed(order);
      await assertRefundedWithoutPlan(order, before);
    });

    it("4. a point-of-sale order with the line and the attribute staff set: no plan, the fee refunded", async () => {
      const order = orderPayload({
        lines: [goods, protectionLine()],
        attributes: { _protection: "accepted" },
        sourceName: "pos",
      });
      const before = await placed(order);
      await assertRefundedWithoutPlan(order, before);
    });

    it("4. a draft order whose buyer ticked the checkout block (its metafield accepted): a plan resting on it", async () => {
      const order = orderPayload({ lines: [goods, protectionLine()], sourceName: "shopify_draft_order" });
      checkoutChose(order, "accepted");
      await placed(order);
      await assertProtected(order, ["checkout_metafield", "protection_line"]);
    });

    it("4. a B2B order from the buyer's own checkout (a company, source web): the usual evidence, a plan", async () => {
      const order = orderPayload({
        lines: [goods, protectionLine()],
        attributes: { _protection: "accepted" },
        company: { id: 301, location_id: 401 },
      });
      await placed(order);
      await assertProtected(order, ["choice_attribute", "protection_line"]);
    });

    it("4. a B2B order submitted for review (a draft order, attributes dropped, the line kept): no plan, the fee refunded", async () => {
      const order = orderPayload({
        lines: [goods, protectionLine(2)],
        sourceName: "shopify_draft_order",
        company: { id: 302, location_id: 402 },
      });
      const before = await placed(order);
      await assertRefundedWithoutPlan(order, before, 2);
    });

    it("a draft order without a line or the attribute: nothing, and no Admin read", async () => {
      const order = orderPayload({ lines: [goods], sourceName: "shopify_draft_order" });
      const before = await placed(order);
      assert.deepEqual(await counts(), { ...before.rows, shopify_jobs: before.rows.shopify_jobs + 1 });
      assert.deepEqual(operationsSince(before.calls), []);
    });

    it("a protection line alone (nothing to protect): no plan, the fee refunded", async () => {
      const order = orderPayload({ lines: [protectionLine()], attributes: { _protection: "accepted" } });
      const before = await placed(order);
      await assertRefundedWithoutPlan(order, before);
    });
    /**
     * The merchant's order edit as Shopify commits it: a new protection line of `units` on the order, paid (a second
     * sale) or owed (the order's outstanding balance); and the orders/edited body announcing it.
     */
    function editAddsProtection(order: Order, units: number, paid: boolean): ShopifyOrderEdit {
      const held = app.admin.paidOrder(order.admin_graphql_api_id)!;
      const lineNumber = shopifyId();
      const money = { amount: formatDecimalAmount(tier.priceCents * units, "USD"), currencyCode: "USD" };
      held.lineItems.nodes.push({
        id: `gid://shopify/LineItem/${lineNumber}`,
        quantity: units,
        currentQuantity: units,
        originalUnitPriceSet: {
          presentmentMoney: { amount: formatDecimalAmount(tier.priceCents, "USD"), currencyCode: "USD" },
        },
        product: { id: `gid://shopify/Product/${productId}` },
        variant: { id: `gid://shopify/ProductVariant/${tier.variantId}` },
      });
      if (paid)
        held.transactions.push({
          id: `gid://shopify/OrderTransaction/${shopifyId()}`,
          kind: "SALE",
          status: "SUCCESS",
          gateway: "bogus",
          amountSet: { shopMoney: money, presentmentMoney: money },
          parentTransaction: null,
        });
      else held.totalOutstandingSet = { presentmentMoney: money };
      return editOf(order, { additions: [{ id: lineNumber, delta: units }], removals: [] });
    }
    const editOf = (order: Order, lineItems: ShopifyOrderEdit["order_edit"]["line_items"]): ShopifyOrderEdit => ({
      order_edit: { id: shopifyId(), order_id: order.id, created_at: new Date().toISOString(), line_items: lineItems },
    });
    /** The line's id as orders/edited names it (its gid's number). */
    const lineNumberOf = (line: { admin_graphql_api_id: string }) => Number(line.admin_graphql_api_id.split("/").pop());
    async function edited(edit: ShopifyOrderEdit) {
      assert.equal(await app.deliver({ shop: SHOP, topic: "orders/edited", payload: edit }), 200);
      await app.settledWithOrderEvents();
    }

    it("5. an edit adds a paid protection line to a protected order: the added unit refunded with its money, once; the plan stands", async () => {
      const order = orderPayload({ lines: [goods, protectionLine()], attributes: { _protection: "accepted" } });
      await placed(order);
      const plan = (await planOf(order))!;
      const before = await counts();
      const edit = editAddsProtection(order, 1, true);
      await edited(edit);
      await edited(edit); // Shopify's second delivery of the same edit, under a new webhook id
      const [refund, ...more] = refundsOf(order);
      assert.deepEqual(more, []);
      assert.equal(refund.input.note, LINE_REFUND_NOTE);
      assert.deepEqual(refund.input.refundLineItems, [
        {
          lineItemId: `gid://shopify/LineItem/${edit.order_edit.line_items.additions[0].id}`,
          quantity: 1,
          restockType: "NO_RESTOCK",
        },
      ]);
      assert.equal(refund.input.transactions[0].amount, formatDecimalAmount(tier.priceCents, "USD"));
      assert.deepEqual(await planOf(order), plan, "the plan is as orders/create made it");
      // Two orders/edited jobs and one refund job.
      assert.deepEqual(await counts(), { ...before, shopify_jobs: before.shopify_jobs + 3 });
    });

    it("5. an edit adds an unpaid protection line to an order without protection: the line refunded off the balance, no money moved, no plan", async () => {
      const order = orderPayload({ lines: [goods] });
      app.admin.addPaidOrder(order); // no opt-in: orders/create's delivery filter keeps it from the app
      const before = await counts();
      await edited(editAddsProtection(order, 1, false));
      const [refund, ...more] = refundsOf(order);
      assert.deepEqual(more, []);
      assert.equal(refund.input.refundLineItems[0].quantity, 1);
      assert.deepEqual(refund.input.transactions, [], "the buyer never paid it: nothing is paid back");
      assert.equal(await planOf(order), undefined);
      assert.deepEqual(await counts(), { ...before, shopify_jobs: before.shopify_jobs + 2 });
    });

    it("5. an edit removes the protection line of a protected order: the plan stands, nothing refunded, no Admin call", async () => {
      const order = orderPayload({ lines: [goods, protectionLine()], attributes: { _protection: "accepted" } });
      await placed(order);
      const plan = (await planOf(order))!;
      const before = { rows: await counts(), calls: app.admin.calls.length };
      const removedLine = lineNumberOf(order.line_items[1]);
      await edited(editOf(order, { additions: [], removals: [{ id: removedLine, delta: 1 }] }));
      assert.deepEqual(await planOf(order), plan);
      assert.deepEqual(refundsOf(order), []);
      assert.deepEqual(operationsSince(before.calls), []);
      assert.deepEqual(await counts(), { ...before.rows, shopify_jobs: before.rows.shopify_jobs + 1 });
    });

    it("5. an edit adding goods only: nothing refunded", async () => {
      const order = orderPayload({ lines: [goods, protectionLine()], attributes: { _protection: "accepted" } });
      await placed(order);
      await edited(editOf(order, { additions: [{ id: lineNumberOf(order.line_items[0]), delta: 1 }], removals: [] }));
      assert.deepEqual(refundsOf(order), []);
    });
  },
);
