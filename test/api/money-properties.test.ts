import { afterAll, beforeAll, describe, it } from "vitest";
import assert from "node:assert/strict";
import fc from "fast-check";
import { DIALECTS, rowCounts } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient, type ApiResponse, type UntypedBody } from "../support/client.ts";
import { signIn, signedInBuyer } from "../support/portal.ts";
import { approveClaim, denyClaim } from "../../server/domain/claim-decisions.ts";
import { DomainError } from "../../server/domain/errors.ts";
import { setClaimRules } from "../../server/domain/programs.ts";
import type { NewMerchant } from "../../server/domain/merchants.ts";

// docs/api.md "Money invariants", as a property: any sequence of confirms, free-look cancellations, filings, decisions,
// payments, refund reports, voids and the passing of time — on SQLite and on PostgreSQL — leaves after every step a
// ledger in which each plan gave its buyer money back through one path at most, within what the buyer paid and the
// plan covers, paid no claim once cancelled or voided, and holds exactly the entries its events announce.
// MONEY_PROPERTY_SEED and MONEY_PROPERTY_RUNS replay a failure or run longer.

const SEED = Number(process.env.MONEY_PROPERTY_SEED ?? 20261127);
const RUNS = process.env.MONEY_PROPERTY_RUNS ? Number(process.env.MONEY_PROPERTY_RUNS) : undefined;
const HOUR_MS = 60 * 60 * 1000;
const STAFF = { kind: "staff", staffId: "stf_property" } as const;
const REASONS = ["lost_in_transit", "damaged_in_transit", "missing_items"] as const;
/** What a refused step may add: its idempotency record, nothing else. */
const MONEY_TABLES = [
  "plans",
  "orders",
  "claims",
  "claim_timeline",
  "fee_refunds",
  "settlement_credits",
  "ledger_entries",
  "events",
  "email_messages",
];

/** Counted from the newest plan or claim: most steps act on the few last ones, so that they meet. */
const index = fc.nat({ max: 2 });
const command = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ op: fc.constant("confirm" as const), amount: fc.integer({ min: 2_000, max: 60_000 }) }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("cancel" as const), plan: index }) },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant("file" as const),
      plan: index,
      reason: fc.constantFrom(...REASONS),
      amount: fc.option(fc.integer({ min: 1, max: 20_000 }), { nil: undefined }),
    }),
  },
  { weight: 4, arbitrary: fc.record({ op: fc.constant("decide" as const), claim: index, approve: fc.boolean() }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant("pay" as const), claim: index, partial: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("refund" as const), plan: index }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("void" as const), plan: index }) },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant("wait" as const), ms: fc.integer({ min: 0, max: 30 * HOUR_MS }) }),
  },
);

interface PlanModel {
  planId: string;
  orderId: string;
  email: string;
  referenceNumber: string;
  buyer: ReturnType<typeof apiClient>;
  signedInAt: number;
}

