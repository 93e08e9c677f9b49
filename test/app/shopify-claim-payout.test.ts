// Approved claims of a Shopify shop, paid on the order through the app's real wiring: an order protected through the
// orders/create webhook and paid on the fake Admin API, a claim filed through the portal API and approved by the claims
// team; then the app's periodic look queues one payout job per claim, and the job refunds through refundCreate against
// the order's sale (or reships through a 100 %-discounted draft order, completed) and resolves the claim: paid, with
// the refund's or the new order's gid, and the merchant's claim_reimbursement in the ledger. Faults: the answer lost
// after Shopify acted (a crash between Shopify's success and our record), Shopify refusing every attempt (the dashboard
// shows it), and a new carrier scan racing the payout of a lost parcel's rule approval (paid, or withdrawn and nothing
// paid: never both).
import { adminOverview, adminRequest, adminShopOverview, callRoute } from "../support/admin-routes.ts";
import { it, beforeAll } from "vitest";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { renderDashboardPage } from "../support/dashboard-page.ts";
import { fulfillmentEventPayload, fulfillmentPayload, refundPayload, variablesOf } from "../support/shopify.ts";
import { describeShopifyApp } from "../support/dialect-suites.ts";
import { waitFor } from "../support/wait.ts";
import { insertClaimRow } from "../support/claim-rows.ts";
import {
  approve,
  failEveryAttempt,
  fileClaim,
  GATEWAY,
  protectedPaidOrder,
  setRules,
  type PaidOrder,
} from "./shopify-claim-payout-support.ts";
import { formatDecimalAmount } from "@purchase-protection/contract";
import { recordShopifyFulfillmentEvent } from "../../server/domain/shipments.ts";

const SHOP = "claimed-goods.myshopify.com";

interface ClaimRow {
  id: string;
  status: string;
  remedy: string | null;
  paid_amount_cents: number | string;
  resolution: string | null;
  resolved_at: number | string | null;
  payout_error: string | null;
}

