// Shopify's order risk as a claim's fraud signal, through the app's real wiring (docs/shopify.md "Shopify's order
// risk"): a claim filed on a protected order (the outbox's claim.created) queues a job that reads the order's risk from
// the fake Admin API (OrderRisk) and records it in the core, which assesses the claim again (shopify_order_risk);
// orders/risk_assessment_changed reads it again; a refused read (a missing scope) or an Admin API error fails only the
// job, which is retried, and leaves the claim as it was.
import { it } from "vitest";
import assert from "node:assert/strict";
import { orderPayload } from "../support/shopify.ts";
import { describeShopifyApp } from "../support/dialect-suites.ts";
import { fileClaim, protectedPaidOrder, type PaidOrder } from "./shopify-claim-payout-support.ts";

const SHOP = "order-risk.myshopify.com";

describeShopifyApp(
  "Shopify app (%s): Shopify's order risk weighs on the order's claims",
  { shops: [SHOP], inOrder: true },
  (app) => {
    const db = () => app.database.db;
    const assessment = async (claimId: string) => {
      const row = (await db().get<{ level: string; signals: string }>(
        "SELECT level, signals FROM claim_risk_assessments WHERE claim_id = ?",
        [claimId],
      ))!;
      return { level: row.level, signals: JSON.parse(row.signals) as { name: string }[] };
    };
    const names = async (claimId: string) => (await assessment(claimId)).signals.map((signal) => signal.name);
    const riskReads = (order: PaidOrder["order"]) =>
      app.admin.calls.filter(
        (call) => call.operationName === "OrderRisk" && call.variables.id === order.admin_graphql_api_id,
      ).length;
    const highRisk = {
      recommendation: "CANCEL",
      assessments: [
        {
          riskLevel: "HIGH",
          facts: [
            { description: "Card verification (CVV) failed", sentiment: "NEGATIVE" },
            { description: "Billing address matches the card's", sentiment: "POSITIVE" },
          ],
        },
        { riskLevel: "LOW", facts: [{ description: "An app's own note", sentiment: "NEGATIVE" }] },
      ],
    } as const;
    const riskJob = (claimId: string) =>
      db().get<{ status: string; attempts: number | string; last_error: string | null }>(
        "SELECT status, attempts, last_error FROM shopify_jobs WHERE id = ?",
        [`job_order_risk_${claimId}`],
      );

    it("a claim filed: the order's risk is read and the claim assessed again with shopify_order_risk", async () => {
      const paid = await protectedPaidOrder(app, SHOP);
      app.admin.orderRisks.set(paid.order.admin_graphql_api_id, structuredClone(highRisk) as never);
      const claim = await fileClaim(paid, { reason: "arrived_defective", amountCents: 2_000 });
      assert.deepEqual((await assessment(claim.id)).signals, [], "nothing known of the order at filing");
      await app.settledWithOrderEvents();
      assert.equal(riskReads(paid.order), 1);
      assert.deepEqual(await assessment(claim.id), {
        level: "high",
        signals: [
          {
            name: "shopify_order_risk",
            weight: 60,
            level: "high",
            recommendation: "cancel",
            // The negative facts of the highest assessment only.
            reasons: ["Card verification (CVV) failed"],
          },
        ],
      });
      assert.deepEqual(await riskJob(claim.id), { status: "done", attempts: 1, last_error: null });
      // The outbox followed again (the claim's later events) reads it no second time for the same claim.
      await app.settledWithOrderEvents();
      assert.equal(riskReads(paid.order), 1);
    });

    it("orders/risk_assessment_changed reads the risk again: accepted now, the signal goes", async () => {
      const paid = await protectedPaidOrder(app, SHOP);
      app.admin.orderRisks.set(paid.order.admin_graphql_api_id, structuredClone(highRisk) as never);
      const claim = await fileClaim(paid, { reason: "arrived_defective", amountCents: 2_000 });
      await app.settledWithOrderEvents();
      assert.equal((await assessment(claim.id)).level, "high");
      app.admin.orderRisks.set(paid.order.admin_graphql_api_id, {
        recommendation: "ACCEPT",
        assessments: [{ riskLevel: "LOW", facts: [] }],
      });
      const payload = {
        order_id: paid.order.id,
        admin_graphql_api_order_id: paid.order.admin_graphql_api_id,
        risk_level: "low",
        provider_id: null,
        provider_title: null,
        created_at: null,
      };
      assert.equal(await app.deliver({ shop: SHOP, topic: "orders/risk_assessment_changed", payload }), 200);
      await app.settled();
      assert.equal((await names(claim.id)).includes("shopify_order_risk"), false);
    });

    it("an order without protection: the topic reads nothing and records nothing", async () => {
      const order = orderPayload({ lines: [{ productId: 111, price: "20.00" }], email: "someone@example.com" });
      const before = app.admin.calls.length;
      const payload = {
        order_id: order.id,
        admin_graphql_api_order_id: order.admin_graphql_api_id,
        risk_level: "high",
      };
      assert.equal(await app.deliver({ shop: SHOP, topic: "orders/risk_assessment_changed", payload }), 200);
      await app.settled();
      assert.equal(app.admin.calls.slice(before).filter((call) => call.operationName === "OrderRisk").length, 0);
    });

    it("a missing scope or an Admin API error fails the job, which is retried; the claim stays as filed", async () => {
      const paid = await protectedPaidOrder(app, SHOP);
      app.admin.orderRisks.set(paid.order.admin_graphql_api_id, structuredClone(highRisk) as never);
      // Refused before the filing: the app's own 5 s task may follow the claim's event at any moment after it.
      app.admin.denyNext("OrderRisk");
      const claim = await fileClaim(paid, { reason: "arrived_defective", amountCents: 2_000 });
      const filed = await db().get("SELECT status, updated_at FROM claims WHERE id = ?", [claim.id]);
      // The suite's orders all ship to one door: the buyer's earlier claims weigh already.
      const assessed = await assessment(claim.id);
      await app.settledWithOrderEvents();
      const denied = (await riskJob(claim.id))!;
      assert.equal(denied.status, "pending", "retried later");
      assert.equal(Number(denied.attempts), 1);
      assert.match(denied.last_error!, /Access denied/);
      assert.deepEqual(await assessment(claim.id), assessed);
      assert.deepEqual(await db().get("SELECT status, updated_at FROM claims WHERE id = ?", [claim.id]), filed);

      app.admin.failNext("OrderRisk", 503);
      await db().run("UPDATE shopify_jobs SET run_at = 0 WHERE id = ?", [`job_order_risk_${claim.id}`]);
      await app.runtime().queue.runDue();
      assert.equal(Number((await riskJob(claim.id))!.attempts), 2);
      assert.deepEqual(await assessment(claim.id), assessed);

      // The scope granted, the error gone: the retry records it.
      await db().run("UPDATE shopify_jobs SET run_at = 0 WHERE id = ?", [`job_order_risk_${claim.id}`]);
      await app.runtime().queue.runDue();
      assert.equal((await riskJob(claim.id))!.status, "done");
      assert.deepEqual(await names(claim.id), [...assessed.signals.map((signal) => signal.name), "shopify_order_risk"]);
    });
  },
);