describe.each(DIALECTS)("money invariants, as a property (%s)", (dialect) => {
  let t: TestApi;
  beforeAll(async () => {
    t = await startTestApi({ dialect });
  });
  afterAll(() => t.close());

  it("after every step each plan refunds its buyer through one path, within fee and coverage, never once ended", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        // Each run starts with a purchase, so that the steps after it have a plan to act on.
        fc
          .tuple(
            fc.integer({ min: 2_000, max: 60_000 }),
            fc.array(command, { minLength: 1, maxLength: 24, size: "max" }),
          )
          .map(([amount, rest]) => [{ op: "confirm" as const, amount }, ...rest]),
        async (autoApprove, commands) => {
          const merchant = await t.createMerchant();
          const actor = { merchantId: merchant.merchantId, mode: "test" as const };
          if (autoApprove)
            await t.database.db.transaction((tx) =>
              setClaimRules(tx, t.services, actor, {
                autoApprove: {
                  maxAmountCentsByCurrency: { USD: 1_000_000 },
                  reasons: ["lost_in_transit", "missing_items"],
                },
              }),
            );
          const secret = apiClient(t.baseUrl, merchant.secretKey);
          const plans: PlanModel[] = [];
          const claims: { claimId: string; amountCents: number }[] = [];

          /** The buyer's portal client, signed in again once the 30-minute session may have lapsed. */
          async function portal(plan: PlanModel) {
            if (t.clock.now - plan.signedInAt > 20 * 60 * 1000) {
              plan.buyer = (await signIn(t, plan)).buyer;
              plan.signedInAt = t.clock.now;
            }
            return plan.buyer;
          }

          for (const step of commands) {
            const plan = "plan" in step ? plans.at(-1 - (step.plan % Math.max(plans.length, 1))) : undefined;
            const claim = "claim" in step ? claims.at(-1 - (step.claim % Math.max(claims.length, 1))) : undefined;
            const before = await rowCounts(t.database.db, MONEY_TABLES);
            let response: ApiResponse | undefined;
            let refused = false;
            if (step.op === "confirm") {
              const bought = await signedInBuyer(t, { merchant, orderAmountCents: step.amount });
              plans.push({
                planId: bought.planId,
                orderId: bought.session.plan.orderId as string,
                email: bought.email,
                referenceNumber: bought.referenceNumber,
                buyer: bought.buyer,
                signedInAt: t.clock.now,
              });
            } else if (step.op === "cancel" && plan) {
              response = await (await portal(plan)).post("/portal/cancel", { referenceNumber: plan.referenceNumber });
            } else if (step.op === "file" && plan) {
              response = await (
                await portal(plan)
              ).post("/portal/claims", {
                referenceNumber: plan.referenceNumber,
                reason: step.reason,
                occurredAt: new Date(t.clock.now).toISOString(),
                description: "Property step.",
                ...(step.amount === undefined ? {} : { amountCents: step.amount }),
              });
              if (response.status === 200)
                claims.push({ claimId: response.body.id as string, amountCents: response.body.amountCents as number });
            } else if (step.op === "decide" && claim) {
              try {
                await t.database.db.transaction((tx) =>
                  step.approve
                    ? approveClaim(tx, t.services, actor, claim.claimId, STAFF, {})
                    : denyClaim(tx, t.services, actor, claim.claimId, STAFF, { code: "insufficient_evidence" }),
                );
              } catch (error) {
                if (!(error instanceof DomainError) || error.kind !== "conflict") throw error;
                refused = true;
              }
            } else if (step.op === "pay" && claim) {
              response = await secret.post(`/merchant/claims/${claim.claimId}/resolution`, {
                kind: "refund",
                reference: `re_${claim.claimId}`,
                ...(step.partial ? { amountCents: Math.max(1, Math.floor(claim.amountCents / 2)) } : {}),
              });
            } else if (step.op === "refund" && plan) {
              response = await secret.post(`/orders/${plan.orderId}/refund`, {});
              if (response.status === 200) assert.equal(response.body.consumerRefundIssued, false);
            } else if (step.op === "void" && plan) {
              response = await secret.post("/offers/void", { planId: plan.planId, reason: "order_cancelled" });
            } else if (step.op === "wait") t.clock.advance(step.ms);

            if (response && response.status !== 200) {
              assert.ok([409, 422].includes(response.status), `${step.op}: ${response.status} ${response.text}`);
              refused = true;
            }
            if (refused)
              assert.deepEqual(
                await rowCounts(t.database.db, MONEY_TABLES),
                before,
                `a refused ${step.op} writes nothing`,
              );
            await assertLedgerInvariants(t, merchant, `after ${JSON.stringify(step)}`);
          }
        },
      ),
      { seed: SEED, numRuns: RUNS ?? (dialect === "sqlite" ? 80 : 50) },
    );
  });
});

interface EventRow {
  seq: number;
  type: string;
  data: UntypedBody;
}

