// Shopify Markets orders (docs/shopify.md "Shopify Markets: the buyer's currency") through the app's real wiring: a USD
// shop's orders/create webhooks (HMACs as Shopify computes them) of buyers who paid in EUR, GBP, JPY (no decimals) and
// KWD (three), with the order's and lines' price sets as Shopify sends them; the protection line is the fee tier's
// variant at the price the market converted and rounded it to. The plan, its ledger and the app's order row stay in
// USD; the plan keeps what the buyer paid in their currency and the rate, and GET /purchases/{id} shows both.
import { it } from "vitest";
import assert from "node:assert/strict";
import { orderPayload, refundPayload, variablesOf } from "../support/shopify.ts";
import { approve, cancelInFreeLook, fileClaim, GATEWAY, type ProtectedPlan } from "./shopify-claim-payout-support.ts";
import { describeShopifyApp } from "../support/dialect-suites.ts";

const SHOP = "markets-goods.myshopify.com";
const GOODS_PRODUCT_ID = 111;

/**
 * One buyer's order per currency: the goods and the protection line in the buyer's currency, the rate Shopify
 * converted at, and what follows, worked out by hand from the shop amounts the payload carries (each converted from
 * the buyer's amount and rounded to cents): the goods in USD (subtotal less the line), the fee (3 %, half up), its
 * tier, and the rate the plan records (USD subtotal / buyer's subtotal, 10 places, half up).
 */
const CASES = [
  // 113.35 EUR × 1.08 = 122.42 USD; the line 3.35 EUR = 3.62 USD: goods 118.80 USD, fee 3.56, tier 3.60.
  {
    currency: "EUR",
    rate: 1.08,
    goods: "110.00",
    line: "3.35",
    goodsUsd: 11_880,
    fee: 356,
    tier: 360,
    paid: 335,
    covered: 11_000,
    recordedRate: "1.0800176445",
  },
  // 97.85 GBP × 1.27 = 124.27 USD; the line 2.85 GBP = 3.62 USD: goods 120.65 USD, fee 3.62, tier 3.65.
  {
    currency: "GBP",
    rate: 1.27,
    goods: "95.00",
    line: "2.85",
    goodsUsd: 12_065,
    fee: 362,
    tier: 365,
    paid: 285,
    covered: 9_500,
    recordedRate: "1.2700051099",
  },
  // 18550 JPY × 0.0067 = 124.29 USD; the line 550 JPY = 3.69 USD: goods 120.60 USD, fee 3.62, tier 3.65.
  {
    currency: "JPY",
    rate: 0.0067,
    goods: "18000",
    line: "550",
    goodsUsd: 12_060,
    fee: 362,
    tier: 365,
    paid: 550,
    covered: 18_000,
    recordedRate: "0.0067002695",
  },
  // 38.025 KWD × 3.25 = 123.58 USD; the line 1.100 KWD = 3.58 USD: goods 120.00 USD, fee 3.60, tier 3.60.
  {
    currency: "KWD",
    rate: 3.25,
    goods: "36.925",
    line: "1.100",
    goodsUsd: 12_000,
    fee: 360,
    tier: 360,
    paid: 1_100,
    covered: 36_925,
    recordedRate: "3.2499671269",
  },
] as const;

interface PlanRow {
  id: string;
  status: string;
  currency: string;
  fee_cents: number;
  buyer_fee_cents: number;
  covered_amount_cents: number;
}

