// The protection fee of a free-look cancellation, refunded on the Shopify order through the app's real wiring: an order
// protected through the orders/create webhook, paid on the fake Admin API (one SALE), its plan cancelled by the buyer
// through the portal API (POST /portal/lookup, POST /portal/cancel); then the app's periodic look queues one refund job
// per plan, and the job refunds the protection line through refundCreate against that sale and confirms the fee_refunds
// row with the refund's gid. Faults: the refund's answer lost after Shopify made it (a crash between Shopify's success
// and our record), Shopify refusing every attempt (the dashboard shows it).
import { adminOverview, adminShopOverview } from "../support/admin-routes.ts";
import { it, beforeAll } from "vitest";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { renderDashboardPage } from "../support/dashboard-page.ts";
import { orderPayload, refundPayload, variablesOf } from "../support/shopify.ts";
import { describeShopifyApp } from "../support/dialect-suites.ts";
import { waitFor } from "../support/wait.ts";
import { insertClaimRow } from "../support/claim-rows.ts";
import { owePlanFee } from "../../server/domain/fee-refunds.ts";
import { markPlanCancelled } from "../../server/store/plans.ts";
import { formatDecimalAmount } from "@purchase-protection/contract";
import { cancelInFreeLook, failEveryAttempt } from "./shopify-claim-payout-support.ts";

const SHOP = "refunded-goods.myshopify.com";
const GATEWAY = "shopify_payments";

interface FeeRefundRow {
  id: string;
  channel: string;
  status: string;
  reference: string | null;
  last_error: string | null;
  refunded_at: number | string | null;
}