async function assertLedgerInvariants(t: TestApi, merchant: NewMerchant, when: string): Promise<void> {
  const db = t.database.db;
  const [plans, entries, claimRows, eventRows] = await Promise.all([
    db.all<{ id: string; status: string; fee_cents: number; covered_amount_cents: number }>(
      "SELECT id, status, fee_cents, covered_amount_cents FROM plans WHERE merchant_id = ?",
      [merchant.merchantId],
    ),
    db.all<{ kind: string; amount_cents: number | string; source_id: string; plan_id: string | null }>(
      "SELECT kind, amount_cents, source_id, plan_id FROM ledger_entries WHERE merchant_id = ?",
      [merchant.merchantId],
    ),
    db.all<{ id: string; plan_id: string; status: string; paid_amount_cents: number | string }>(
      "SELECT id, plan_id, status, paid_amount_cents FROM claims WHERE merchant_id = ?",
      [merchant.merchantId],
    ),
    db.all<{ seq: number | string; type: string; data: string }>(
      "SELECT seq, type, data FROM events WHERE merchant_id = ? ORDER BY seq",
      [merchant.merchantId],
    ),
  ]);
  const events: EventRow[] = eventRows.map((row) => ({
    seq: Number(row.seq),
    type: row.type,
    data: JSON.parse(row.data),
  }));
  const paidEvents = events.filter((event) => event.type === "claim.updated" && event.data.status === "paid");

  for (const plan of plans) {
    const at = `${when}, plan ${plan.id}`;
    const of = (kind: string) =>
      entries.filter((entry) => entry.plan_id === plan.id && entry.kind === kind).map((e) => Number(e.amount_cents));
    const eventsOf = (type: string) =>
      events.filter((event) => event.type === type && (event.data.purchase?.id ?? event.data.id) === plan.id);
    const planClaims = claimRows.filter((row) => row.plan_id === plan.id);

    // Every entry matches its event, and every money event has its entry.
    assert.deepEqual(of("fee_collected"), [-plan.fee_cents], `${at}: the fee, collected once`);
    assert.deepEqual(
      eventsOf("protection.confirmed").map((event) => event.data.feeCents),
      [plan.fee_cents],
      `${at}: confirmed once`,
    );
    const cancelled = eventsOf("protection.cancelled");
    assert.deepEqual(of("fee_refunded"), cancelled.length ? [plan.fee_cents] : [], `${at}: fee refunded ⇔ cancelled`);
    assert.equal(cancelled.length <= 1 && (cancelled.length === 1) === (plan.status === "cancelled"), true, at);
    const reported = eventsOf("order.merchant_refunded");
    assert.deepEqual(
      of("merchant_refund_credit"),
      reported.map((event) => event.data.settlementCredit.amountCents),
      `${at}: a refund report's credit ⇔ its event`,
    );
    assert.ok(reported.length <= 1, `${at}: reported once`);
    const reimbursements = entries.filter((entry) => entry.plan_id === plan.id && entry.kind === "claim_reimbursement");
    const planPaidEvents = paidEvents.filter((event) => event.data.planId === plan.id);
    assert.deepEqual(
      reimbursements.map((entry) => [entry.source_id, Number(entry.amount_cents)]).sort(),
      planPaidEvents.map((event) => [event.data.id, event.data.resolution.amountCents]).sort(),
      `${at}: one reimbursement per paid claim, of what it was paid`,
    );
    for (const entry of reimbursements) {
      const paid = planClaims.find((row) => row.id === entry.source_id);
      assert.ok(paid?.status === "paid", `${at}: reimbursed claim ${entry.source_id} is paid`);
      assert.equal(Number(paid.paid_amount_cents), Number(entry.amount_cents), at);
    }

    // One path back to the buyer, within what the buyer paid and what the plan covers.
    const claimPayouts = of("claim_reimbursement").reduce((sum, cents) => sum + cents, 0);
    assert.ok(claimPayouts <= plan.covered_amount_cents, `${at}: payouts ${claimPayouts} ≤ covered`);
    const feeBack = of("fee_refunded").reduce((sum, cents) => sum + cents, 0);
    assert.ok(feeBack + claimPayouts <= plan.fee_cents + plan.covered_amount_cents, at);
    const paths = [feeBack > 0, claimPayouts > 0, reported.length > 0].filter(Boolean).length;
    assert.ok(paths <= 1, `${at}: fee refund, claim payouts and refund report are exclusive`);

    // No payout once the plan ended: every payment's event precedes the cancellation's or the void's.
    const ended = [...cancelled, ...eventsOf("protection.voided")].map((event) => event.seq);
    if (ended.length > 0)
      for (const event of planPaidEvents)
        assert.ok(event.seq < Math.min(...ended), `${at}: claim ${event.data.id} paid after the plan ended`);
  }
}