describeShopifyApp("Shopify app (%s): approved claims paid on the order", { shops: [SHOP] }, (app) => {
  let payouts: typeof import("../../app/shopify/claim-payouts.server.ts");
  let jobs: typeof import("../../app/shopify/jobs.server.ts");

  beforeAll(async () => {
    payouts = await import("../../app/shopify/claim-payouts.server.ts");
    jobs = await import("../../app/shopify/jobs.server.ts");
  });

  const db = () => app.database.db;
  const deps = () => app.runtime().deps;
  const callsOf = (operationName: string) => app.admin.calls.filter((call) => call.operationName === operationName);
  const claimRow = async (claimId: string) =>
    (await db().get<ClaimRow>("SELECT * FROM claims WHERE id = ?", [claimId]))!;
  /** The claim's payout job; the claim keeps where it stands (payout_state, payout_attempts) alike, read with it. */
  const payoutJob = async (claimId: string) => {
    const job = await db().get<{
      id: string;
      status: string;
      attempts: number | string;
      last_error: string | null;
      locked_until: number | string | null;
      payout_state: string | null;
      payout_attempts: number | string;
      claim_status: string;
    }>(
      `SELECT j.*, c.payout_state, c.payout_attempts, c.status AS claim_status
         FROM shopify_jobs j JOIN claims c ON c.id = j.subject
         WHERE j.kind = 'pay_claim' AND j.subject = ?`,
      [claimId],
    );
    // The claim counts an attempt once it begins (beginClaimPayout), the job once it ends: while it runs (locked),
    // the claim may be one ahead. A job done without paying (it found the approval withdrawn) leaves the claim none.
    const ahead = job ? Number(job.payout_attempts) - Number(job.attempts) : 0;
    if (job?.status === "done" && job.claim_status !== "paid")
      assert.deepEqual([job.payout_state, Number(job.payout_attempts)], [null, 0]);
    else if (job)
      assert.deepEqual([job.payout_state, ahead === 1 && job.locked_until !== null ? 0 : ahead], [job.status, 0]);
    return job;
  };
  const reimbursements = (claimId: string) =>
    db().all<{ amount_cents: number | string; currency: string }>(
      "SELECT amount_cents, currency FROM ledger_entries WHERE kind = 'claim_reimbursement' AND source_id = ?",
      [claimId],
    );

  /** The app's periodic look for approved claims, then its jobs run. Returns how many jobs it queued. */
  async function lookForApprovedClaims(): Promise<number> {
    const queued = await payouts.queueApprovedClaimPayouts(deps());
    await app.settled();
    return queued;
  }

  /** A protected, paid order and a claim on it for `amountCents`, approved for `remedy`. */
  async function approvedClaim(remedy: "refund" | "replacement", amountCents = 5_000) {
    const paid = await protectedPaidOrder(app, SHOP);
    const claim = await fileClaim(paid, { reason: "lost_in_transit", amountCents });
    assert.equal(claim.status, "submitted", "the default rules decide nothing");
    await approve(app, paid.plan, claim.id, remedy);
    return { ...paid, claimId: claim.id };
  }

  /** Lets the failed job's backoff pass and waits for its next attempt. */
  async function retry(claimId: string, attempts: number) {
    const job = (await payoutJob(claimId))!;
    await db().run("UPDATE shopify_jobs SET run_at = 0 WHERE id = ?", [job.id]);
    app.runtime().queue.wake();
    return waitFor(
      async () => {
        const row = (await payoutJob(claimId))!;
        return (row.status !== "pending" || Number(row.attempts) > attempts) && row;
      },
      { what: `attempt ${attempts + 1}` },
    );
  }

  async function expectPaid(claimId: string, expected: { kind: string; amountCents: number; reference: string }) {
    const row = await claimRow(claimId);
    assert.equal(row.status, "paid");
    assert.equal(Number(row.paid_amount_cents), expected.amountCents);
    assert.ok(Number(row.resolved_at) > 0);
    assert.equal(row.payout_error, null);
    assert.deepEqual(JSON.parse(row.resolution!), {
      kind: expected.kind,
      channel: "shopify",
      amountCents: expected.amountCents,
      reference: expected.reference,
      note: null,
    });
    assert.deepEqual(
      (await reimbursements(claimId)).map((entry) => [Number(entry.amount_cents), entry.currency]),
      [[expected.amountCents, "USD"]],
      "the merchant is reimbursed once",
    );
    assert.equal((await payoutJob(claimId))!.status, "done");
  }

  it("an approved refund: exactly one refundCreate of the amount through the original sale, no line refunded; the claim is paid with the refund's gid and reimbursed once", async () => {
    const paid = await protectedPaidOrder(app, SHOP);
    const claim = await fileClaim(paid, { reason: "lost_in_transit", amountCents: 5_000 });
    assert.equal(await lookForApprovedClaims(), 0, "a submitted claim is not paid");
    await approve(app, paid.plan, claim.id, "refund");
    const before = callsOf("RefundClaim").length;

    // Two looks at once (two app instances) and a later one: one job, one refund.
    const queued = await Promise.all([
      payouts.queueApprovedClaimPayouts(deps()),
      payouts.queueApprovedClaimPayouts(deps()),
    ]);
    assert.equal(queued[0] + queued[1], 1, "one job for the claim");
    await app.settled();
    assert.equal(await lookForApprovedClaims(), 0, "a paid claim is not queued again");

    const calls = callsOf("RefundClaim").slice(before);
    assert.equal(calls.length, 1, "exactly one refundCreate");
    assert.equal(calls[0].accessToken, `shpat_${SHOP}`, "with the shop's offline token");
    const { input } = variablesOf(calls[0], "RefundClaim");
    assert.equal(input.orderId, paid.order.admin_graphql_api_id);
    assert.equal(input.currency, undefined, "the buyer paid in the shop's currency");
    assert.equal(input.notify, true);
    assert.deepEqual(input.refundLineItems, [], "money only: nothing refunded as a line, nothing restocked");
    assert.match(input.note ?? "", new RegExp(`claim ${claim.id}`));
    assert.deepEqual(input.transactions, [
      {
        orderId: paid.order.admin_graphql_api_id,
        parentId: paid.sale.id,
        gateway: GATEWAY,
        kind: "REFUND",
        amount: "50.00",
      },
    ]);
    const refund = app.admin.refunds.at(-1)!;
    assert.match(refund.id, /^gid:\/\/shopify\/Refund\/\d+$/);
    await expectPaid(claim.id, { kind: "refund", amountCents: 5_000, reference: refund.id });

    // Shopify announces the claim's refund (refunds/create, its note): not the merchant's refund, even were it the
    // whole goods amount — the plan is not voided and no merchant refund credit is booked. Nor is the merchant's own
    // refund of the goods after it (docs/api.md "Money invariants"): the core refuses the report of an order a claim
    // refunded, and the job goes dead at once with the refusal, for the merchant to see.
    const announce = (amount: string, note?: string) =>
      app.deliver({
        shop: SHOP,
        topic: "refunds/create",
        payload: refundPayload({ orderId: paid.order.id, amount, note }),
      });
    assert.equal(await announce("120.00", input.note), 200);
    await app.settled();
    const planStatus = async () =>
      (await db().get<{ status: string }>("SELECT status FROM plans WHERE id = ?", [paid.plan.id]))!.status;
    const refundCredits = () =>
      db().all("SELECT id FROM ledger_entries WHERE kind = 'merchant_refund_credit' AND plan_id = ?", [paid.plan.id]);
    assert.equal(await planStatus(), "active");
    assert.deepEqual(await refundCredits(), []);
    assert.equal(await announce("120.00"), 200);
    await app.settled();
    assert.equal(await planStatus(), "active", "the order was refunded through the claim: not reported again");
    assert.deepEqual(await refundCredits(), []);
    const refused = await db().all<{ status: string; attempts: number | string }>(
      "SELECT status, attempts FROM shopify_jobs WHERE kind = 'refunds/create' AND shop = ? AND last_error LIKE ?",
      [SHOP, `order_has_claim_payout: Order '${paid.order.id}' was already refunded%`],
    );
    assert.deepEqual(
      refused.map((job) => [job.status, Number(job.attempts)]),
      [["dead", 1]],
    );
  });

  it("the refund is limited to what the order's payments can still give back, spread over its sales and captures", async () => {
    const { order, sale, plan, claimId } = await approvedClaim("refund", 9_000);
    // The merchant already refunded all but 10.00 of the sale by hand, and a later capture took 30.00.
    const held = app.admin.paidOrder(order.admin_graphql_api_id)!;
    const money = (amount: string) => ({ amount, currencyCode: "USD" });
    const saleCents = Math.round(Number(sale.amountSet.presentmentMoney.amount) * 100);
    const refundedByHand = formatDecimalAmount(saleCents - 1_000, "USD");
    held.transactions.push(
      {
        id: "gid://shopify/OrderTransaction/1",
        kind: "REFUND",
        status: "SUCCESS",
        gateway: GATEWAY,
        amountSet: { shopMoney: money(refundedByHand), presentmentMoney: money(refundedByHand) },
        parentTransaction: { id: sale.id },
      },
      {
        id: "gid://shopify/OrderTransaction/2",
        kind: "CAPTURE",
        status: "SUCCESS",
        gateway: "manual",
        amountSet: { shopMoney: money("30.00"), presentmentMoney: money("30.00") },
        parentTransaction: null,
      },
      {
        id: "gid://shopify/OrderTransaction/3",
        kind: "SALE",
        status: "PENDING",
        gateway: GATEWAY,
        amountSet: { shopMoney: money("500.00"), presentmentMoney: money("500.00") },
        parentTransaction: null,
      },
    );
    const before = callsOf("RefundClaim").length;

    assert.equal(await lookForApprovedClaims(), 1);
    const calls = callsOf("RefundClaim").slice(before);
    assert.equal(calls.length, 1);
    assert.deepEqual(
      variablesOf(calls[0], "RefundClaim").input.transactions.map(({ parentId, gateway, amount }) => ({
        parentId,
        gateway,
        amount,
      })),
      [
        { parentId: sale.id, gateway: GATEWAY, amount: "10.00" },
        { parentId: "gid://shopify/OrderTransaction/2", gateway: "manual", amount: "30.00" },
      ],
      "what is left of the sale, then the capture; never the pending sale",
    );
    assert.equal(plan.currency, "USD");
    await expectPaid(claimId, { kind: "refund", amountCents: 4_000, reference: app.admin.refunds.at(-1)!.id });
  });

  it("the refund is limited to what the plan still covers (what its other claims were paid is taken off)", async () => {
    const { plan, sale, claimId } = await approvedClaim("refund");
    // Another claim of the plan was paid in the meantime, leaving 20.00 of the coverage.
    await insertClaimRow(
      db(),
      { merchantId: plan.merchant_id, mode: plan.mode },
      {
        planId: plan.id,
        reason: "damaged_in_transit",
        status: "paid",
        paidAmountCents: plan.covered_amount_cents - 2_000,
        at: Date.now(),
      },
    );
    const before = callsOf("RefundClaim").length;

    assert.equal(await lookForApprovedClaims(), 1);
    const calls = callsOf("RefundClaim").slice(before);
    assert.deepEqual(
      variablesOf(calls[0], "RefundClaim").input.transactions.map(({ parentId, amount }) => ({ parentId, amount })),
      [{ parentId: sale.id, amount: "20.00" }],
    );
    await expectPaid(claimId, { kind: "refund", amountCents: 2_000, reference: app.admin.refunds.at(-1)!.id });
  });

  it("the buyer paid in another currency than the claim's: no refund, the job fails at once with what to do", async () => {
    const { order, claimId } = await approvedClaim("refund");
    app.admin.paidOrder(order.admin_graphql_api_id)!.presentmentCurrencyCode = "EUR";
    const before = callsOf("RefundClaim").length;

    assert.equal(await lookForApprovedClaims(), 1);
    const job = (await payoutJob(claimId))!;
    assert.deepEqual([job.status, Number(job.attempts)], ["dead", 1], "no retry can fix it");
    assert.equal(callsOf("RefundClaim").length, before, "no refundCreate");
    const row = await claimRow(claimId);
    assert.equal(row.status, "approved");
    assert.match(row.payout_error ?? "", /buyer paid in EUR: refund it in the Shopify admin/);
    assert.deepEqual(await reimbursements(claimId), []);
  });

  it("the order was cancelled after the approval (plan voided): no refundCreate, the job fails at once with plan_not_active", async () => {
    const { order, plan, claimId } = await approvedClaim("refund");
    assert.equal(await app.deliver({ shop: SHOP, topic: "orders/cancelled", payload: order }), 200);
    await app.settled();
    assert.equal(
      (await db().get<{ status: string }>("SELECT status FROM plans WHERE id = ?", [plan.id]))!.status,
      "voided",
    );
    const before = callsOf("RefundClaim").length;

    assert.equal(await lookForApprovedClaims(), 1);
    const job = (await payoutJob(claimId))!;
    assert.deepEqual([job.status, Number(job.attempts)], ["dead", 1], "the core's guard refused it before Shopify");
    assert.equal(callsOf("RefundClaim").length, before, "no money moved on Shopify");
    const row = await claimRow(claimId);
    assert.equal(row.status, "approved");
    assert.match(row.payout_error ?? "", /^plan_not_active: .*its approved claims can no longer be paid/);
    assert.deepEqual(await reimbursements(claimId), []);
  });

  it("Shopify refunded but its answer never arrived (a crash before our record): the retry finds the refund by its note and refunds nothing twice", async () => {
    const { claimId } = await approvedClaim("refund");
    const before = { calls: callsOf("RefundClaim").length, refunds: app.admin.refunds.length };
    app.admin.loseNextResponse("RefundClaim");

    assert.equal(await payouts.queueApprovedClaimPayouts(deps()), 1);
    const failed = await waitFor(
      async () => {
        const job = await payoutJob(claimId);
        return job && Number(job.attempts) === 1 && job;
      },
      { what: "the first attempt to fail" },
    );
    assert.equal(failed.status, "pending", "to be retried after the backoff");
    assert.equal(app.admin.refunds.length, before.refunds + 1, "Shopify refunded");
    const pending = await claimRow(claimId);
    assert.equal(pending.status, "approved", "but the app never heard of it");
    assert.ok(pending.payout_error, "the failed attempt is on the claim (console, dashboard)");
    assert.deepEqual(await reimbursements(claimId), []);

    await app.settled();
    const retried = await retry(claimId, 1);
    assert.equal(retried.status, "done", `the retry succeeded (${retried.last_error})`);
    assert.equal(callsOf("RefundClaim").length, before.calls + 1, "the retry made no second refundCreate");
    assert.equal(app.admin.refunds.length, before.refunds + 1, "one refund on Shopify");
    await expectPaid(claimId, { kind: "refund", amountCents: 5_000, reference: app.admin.refunds.at(-1)!.id });
  });

  it("an approved replacement: one draft order of the goods (not the protection line) to the buyer, 100 % off, tagged with the claim and completed; a lost answer finds the draft again", async () => {
    const paid = await protectedPaidOrder(app, SHOP);
    await setRules(app, paid.plan, { replacementAllowed: true });
    const claim = await fileClaim(paid, { reason: "damaged_in_transit", amountCents: 6_000 });
    await approve(app, paid.plan, claim.id, "replacement");
    const before = {
      create: callsOf("CreateClaimReplacement").length,
      complete: callsOf("CompleteClaimReplacement").length,
      drafts: app.admin.draftOrders.length,
      refunds: callsOf("RefundClaim").length,
    };
    app.admin.loseNextResponse("CreateClaimReplacement");

    assert.equal(await payouts.queueApprovedClaimPayouts(deps()), 1);
    await waitFor(
      async () => {
        const job = await payoutJob(claim.id);
        return job && Number(job.attempts) === 1;
      },
      { what: "the first attempt to fail" },
    );
    assert.equal(app.admin.draftOrders.length, before.drafts + 1, "Shopify made the draft");
    await app.settled();
    const retried = await retry(claim.id, 1);
    assert.equal(retried.status, "done", `the retry succeeded (${retried.last_error})`);

    assert.equal(callsOf("CreateClaimReplacement").length, before.create + 1, "one draftOrderCreate");
    assert.equal(app.admin.draftOrders.length, before.drafts + 1, "one draft order on Shopify");
    assert.equal(callsOf("CompleteClaimReplacement").length, before.complete + 1, "completed once");
    assert.equal(callsOf("RefundClaim").length, before.refunds, "nothing refunded");
    const draft = app.admin.draftOrders.at(-1)!;
    assert.equal(draft.status, "COMPLETED");
    assert.deepEqual(draft.input.tags, [claim.id]);
    assert.deepEqual(draft.input.lineItems, [
      { variantId: `gid://shopify/ProductVariant/${paid.goodsLine.variant_id}`, quantity: 2 },
    ]);
    assert.deepEqual(
      { value: draft.input.appliedDiscount.value, valueType: draft.input.appliedDiscount.valueType },
      { value: 100, valueType: "PERCENTAGE" },
    );
    assert.equal(draft.input.email, paid.order.email);
    assert.deepEqual(draft.input.shippingAddress, {
      firstName: "Ada",
      lastName: "Buyer",
      address1: "1 Harbour Road",
      city: "Portland",
      provinceCode: "OR",
      countryCode: "US",
      zip: "97201",
    });
    assert.match(draft.order!.id, /^gid:\/\/shopify\/Order\/\d+$/);
    await expectPaid(claim.id, { kind: "replacement", amountCents: 6_000, reference: draft.order!.id });
  });

  it("Shopify refuses the refund (userErrors): the error is kept on the claim, the job retried on the queue's backoff, then failed; the dashboard shows it", async () => {
    const { plan, order, claimId } = await approvedClaim("refund");
    const before = { calls: callsOf("RefundClaim").length, refunds: app.admin.refunds.length };
    const attempts = jobs.RETRY_DELAYS_MS.length + 1;
    app.admin.rejectRefunds(attempts, "Refund amount exceeds the refundable amount");
    const dashboard = () => adminShopOverview(SHOP);

    assert.equal(await payouts.queueApprovedClaimPayouts(deps()), 1);
    await failEveryAttempt(
      app,
      () => payoutJob(claimId),
      attempts,
      async () => {
        const shown = (await dashboard()).claimPayouts.find((payout) => payout.claimId === claimId);
        assert.equal(shown?.status, "retrying", "shown while it is being retried");
        assert.match(shown.lastError, /Refund amount exceeds the refundable amount/);
        assert.equal((await claimRow(claimId)).status, "approved");
      },
    );
    assert.equal(callsOf("RefundClaim").length, before.calls + attempts, "one refundCreate per attempt");
    assert.equal(app.admin.refunds.length, before.refunds, "nothing was refunded");

    const row = await claimRow(claimId);
    assert.equal(row.status, "approved", "not paid");
    assert.match(row.payout_error ?? "", /userErrors.*Refund amount exceeds the refundable amount/);
    assert.deepEqual(await reimbursements(claimId), [], "nothing reimbursed");

    const { claimPayouts, deadJobs } = await dashboard();
    const shown = claimPayouts.find((payout) => payout.claimId === claimId);
    assert.deepEqual(shown && { ...shown, createdAt: typeof shown.createdAt }, {
      claimId,
      remedy: "refund",
      referenceNumber: plan.reference_number,
      orderId: String(order.id),
      amountCents: 5_000,
      currency: "USD",
      status: "failed",
      attempts,
      lastError: row.payout_error,
      createdAt: "string",
    });
    assert.ok(deadJobs.some((job) => job.kind === "pay_claim"));

    // The page: the banner, and the card with the claim and its error.
    const html = await renderDashboardPage(await adminOverview(SHOP));
    for (const text of [
      "claim payout", // the banner: "<n> claim payout(s) failed"
      "Claim payouts needing attention",
      claimId,
      plan.reference_number,
      "Refund amount exceeds the refundable amount",
      "Failed",
    ])
      assert.ok(html.includes(text), `the page shows "${text}"`);

    // The claim's page in the admin says the app pays it on Shopify, with the error, and offers no confirmation:
    // confirming through the page is refused too, and changes nothing.
    const claimPage = { file: "app.claims_.$id.tsx", path: `/app/claims/${claimId}` };
    const { loader, action } = await import("../../app/routes/app.claims_.$id.tsx");
    const { data } = await callRoute(loader, adminRequest(claimPage.path, SHOP));
    const claimHtml = await renderDashboardPage(data, claimPage);
    assert.ok(claimHtml.includes("Paid on the Shopify order"));
    assert.ok(claimHtml.includes("Refund amount exceeds the refundable amount"));
    assert.ok(!claimHtml.includes("Confirm what you did"));
    const confirmed = await callRoute<{ formError: string }>(
      action,
      adminRequest(claimPage.path, SHOP, { kind: "refund", amount: "$50.00", reference: "re_1" }),
    );
    assert.equal(confirmed.status, 409);
    assert.match(confirmed.data.formError, /pays it on Shopify/);
    assert.equal((await claimRow(claimId)).status, "approved");

    // Nothing queues it again: it waits for the merchant (the dashboard says how).
    assert.equal(await lookForApprovedClaims(), 0);
    assert.equal(callsOf("RefundClaim").length, before.calls + attempts);
  });

  it("a claim waiting for review is never paid", async () => {
    const paid: PaidOrder = await protectedPaidOrder(app, SHOP);
    const submitted = await fileClaim(paid, { reason: "lost_in_transit", amountCents: 1_000 });
    await app.settledWithOrderEvents(); // the filing's own Admin calls (the order's state, its risk, the Flow trigger)
    const before = { calls: app.admin.calls.length, row: await claimRow(submitted.id) };
    assert.equal(await lookForApprovedClaims(), 0);
    assert.equal(await payoutJob(submitted.id), undefined, "no job");
    assert.equal(app.admin.calls.length, before.calls, "no Admin API call");
    assert.deepEqual(await claimRow(submitted.id), before.row, "the claim is unchanged");
  });

  /**
   * A "lost in transit" claim the rules approved on the carrier's failure scan, and the order's next scan (in
   * transit again), recorded as the fulfillment_events/create job records it: it would withdraw the approval.
   */
  async function lostParcelApproved() {
    // Each at its own door: the suite's other claims are no history of this buyer's (server/domain/claim-risk.ts).
    const paid = await protectedPaidOrder(app, SHOP, (order) =>
      app.deliver({
        shop: SHOP,
        topic: "orders/create",
        payload: { ...order, shipping_address: { ...order.shipping_address, address1: `${randomUUID()} Main St` } },
      }),
    );
    await setRules(app, paid.plan, {
      autoApprove: { maxAmountCentsByCurrency: { USD: 100_000 }, reasons: ["lost_in_transit"] },
    });
    const shipped = fulfillmentPayload({ orderId: paid.order.id, shipmentStatus: null });
    assert.equal(await app.deliver({ shop: SHOP, topic: "fulfillments/create", payload: shipped }), 200);
    const failed = fulfillmentEventPayload({
      orderId: paid.order.id,
      fulfillmentId: shipped.id,
      status: "failure",
      happenedAt: new Date(Date.now() - 3_600_000).toISOString(),
    });
    assert.equal(await app.deliver({ shop: SHOP, topic: "fulfillment_events/create", payload: failed }), 200);
    await app.settled();
    const claim = await fileClaim(paid, { reason: "lost_in_transit", amountCents: 5_000 });
    assert.equal(claim.status, "approved", "the rules approve it on the failure scan");
    // On the app's own connection, as the job records it (one process writes SQLite through one queue).
    const moving = () =>
      deps().db.transaction((tx) =>
        recordShopifyFulfillmentEvent(
          tx,
          deps().services,
          { merchantId: paid.plan.merchant_id, mode: paid.plan.mode },
          String(paid.order.id),
          String(shipped.id),
          { status: "in_transit", occurredAt: Date.now() },
        ),
      );
    return { ...paid, claimId: claim.id, moving };
  }

  /** Exactly one outcome: paid once (refunded once, reimbursed once, never reopened), or reopened and nothing paid. */
  async function oneOutcome(claimId: string, refundsBefore: number): Promise<"paid" | "withdrawn"> {
    const row = await claimRow(claimId);
    const reopened = await db().all(
      "SELECT id FROM email_messages WHERE claim_id = ? AND template = 'claim_reopened'",
      [claimId],
    );
    const refunds = callsOf("RefundClaim").length - refundsBefore;
    const reimbursed = await reimbursements(claimId);
    if (row.status === "paid") {
      assert.deepEqual([reopened.length, refunds], [0, 1], "paid: never reopened, refunded once");
      assert.deepEqual(
        reimbursed.map((entry) => Number(entry.amount_cents)),
        [Number(row.paid_amount_cents)],
        "the ledger reimburses what was paid, once",
      );
      return "paid";
    }
    assert.equal(row.status, "under_review");
    assert.deepEqual([reopened.length, refunds, reimbursed.length], [1, 0, 0], "withdrawn: nothing moved");
    assert.equal(Number(row.paid_amount_cents), 0);
    assert.equal(row.payout_error, null);
    return "withdrawn";
  }

  /** Runs `hook` once, when the payout job calls `method` of the app's deps (the real one is called after it). */
  async function duringPayout(method: "installation" | "adminApi", hook: () => Promise<unknown>) {
    const wiring = deps();
    const original = wiring[method];
    const real = original.bind(wiring) as (shop: string) => Promise<unknown>;
    let ran = false;
    Object.assign(wiring, {
      [method]: async (shop: string) => {
        if (!ran) {
          ran = true;
          await hook();
        }
        return real(shop);
      },
    });
    try {
      await lookForApprovedClaims();
    } finally {
      Object.assign(wiring, { [method]: original });
    }
    assert.ok(ran, "the payout job ran");
  }

  it("a new scan and the payout of the approval it would withdraw: exactly one happens (the scan during the refund leaves it paid, the scan before the payout began takes it back), the ledger consistent", async () => {
    // The scan arrives while the refund is under way on Shopify (after the job began the payout): paid.
    const during = await lostParcelApproved();
    let before = callsOf("RefundClaim").length;
    await duringPayout("adminApi", during.moving);
    assert.equal(await oneOutcome(during.claimId, before), "paid");
    const scans = await db().all<{ status: string }>(
      "SELECT e.status FROM shipment_events e JOIN shipments s ON s.id = e.shipment_id JOIN orders o ON o.id = s.order_id WHERE o.external_id = ? ORDER BY e.occurred_at",
      [String(during.order.id)],
    );
    assert.deepEqual(
      scans.map((scan) => scan.status),
      ["failure", "in_transit"],
      "the scan itself is recorded",
    );

    // The scan arrives after the job read the claim as approved but before it began the payout: nothing is paid.
    const first = await lostParcelApproved();
    before = callsOf("RefundClaim").length;
    await duringPayout("installation", first.moving);
    assert.equal(await oneOutcome(first.claimId, before), "withdrawn");

    // Both at once, however they interleave: one outcome.
    const racing = await lostParcelApproved();
    before = callsOf("RefundClaim").length;
    await Promise.all([lookForApprovedClaims(), racing.moving()]);
    await app.settled();
    await oneOutcome(racing.claimId, before);
    await setRules(app, racing.plan, {});
  });

  it("an approval withdrawn after its payout was queued, then approved again by a person: the job that paid nothing runs again and pays exactly once", async () => {
    const lost = await lostParcelApproved();
    await setRules(app, lost.plan, {});
    const before = callsOf("RefundClaim").length;
    // The scan comes after the look queued the payout and before the job began it: the job pays nothing, and the
    // claim awaits no payout.
    await duringPayout("installation", lost.moving);
    assert.equal(await oneOutcome(lost.claimId, before), "withdrawn");
    assert.equal((await payoutJob(lost.claimId))!.status, "done");
    assert.equal(await lookForApprovedClaims(), 0, "nothing to pay while it is under review");

    // The claims team approves it again: the next look queues the same job again, which pays once.
    await approve(app, lost.plan, lost.claimId, "refund");
    assert.equal(await lookForApprovedClaims(), 1);
    const row = await claimRow(lost.claimId);
    assert.equal(row.status, "paid");
    assert.equal(Number(row.paid_amount_cents), 5_000);
    assert.equal(callsOf("RefundClaim").length, before + 1, "refunded once");
    assert.deepEqual(
      (await reimbursements(lost.claimId)).map((entry) => Number(entry.amount_cents)),
      [5_000],
      "the ledger reimburses it once",
    );
    const job = (await payoutJob(lost.claimId))!;
    assert.deepEqual([job.status, job.payout_state, Number(job.payout_attempts)], ["done", "done", 1]);
    const entries = await db().all<{ actor: string; status: string }>(
      "SELECT actor, status FROM claim_timeline WHERE claim_id = ? AND kind = 'status_changed' ORDER BY created_at, id",
      [lost.claimId],
    );
    assert.deepEqual(
      entries.map((entry) => `${entry.actor}:${entry.status}`),
      ["service:approved", "service:under_review", "claims_team:approved", "service:paid"],
    );

    // Looked for again: nothing more is queued or paid.
    assert.equal(await lookForApprovedClaims(), 0);
    assert.equal(callsOf("RefundClaim").length, before + 1);
  });
});