describeShopifyApp(
  "Shopify Markets (%s): a USD shop's buyers paying in EUR, GBP, JPY and KWD",
  { shops: [SHOP] },
  (app) => {
    const db = () => app.database.db;

    async function storefront() {
      const row = (await db().get<{ product_id: string; tiers: string }>(
        "SELECT product_id, tiers FROM shop_installations WHERE shop = ?",
        [SHOP],
      ))!;
      return { productId: row.product_id, tiers: JSON.parse(row.tiers) as { priceCents: number; variantId: string }[] };
    }

    /** The buyer's order: the goods and one protection line of `variantId`, in the case's currency. */
    function marketsOrder(
      market: { currency: string; rate: number; goods: string; line: string },
      productId: string,
      variantId: string,
    ) {
      return orderPayload({
        lines: [
          { productId: GOODS_PRODUCT_ID, price: market.goods },
          { productId, variantId, price: market.line },
        ],
        attributes: { _protection: "accepted" },
        presentment: { currency: market.currency, rate: market.rate },
      });
    }

    async function protect(order: ReturnType<typeof orderPayload>) {
      assert.equal(await app.deliver({ shop: SHOP, topic: "orders/create", payload: order }), 200);
      await app.settled();
      const plans = await db().all<PlanRow>("SELECT * FROM plans WHERE order_id = ?", [String(order.id)]);
      assert.equal(plans.length, 1, "one plan");
      return plans[0];
    }

    const purchase = async (planId: string) => {
      const installation = (await app.runtime().deps.installation(SHOP))!;
      return app.runtime().deps.protectionClient(installation).purchases.retrieve(planId);
    };

    for (const market of CASES) {
      it(`${market.currency}: the plan, its ledger and the order row in USD; what the buyer paid in ${market.currency} and the rate beside the plan`, async () => {
        const { productId, tiers } = await storefront();
        const tier = tiers.find((candidate) => candidate.priceCents === market.tier)!;
        const order = marketsOrder(market, productId, tier.variantId);
        // The payload is Shopify's: amounts in the shop's currency, and both in each price set.
        assert.equal(order.presentment_currency, market.currency);
        assert.equal(order.line_items[1].price_set.presentment_money.amount, market.line);

        const plan = await protect(order);
        assert.deepEqual(
          { currency: plan.currency, covered: Number(plan.covered_amount_cents), fee: Number(plan.fee_cents) },
          { currency: "USD", covered: market.goodsUsd, fee: market.fee },
        );
        const row = (await db().get<{
          currency: string;
          goods_amount_cents: number;
          line_price_cents: number;
          fee_mismatch: number | boolean;
          presentment_currency: string;
          presentment_goods_amount_cents: number;
        }>("SELECT * FROM shopify_orders WHERE order_id = ?", [String(order.id)]))!;
        assert.equal(row.currency, "USD");
        assert.equal(Number(row.goods_amount_cents), market.goodsUsd);
        assert.equal(
          Number(row.fee_mismatch),
          0,
          "the line is the tier's variant, though its USD amount (converted back) is not the tier's price",
        );
        assert.notEqual(Number(row.line_price_cents), market.tier);
        assert.deepEqual(
          { currency: row.presentment_currency, goods: Number(row.presentment_goods_amount_cents) },
          { currency: market.currency, goods: market.covered },
        );

        // The ledger stays in the shop's currency: the sale's entries are the plan's USD fee.
        const entries = await db().all<{ currency: string; amount_cents: number }>(
          "SELECT currency, amount_cents FROM ledger_entries WHERE plan_id = ?",
          [plan.id],
        );
        assert.ok(entries.length > 0);
        assert.deepEqual([...new Set(entries.map((entry) => entry.currency))], ["USD"]);
        assert.ok(entries.some((entry) => Math.abs(Number(entry.amount_cents)) === market.fee));

        const shown = await purchase(plan.id);
        assert.equal(shown.currency, "USD");
        assert.equal(shown.feeCents, market.fee);
        assert.deepEqual(shown.presentment, {
          currency: market.currency,
          coveredAmountCents: market.covered,
          buyerPaidCents: market.paid,
          exchangeRate: market.recordedRate,
        });
      });
    }

    it("a line of another tier than the fee's: flagged as a mismatch, and the buyer's price of that line recorded", async () => {
      const { productId, tiers } = await storefront();
      const [market] = CASES;
      const lower = tiers.find((candidate) => candidate.priceCents === 100)!;
      const plan = await protect(marketsOrder({ ...market, line: "0.95" }, productId, lower.variantId));
      const row = (await db().get<{ fee_mismatch: number | boolean }>(
        "SELECT fee_mismatch FROM shopify_orders WHERE plan_id = ?",
        [plan.id],
      ))!;
      assert.equal(Number(row.fee_mismatch), 1);
      assert.equal((await purchase(plan.id)).presentment?.buyerPaidCents, 95);
    });

    it("a second delivery of the order (a new webhook id): still one plan and one record of the buyer's currency", async () => {
      const { productId, tiers } = await storefront();
      const market = CASES[2];
      const order = marketsOrder(market, productId, tiers.find((tier) => tier.priceCents === market.tier)!.variantId);
      const plan = await protect(order);
      assert.equal((await protect(order)).id, plan.id);
      const rows = await db().all<{ n: number | string }>(
        "SELECT COUNT(*) AS n FROM plan_presentments WHERE plan_id = ?",
        [plan.id],
      );
      assert.equal(Number(rows[0].n), 1);
    });

    it("an order in the shop's currency records no buyer's currency", async () => {
      const { productId, tiers } = await storefront();
      const tier = tiers.find((candidate) => candidate.priceCents === 360)!;
      const order = orderPayload({
        lines: [
          { productId: GOODS_PRODUCT_ID, price: "120.00" },
          { productId, variantId: tier.variantId, price: "3.60" },
        ],
        attributes: { _protection: "accepted" },
      });
      const plan = await protect(order);
      assert.equal((await purchase(plan.id)).presentment, undefined);
    });

    it("two protection units on a EUR order: the plan keeps one, and the other is refunded in EUR at the line's EUR price", async () => {
      const { productId, tiers } = await storefront();
      const [market] = CASES;
      const order = orderPayload({
        lines: [
          { productId: GOODS_PRODUCT_ID, price: market.goods },
          {
            productId,
            variantId: tiers.find((tier) => tier.priceCents === market.tier)!.variantId,
            price: market.line,
            quantity: 2,
          },
        ],
        attributes: { _protection: "accepted" },
        presentment: { currency: market.currency, rate: market.rate },
      });
      const sale = app.admin.addPaidOrder(order, { gateway: GATEWAY });
      const plan = await protect(order);
      assert.equal(
        (await purchase(plan.id)).presentment?.buyerPaidCents,
        market.paid,
        "one unit: what the plan stands on",
      );
      const refunds = app.admin.refunds.filter((refund) => refund.input.orderId === order.admin_graphql_api_id);
      assert.equal(refunds.length, 1);
      const { input } = refunds[0];
      assert.equal(input.currency, "EUR");
      assert.deepEqual(
        input.refundLineItems?.map(({ lineItemId, quantity }) => ({ lineItemId, quantity })),
        [{ lineItemId: order.line_items[1].admin_graphql_api_id, quantity: 1 }],
      );
      assert.deepEqual(
        input.transactions?.map(({ parentId, amount }) => ({ parentId, amount })),
        [{ parentId: sale.id, amount: market.line }],
      );
    });

    for (const [currency, refunded] of [
      ["JPY", "7462"],
      ["KWD", "15.385"],
    ] as const)
      it(`a claim of 50.00 USD on a ${currency} order is refunded in ${currency} at the plan's rate (${refunded}), and paid and reimbursed as 50.00 USD`, async () => {
        const { productId, tiers } = await storefront();
        const market = CASES.find((candidate) => candidate.currency === currency)!;
        const order = marketsOrder(market, productId, tiers.find((tier) => tier.priceCents === market.tier)!.variantId);
        const plan = (await protect(order)) as PlanRow & ProtectedPlan;
        const sale = app.admin.addPaidOrder(order, { gateway: GATEWAY });
        assert.equal(sale.amountSet.presentmentMoney.currencyCode, currency);
        const claim = await fileClaim({ order, plan }, { reason: "lost_in_transit", amountCents: 5_000 });
        await approve(app, plan, claim.id, "refund");
        const payouts = await import("../../app/shopify/claim-payouts.server.ts");
        const before = app.admin.calls.filter((call) => call.operationName === "RefundClaim").length;
        assert.equal(await payouts.queueApprovedClaimPayouts(app.runtime().deps), 1);
        await app.settled();

        const calls = app.admin.calls.filter((call) => call.operationName === "RefundClaim").slice(before);
        assert.equal(calls.length, 1);
        const { input } = variablesOf(calls[0], "RefundClaim");
        assert.equal(input.currency, currency, "Shopify is told the buyer's currency");
        assert.deepEqual(
          input.transactions.map(({ parentId, amount }) => ({ parentId, amount })),
          [{ parentId: sale.id, amount: refunded }],
        );
        const paid = (await db().get<{ status: string; paid_amount_cents: number; currency: string }>(
          "SELECT status, paid_amount_cents, currency FROM claims WHERE id = ?",
          [claim.id],
        ))!;
        assert.deepEqual([paid.status, Number(paid.paid_amount_cents), paid.currency], ["paid", 5_000, "USD"]);
        const reimbursed = await db().all<{ amount_cents: number; currency: string }>(
          "SELECT amount_cents, currency FROM ledger_entries WHERE kind = 'claim_reimbursement' AND source_id = ?",
          [claim.id],
        );
        assert.deepEqual(
          reimbursed.map((entry) => [Number(entry.amount_cents), entry.currency]),
          [[5_000, "USD"]],
          "the ledger stays in the shop's currency",
        );
      });

    for (const [currency, refunded] of [
      // 3.62 USD is 540.27 JPY: 540, less than the 550 paid for the line.
      ["JPY", "540"],
      // 3.60 USD is 1.108 KWD, more than the 1.100 paid for the line: 1.100.
      ["KWD", "1.100"],
    ] as const)
      it(`a free-look cancellation of a ${currency} order: the fee goes back in ${currency} (${refunded}), the line refunded`, async () => {
        const { productId, tiers } = await storefront();
        const market = CASES.find((candidate) => candidate.currency === currency)!;
        const order = marketsOrder(market, productId, tiers.find((tier) => tier.priceCents === market.tier)!.variantId);
        const plan = (await protect(order)) as PlanRow & ProtectedPlan;
        const sale = app.admin.addPaidOrder(order, { gateway: GATEWAY });
        await cancelInFreeLook(order, plan);
        const fees = await import("../../app/shopify/fee-refunds.server.ts");
        const before = app.admin.calls.filter((call) => call.operationName === "RefundProtectionFee").length;
        assert.equal(await fees.queueOwedFeeRefunds(app.runtime().deps), 1);
        await app.settled();

        const calls = app.admin.calls.filter((call) => call.operationName === "RefundProtectionFee").slice(before);
        assert.equal(calls.length, 1);
        const { input } = variablesOf(calls[0], "RefundProtectionFee");
        assert.equal(input.currency, currency);
        assert.deepEqual(
          input.transactions?.map(({ parentId, amount }) => ({ parentId, amount })),
          [{ parentId: sale.id, amount: refunded }],
        );
        const owed = (await db().get<{ status: string; amount_cents: number; currency: string }>(
          "SELECT status, amount_cents, currency FROM fee_refunds WHERE plan_id = ?",
          [plan.id],
        ))!;
        assert.deepEqual(
          [owed.status, Number(owed.amount_cents), owed.currency],
          ["refunded", market.fee, "USD"],
          "owed and refunded in the plan's currency on the books",
        );
      });

    it("refunds of a JPY order count in yen against its goods in yen: a partial one leaves the plan, the rest voids it", async () => {
      const { productId, tiers } = await storefront();
      const market = CASES[2];
      const order = marketsOrder(market, productId, tiers.find((tier) => tier.priceCents === market.tier)!.variantId);
      const plan = await protect(order);
      const refund = async (amount: string) => {
        const payload = refundPayload({ orderId: order.id, amount, currency: "JPY" });
        assert.equal(await app.deliver({ shop: SHOP, topic: "refunds/create", payload }), 200);
        await app.settled();
        return (await db().get<{ status: string }>("SELECT status FROM plans WHERE id = ?", [plan.id]))!.status;
      };
      // 15000 JPY is more than the goods' 120.60 in USD cents would be, but less than their 18000 JPY.
      assert.equal(await refund("15000"), "active");
      assert.equal(await refund("3000"), "voided");
    });
  },
);