describeShopifyApp(
  "Shopify app (%s): the protection fee of a free-look cancellation, refunded on the order",
  { shops: [SHOP], inOrder: true },
  (app) => {
    let fees: typeof import("../../app/shopify/fee-refunds.server.ts");
    let jobs: typeof import("../../app/shopify/jobs.server.ts");

    beforeAll(async () => {
      fees = await import("../../app/shopify/fee-refunds.server.ts");
      jobs = await import("../../app/shopify/jobs.server.ts");
    });

    const db = () => app.database.db;
    const deps = () => app.runtime().deps;
    const refundCalls = () => app.admin.calls.filter((call) => call.operationName === "RefundProtectionFee");
    const feeRefund = async (planId: string) =>
      (await db().get<FeeRefundRow>("SELECT * FROM fee_refunds WHERE plan_id = ?", [planId]))!;
    const refundJob = (planId: string) =>
      db().get<{ id: string; status: string; attempts: number | string; last_error: string | null }>(
        "SELECT * FROM shopify_jobs WHERE kind = 'refund_protection_fee' AND subject = ?",
        [planId],
      );

    /** An order with the protection line, protected through orders/create and paid (one SALE of its total). */
    async function protectedPaidOrder() {
      const installation = (await db().get<{ product_id: string; tiers: string }>(
        "SELECT * FROM shop_installations WHERE shop = ?",
        [SHOP],
      ))!;
      const tiers: { priceCents: number; variantId: string }[] = JSON.parse(installation.tiers);
      const tier = tiers.find((candidate) => candidate.priceCents >= 360)!; // 3 % of 120.00
      const order = orderPayload({
        lines: [
          { productId: 111, price: "120.00" },
          {
            productId: installation.product_id,
            variantId: tier.variantId,
            price: formatDecimalAmount(tier.priceCents, "USD"),
          },
        ],
        attributes: { _protection: "accepted" },
        email: `buyer-${randomUUID()}@example.com`,
      });
      assert.equal(await app.deliver({ shop: SHOP, topic: "orders/create", payload: order }), 200);
      await app.settled();
      const sale = app.admin.addPaidOrder(order, { gateway: GATEWAY });
      const plan = (await db().get<{
        id: string;
        fee_cents: number;
        merchant_id: string;
        currency: string;
        reference_number: string;
      }>("SELECT * FROM plans WHERE order_id = ?", [String(order.id)]))!;
      const protectionLine = order.line_items[1].admin_graphql_api_id;
      return { order, sale, plan, protectionLine };
    }

    /** The fee owed back through the merchant (another cart's channel), as the core writes it for such merchants. */
    async function oweThroughMerchant(plan: { id: string; fee_cents: number; merchant_id: string; currency: string }) {
      const { protectionRuntime } = await import("../../app/protection-api.server.ts");
      const { services } = protectionRuntime();
      await db().transaction(async (tx) => {
        await markPlanCancelled(tx, plan.id, services.clock());
        await owePlanFee(
          tx,
          services,
          { merchantId: plan.merchant_id, mode: "test" },
          { id: plan.id, buyerFeeCents: plan.fee_cents, currency: plan.currency, shopifyShop: false },
        );
      });
    }

    /** The app's periodic look for fee refunds owed, then its jobs run. Returns how many jobs it queued. */
    async function lookForOwedRefunds(): Promise<number> {
      const queued = await fees.queueOwedFeeRefunds(deps());
      await app.settled();
      return queued;
    }

    it("a cancelled plan: exactly one refundCreate of the protection line for the fee, through the original sale; the row is refunded with the refund's gid", async () => {
      const { order, sale, plan, protectionLine } = await protectedPaidOrder();
      await cancelInFreeLook(order, plan);
      const before = refundCalls().length;

      // Two looks at once (two app instances) and a later one: one job, one refund.
      const queued = await Promise.all([fees.queueOwedFeeRefunds(deps()), fees.queueOwedFeeRefunds(deps())]);
      assert.equal(queued[0] + queued[1], 1, "one job for the plan");
      await app.settled();
      assert.equal(await lookForOwedRefunds(), 0, "a refunded plan is not queued again");

      const calls = refundCalls().slice(before);
      assert.equal(calls.length, 1, "exactly one refundCreate");
      assert.equal(calls[0].accessToken, `shpat_${SHOP}`, "with the shop's offline token");
      const { input } = variablesOf(calls[0], "RefundProtectionFee");
      assert.equal(input.orderId, order.admin_graphql_api_id);
      assert.equal(input.notify, true);
      assert.equal(input.currency, undefined, "the buyer paid in the shop's currency");
      assert.deepEqual(input.refundLineItems, [{ lineItemId: protectionLine, quantity: 1, restockType: "NO_RESTOCK" }]);
      assert.deepEqual(input.transactions, [
        {
          orderId: order.admin_graphql_api_id,
          parentId: sale.id,
          gateway: GATEWAY,
          kind: "REFUND",
          amount: formatDecimalAmount(plan.fee_cents, "USD"),
        },
      ]);
      assert.equal(plan.fee_cents, 360);

      const row = await feeRefund(plan.id);
      assert.equal(row.status, "refunded");
      assert.equal(row.reference, app.admin.refunds.at(-1)!.id);
      assert.match(row.reference!, /^gid:\/\/shopify\/Refund\/\d+$/);
      assert.ok(Number(row.refunded_at) > 0);
      assert.equal((await refundJob(plan.id))!.status, "done");

      // Shopify announces the fee refund (refunds/create), and later the merchant refunds the goods: neither reports a
      // merchant refund on the cancelled plan (its order is no longer protected), and every job is done (none left retrying).
      for (const amount of [formatDecimalAmount(plan.fee_cents, "USD"), "120.00"]) {
        assert.equal(
          await app.deliver({
            shop: SHOP,
            topic: "refunds/create",
            payload: refundPayload({ orderId: order.id, amount }),
          }),
          200,
        );
      }
      await app.settledWithOrderEvents();
      assert.equal(
        (await db().get<{ status: string }>("SELECT status FROM plans WHERE id = ?", [plan.id]))!.status,
        "cancelled",
      );
      assert.equal(
        (await db().get<{ n: number }>("SELECT COUNT(*) AS n FROM shopify_jobs WHERE status <> 'done'"))!.n,
        0,
      );
    });

    it("Shopify made the refund but its answer never arrived (a crash before our record): the retry finds it and refunds nothing twice", async () => {
      const { order, plan } = await protectedPaidOrder();
      await cancelInFreeLook(order, plan);
      const before = { calls: refundCalls().length, refunds: app.admin.refunds.length };
      app.admin.loseNextResponse("RefundProtectionFee");

      assert.equal(await fees.queueOwedFeeRefunds(deps()), 1);
      const failed = await waitFor(
        async () => {
          const job = await refundJob(plan.id);
          return job && Number(job.attempts) === 1 && job;
        },
        { what: "the first attempt to fail" },
      );
      assert.equal(failed.status, "pending", "to be retried after the backoff");
      assert.equal(app.admin.refunds.length, before.refunds + 1, "Shopify refunded");
      const pending = await feeRefund(plan.id);
      assert.equal(pending.status, "pending", "but the app never heard of it");
      assert.ok(pending.last_error);

      await db().run("UPDATE shopify_jobs SET run_at = 0 WHERE id = ?", [failed.id]); // its backoff has passed
      await app.settled();
      app.runtime().queue.wake();
      const retried = await waitFor(
        async () => {
          const job = (await refundJob(plan.id))!;
          return (job.status !== "pending" || Number(job.attempts) > 1) && job;
        },
        { what: "the retry" },
      );
      assert.equal(retried.status, "done", `the retry succeeded (${retried.last_error})`);

      assert.equal(refundCalls().length, before.calls + 1, "the retry made no second refundCreate");
      assert.equal(app.admin.refunds.length, before.refunds + 1, "one refund on Shopify");
      const row = await feeRefund(plan.id);
      assert.equal(row.status, "refunded");
      assert.equal(row.reference, app.admin.refunds.at(-1)!.id, "recorded with the refund Shopify made");
    });

    it("Shopify refuses the refund (userErrors): retried on the queue's backoff, then failed, with the error on the row and in the dashboard", async () => {
      const { order, plan } = await protectedPaidOrder();
      await cancelInFreeLook(order, plan);
      const before = { calls: refundCalls().length, refunds: app.admin.refunds.length };
      const attempts = jobs.RETRY_DELAYS_MS.length + 1;
      app.admin.rejectRefunds(attempts, "Refund amount exceeds the refundable amount");
      const dashboard = () => adminShopOverview(SHOP);

      const { reference_number: reference, order_id: orderId } = (await db().get<{
        reference_number: string;
        order_id: string;
      }>("SELECT reference_number, order_id FROM plans WHERE id = ?", [plan.id]))!;

      assert.equal(await fees.queueOwedFeeRefunds(deps()), 1);
      await failEveryAttempt(
        app,
        () => refundJob(plan.id),
        attempts,
        async () => {
          const shown = (await dashboard()).feeRefunds.find((refund) => refund.referenceNumber === reference);
          assert.equal(shown?.status, "retrying", "shown while it is being retried");
          assert.match(shown.lastError, /Refund amount exceeds the refundable amount/);
        },
      );
      assert.equal(refundCalls().length, before.calls + attempts, "one refundCreate per attempt");
      assert.equal(app.admin.refunds.length, before.refunds, "nothing was refunded");

      const row = await feeRefund(plan.id);
      assert.equal(row.status, "pending");
      assert.match(row.last_error ?? "", /userErrors.*Refund amount exceeds the refundable amount/);

      const { feeRefunds, deadJobs } = await dashboard();
      const shown = feeRefunds.find((refund) => refund.referenceNumber === reference);
      assert.deepEqual(shown && { ...shown, createdAt: typeof shown.createdAt }, {
        referenceNumber: reference,
        orderId,
        amountCents: plan.fee_cents,
        currency: plan.currency,
        status: "failed",
        attempts,
        lastError: row.last_error,
        createdAt: "string",
      });
      assert.ok(deadJobs.some((job) => job.kind === "refund_protection_fee"));

      // The page: the banner, and the card with the refund and its error.
      const html = await renderDashboardPage(await adminOverview(SHOP));
      for (const text of [
        "protection fee refund", // the banner: "<n> protection fee refund(s) failed"
        "Fee refunds needing attention",
        reference,
        "Refund amount exceeds the refundable amount",
        "Failed",
      ])
        assert.ok(html.includes(text), `the page shows "${text}"`);

      // Nothing queues it again: it waits for the merchant (the dashboard says how).
      assert.equal(await lookForOwedRefunds(), 0);
      assert.equal(refundCalls().length, before.calls + attempts);
    });

    it("a fee refund of the merchant channel (the merchant refunds it and confirms through the API) is never touched", async () => {
      const { plan } = await protectedPaidOrder();
      await oweThroughMerchant(plan);
      const before = { calls: refundCalls().length, row: await feeRefund(plan.id) };

      await lookForOwedRefunds();
      assert.equal(await refundJob(plan.id), undefined, "no job");
      assert.equal(refundCalls().length, before.calls, "no refundCreate");
      assert.deepEqual(await feeRefund(plan.id), before.row, "the row is unchanged");
    });

    it("a plan cancelled with a claim paid (as the cancellation allowed before it checked claims): no refundCreate, the job fails at once", async () => {
      const { order, plan } = await protectedPaidOrder();
      await cancelInFreeLook(order, plan);
      const owner = { merchantId: plan.merchant_id, mode: "test" as const };
      const claimId = await insertClaimRow(db(), owner, {
        planId: plan.id,
        reason: "lost_in_transit",
        status: "paid",
        paidAmountCents: 5_000,
        at: Date.now(),
      });
      const before = refundCalls().length;

      assert.equal(await lookForOwedRefunds(), 1);
      const job = (await refundJob(plan.id))!;
      assert.deepEqual([job.status, Number(job.attempts)], ["dead", 1], "the core's guard refused it before Shopify");
      assert.equal(refundCalls().length, before, "no money moved on Shopify");
      const row = await feeRefund(plan.id);
      assert.equal(row.status, "pending");
      assert.match(row.last_error ?? "", new RegExp(`^plan_has_claim_payout: .*claim '${claimId}' paid`));
    });
  },
);
