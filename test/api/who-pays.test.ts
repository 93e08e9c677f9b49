import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { assertChangesNothing, assertError } from "../support/api-assertions.ts";
import { protectOrderHeadless } from "../support/protection-flows.ts";
import { signedInBuyer } from "../support/portal.ts";
import { approveClaim } from "../../server/domain/claim-decisions.ts";
import { createProgram, DEFAULT_PROGRAM, updateProgram } from "../../server/domain/programs.ts";
import { DomainError } from "../../server/domain/errors.ts";
import { goLive } from "../../server/domain/go-live.ts";
import { markMerchantLive } from "../../server/store/merchants.ts";
import { closeEndedPeriods, SETTLEMENT_GRACE_MS } from "../../server/domain/settlements.ts";
import type { NewMerchant } from "../../server/domain/merchants.ts";
import type { Payer } from "../../server/vocabulary/plans.ts";

// docs/api.md "Who pays": a program's payer splits each fee between the buyer and the merchant; quotes, confirmations,
// purchases and the consent record say who paid which part; the ledger and statements follow it; the free look
// returns what the buyer paid. Every figure below is written by hand, derived in the comment beside it.
//
// The programs: 3 % of the covered amount (rateBps 300), at least 1.00, the merchant's share 20 % (2,000 bps). An
// order of 123.45 (12,345 cents) costs 12,345 × 3 % = 370.35 → 370 cents (half up). Split with the buyer paying
// 33.33 % (3,333 bps): 370 × 33.33 % = 123.32 → 123 cents the buyer pays, 370 − 123 = 247 the merchant pays.
const ORDER_CENTS = 12_345;
const FEE = 370;
const SPLIT_BUYER = 123;
const SPLIT_MERCHANT = 247;
// The merchant's share is earned on what buyers pay: 20 % of 370 = 74; 20 % of 123 = 24.6 → 25.
const BUYER_SHARE = 74;
const SPLIT_SHARE = 25;

const STAFF = { kind: "staff", staffId: "stf_who_pays" } as const;

describe.each(DIALECTS)("who pays (%s)", (dialect) => {
  let t: TestApi;
  beforeAll(async () => (t = await startTestApi({ dialect })));
  afterAll(() => t.close());

  const actorOf = (merchant: NewMerchant) => ({ merchantId: merchant.merchantId, mode: "test" as const });
  /** A merchant whose (first, default) program is paid as given. */
  async function merchantPaying(payer: Payer, buyerShareBps: number | null = null): Promise<NewMerchant> {
    const merchant = await t.createMerchant(`${payer} pays`);
    await t.database.db.run("UPDATE protection_programs SET payer = ?, buyer_share_bps = ? WHERE id = ?", [
      payer,
      buyerShareBps,
      merchant.programId,
    ]);
    return merchant;
  }
  const ledgerOf = async (planId: string) =>
    (
      await t.database.db.all<{ kind: string; amount_cents: number | string; source_id: string }>(
        "SELECT kind, amount_cents, source_id FROM ledger_entries WHERE plan_id = ? ORDER BY kind, source_id",
        [planId],
      )
    ).map((row) => `${row.kind} ${Number(row.amount_cents)} ${row.source_id === planId ? "plan" : row.source_id}`);

  it("quotes, confirmations and purchases say who pays which part; the week's statement and CSV carry each payer's entries", async () => {
    // One merchant, three programs: the buyer pays (its default), the merchant pays, split.
    const merchant = await t.createMerchant("Three payers");
    const secret = apiClient(t.baseUrl, merchant.secretKey);
    const programOf = (payer: Payer, buyerShareBps: number | null) =>
      t.database.db.transaction((tx) =>
        createProgram(tx, t.services, actorOf(merchant), { ...DEFAULT_PROGRAM, payer, buyerShareBps }),
      );
    const merchantProgram = await programOf("merchant", null);
    const splitProgram = await programOf("split", 3_333);

    const order = { order_amount_cents: ORDER_CENTS };
    const buyer = await protectOrderHeadless(secret, merchant.programId, order);
    const paidByMerchant = await protectOrderHeadless(secret, merchantProgram, order);
    const split = await protectOrderHeadless(secret, splitProgram, order);
    const parts = (quote: Record<string, unknown>) => [
      quote.fee_cents,
      quote.payer,
      quote.buyer_fee_cents,
      quote.merchant_fee_cents,
    ];
    assert.deepEqual(parts(buyer.quote), [FEE, "buyer", FEE, 0]);
    assert.deepEqual(parts(paidByMerchant.quote), [FEE, "merchant", 0, FEE]);
    assert.deepEqual(parts(split.quote), [FEE, "split", SPLIT_BUYER, SPLIT_MERCHANT]);
    assert.deepEqual(parts(split.confirmation), [FEE, "split", SPLIT_BUYER, SPLIT_MERCHANT]);

    // The purchase and its consent record: who paid, and what the buyer was given (a notice when the merchant paid).
    const purchase = await secret.get(`/purchases/${paidByMerchant.confirmation.plan_id}`);
    assert.equal(purchase.status, 200, purchase.text);
    assert.deepEqual(
      [purchase.body.feeCents, purchase.body.payer, purchase.body.buyerFeeCents, purchase.body.merchantFeeCents],
      [FEE, "merchant", 0, FEE],
    );
    assert.deepEqual(
      [purchase.body.consent.payer, purchase.body.consent.buyerShown, purchase.body.consent.merchantFeeCents],
      ["merchant", "notice", FEE],
    );
    const splitPurchase = (await secret.get(`/purchases/${split.confirmation.plan_id}`)).body;
    assert.deepEqual(
      [splitPurchase.consent.payer, splitPurchase.consent.buyerShown, splitPurchase.consent.buyerFeeCents],
      ["split", "choice", SPLIT_BUYER],
    );

    // The ledger of each sale.
    assert.deepEqual(await ledgerOf(buyer.confirmation.plan_id as string), [
      `fee_collected -${FEE} plan`,
      `merchant_fee_share ${BUYER_SHARE} plan`,
    ]);
    assert.deepEqual(await ledgerOf(paidByMerchant.confirmation.plan_id as string), [`merchant_paid_fee -${FEE} plan`]);
    assert.deepEqual(await ledgerOf(split.confirmation.plan_id as string), [
      `fee_collected -${SPLIT_BUYER} plan`,
      `merchant_fee_share ${SPLIT_SHARE} plan`,
      `merchant_paid_fee -${SPLIT_MERCHANT} plan`,
    ]);

    // The week's statement: fees collected −370 − 123 = −493; shares 74 + 25 = 99; the merchant's own fees
    // −370 − 247 = −617; net −493 + 99 − 617 = −1,011, owed by the merchant; 2 + 1 + 3 = 6 entries.
    t.clock.now = Date.parse("2026-11-23T00:00:00.000Z") + SETTLEMENT_GRACE_MS;
    await closeEndedPeriods(t.database.db, t.services);
    const [statement] = (await secret.get("/settlements")).body.data;
    assert.deepEqual(
      [statement.totals, statement.netCents, statement.closingBalanceCents, statement.direction, statement.entryCount],
      [
        {
          fee_collected: -493,
          merchant_fee_share: 99,
          merchant_paid_fee: -617,
          fee_refunded: 0,
          merchant_refund_credit: 0,
          claim_reimbursement: 0,
          correction: 0,
        },
        -1_011,
        -1_011,
        "payable_by_merchant",
        6,
      ],
    );
    const csv = await t.fetch(`${t.baseUrl}/settlements/${statement.id}/entries.csv`, {
      headers: { Authorization: `Bearer ${merchant.secretKey}` },
    });
    const rows = (await csv.text())
      .split("\r\n")
      .slice(1, -1)
      .map((line) => line.split(","));
    assert.deepEqual(
      rows
        .filter((row) => row[2] === "merchant_paid_fee")
        .map((row) => Number(row[3]))
        .sort((a, b) => a - b),
      [-FEE, -SPLIT_MERCHANT],
    );
    assert.equal(
      rows.reduce((sum, row) => sum + Number(row[3]), 0),
      -1_011,
    );

    // GET /programs shows each program's payer and the buyer's share of a split.
    const programs = (await secret.get("/programs")).body.data as { id: string; payer: string; buyerShareBps: null }[];
    assert.deepEqual(
      Object.fromEntries(programs.map((program) => [program.id, [program.payer, program.buyerShareBps]])),
      {
        [merchant.programId]: ["buyer", null],
        [merchantProgram]: ["merchant", null],
        [splitProgram]: ["split", 3_333],
      },
    );
  });

  it("the free look returns what the buyer paid: the whole fee, a split's buyer part (and the merchant's part on its statement), nothing for a merchant-paid plan", async () => {
    const cancel = (buyer: Awaited<ReturnType<typeof signedInBuyer>>) =>
      buyer.buyer.post("/portal/cancel", { referenceNumber: buyer.referenceNumber });

    // The buyer paid: as before payers, fee_refunded +370 and the share taken back (−74).
    const byBuyer = await signedInBuyer(t, { merchant: await merchantPaying("buyer"), orderAmountCents: ORDER_CENTS });
    assert.equal((await cancel(byBuyer)).status, 200);
    assert.deepEqual(await ledgerOf(byBuyer.planId), [
      `correction -${BUYER_SHARE} fee_share_reversal:${byBuyer.planId}`,
      `fee_collected -${FEE} plan`,
      `fee_refunded ${FEE} plan`,
      `merchant_fee_share ${BUYER_SHARE} plan`,
    ]);

    // Split: the buyer gets back its 123 (fee_refunded, and the fee refund owed through the merchant's channel); the
    // share of it is taken back (−25); the plan is cancelled, so the merchant's 247 comes back too (+247). Net of the
    // plan: −123 + 25 − 247 + 123 − 25 + 247 = 0.
    const splitMerchant = await merchantPaying("split", 3_333);
    const bySplit = await signedInBuyer(t, { merchant: splitMerchant, orderAmountCents: ORDER_CENTS });
    assert.equal(bySplit.session.plan.buyerFeeCents, SPLIT_BUYER);
    const cancelled = await cancel(bySplit);
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.deepEqual(await ledgerOf(bySplit.planId), [
      `correction -${SPLIT_SHARE} fee_share_reversal:${bySplit.planId}`,
      `correction ${SPLIT_MERCHANT} merchant_fee_reversal:${bySplit.planId}`,
      `fee_collected -${SPLIT_BUYER} plan`,
      `fee_refunded ${SPLIT_BUYER} plan`,
      `merchant_fee_share ${SPLIT_SHARE} plan`,
      `merchant_paid_fee -${SPLIT_MERCHANT} plan`,
    ]);
    const splitPurchase = await apiClient(t.baseUrl, splitMerchant.secretKey).get(`/purchases/${bySplit.planId}`);
    assert.equal(splitPurchase.body.feeRefund.amountCents, SPLIT_BUYER);

    // The merchant paid: the buyer paid nothing, so the portal offers no cancellation and the route refuses it.
    const byMerchant = await signedInBuyer(t, {
      merchant: await merchantPaying("merchant"),
      orderAmountCents: ORDER_CENTS,
      key: "secret",
    });
    const plan = (await byMerchant.buyer.get("/portal/plan")).body;
    assert.deepEqual([plan.payer, plan.buyerFeeCents, plan.cancellable], ["merchant", 0, false]);
    const refused = await assertChangesNothing(t.database.db, () => cancel(byMerchant), 1);
    assertError(refused, { status: 409, code: "free_look_not_applicable" });
    assert.deepEqual(await ledgerOf(byMerchant.planId), [`merchant_paid_fee -${FEE} plan`]);
  });

  it("a void or a refund report returns the merchant's own part of the fee (not once a claim used the cover), no share is credited, a claim is reimbursed in full; the statement shows the return", async () => {
    const merchant = await merchantPaying("merchant");
    const secret = apiClient(t.baseUrl, merchant.secretKey);

    // A void ends the coverage before it was used: the merchant's 370 comes back (a correction of +370).
    const voided = await protectOrderHeadless(secret, merchant.programId, { order_amount_cents: ORDER_CENTS });
    const voidedPlan = voided.confirmation.plan_id as string;
    const voidAnswer = await secret.post("/offers/void", { planId: voidedPlan });
    assert.equal(voidAnswer.status, 200, voidAnswer.text);
    assert.deepEqual(await ledgerOf(voidedPlan), [
      `correction ${FEE} merchant_fee_reversal:${voidedPlan}`,
      `merchant_paid_fee -${FEE} plan`,
    ]);
    // A second void is refused and returns nothing twice.
    const again = await assertChangesNothing(
      t.database.db,
      () => secret.post("/offers/void", { planId: voidedPlan }),
      1,
    );
    assertError(again, { status: 409, code: "plan_not_active" });

    // A refund report voids the plan too: the 370 comes back; the share credited is 20 % of what the buyer paid, 0.
    const refunded = await protectOrderHeadless(secret, merchant.programId, { order_amount_cents: ORDER_CENTS });
    const refundedPlan = refunded.confirmation.plan_id as string;
    const report = await secret.post(`/orders/${refunded.quote.order_id}/refund`, {});
    assert.equal(report.status, 200, report.text);
    assert.deepEqual(report.body.settlementCredit, { amountCents: 0, currency: "USD", statement: "next" });
    assert.deepEqual(await ledgerOf(refundedPlan), [
      `correction ${FEE} merchant_fee_reversal:${refundedPlan}`,
      `merchant_paid_fee -${FEE} plan`,
    ]);

    // A split's void returns the merchant's 247 only: the buyer's 123 and the share of it stay, as a buyer-paid
    // plan's fee does on a void. Its refund report credits 20 % of the buyer's 123: 24.6 → 25.
    const split = await merchantPaying("split", 3_333);
    const splitSecret = apiClient(t.baseUrl, split.secretKey);
    const splitVoided = await protectOrderHeadless(splitSecret, split.programId, { order_amount_cents: ORDER_CENTS });
    const splitPlan = splitVoided.confirmation.plan_id as string;
    assert.equal((await splitSecret.post("/offers/void", { planId: splitPlan })).status, 200);
    assert.deepEqual(await ledgerOf(splitPlan), [
      `correction ${SPLIT_MERCHANT} merchant_fee_reversal:${splitPlan}`,
      `fee_collected -${SPLIT_BUYER} plan`,
      `merchant_fee_share ${SPLIT_SHARE} plan`,
      `merchant_paid_fee -${SPLIT_MERCHANT} plan`,
    ]);
    const splitOrder = await protectOrderHeadless(splitSecret, split.programId, { order_amount_cents: ORDER_CENTS });
    const splitReport = await splitSecret.post(`/orders/${splitOrder.quote.order_id}/refund`, {});
    assert.equal(splitReport.body.settlementCredit.amountCents, SPLIT_SHARE);

    // A claim on a merchant-paid plan is reimbursed as any other: what the merchant refunded the buyer (45.00).
    const buyer = await signedInBuyer(t, { merchant, orderAmountCents: ORDER_CENTS, key: "secret" });
    const filed = await buyer.buyer.post("/portal/claims", {
      referenceNumber: buyer.referenceNumber,
      reason: "lost_in_transit",
      occurredAt: new Date(t.clock.now).toISOString(),
      description: "The parcel never came.",
      amountCents: 4_500,
    });
    assert.equal(filed.status, 200, filed.text);
    await t.database.db.transaction((tx) => approveClaim(tx, t.services, actorOf(merchant), filed.body.id, STAFF, {}));
    const paid = await secret.post(`/merchant/claims/${filed.body.id}/resolution`, {
      kind: "refund",
      reference: "re_who_pays",
    });
    assert.equal(paid.status, 200, paid.text);
    const reimbursed = await t.database.db.get<{ amount_cents: number | string }>(
      "SELECT amount_cents FROM ledger_entries WHERE kind = 'claim_reimbursement' AND source_id = ?",
      [filed.body.id],
    );
    assert.equal(Number(reimbursed?.amount_cents), 4_500);
    // Its cover was used, so voiding it afterwards returns no fee.
    assert.equal((await secret.post("/offers/void", { planId: buyer.planId })).status, 200);
    assert.deepEqual(
      (await ledgerOf(buyer.planId)).filter((line) => !line.startsWith("claim_reimbursement")),
      [`merchant_paid_fee -${FEE} plan`],
    );

    // The merchant-paid merchant's open statement: its own fees −370 × 3 = −1,110; returned +370 + 370 = +740; the
    // claim reimbursed +4,500; net −1,110 + 740 + 4,500 = 4,130, owed to the merchant; 3 + 2 + 1 = 6 entries.
    const [balance] = (await secret.get("/settlements/balance")).body.data;
    assert.deepEqual(
      [balance.totals.merchant_paid_fee, balance.totals.correction, balance.totals.claim_reimbursement],
      [-3 * FEE, 2 * FEE, 4_500],
    );
    assert.deepEqual([balance.netCents, balance.entryCount], [4_130, 6]);
  });

  it("the program's payer is set with its rules: split needs the buyer's share, between 0.01 % and 99.99 %; a refusal changes nothing", async () => {
    const merchant = await t.createMerchant("Payer settings");
    const source = { ...actorOf(merchant), actor: { id: "mem_owner", email: "owner@example.com" }, ip: "127.0.0.1" };
    const terms = {
      ratePercent: "3",
      currencies: ["USD"],
      currencyLimits: { USD: { minFeeCents: 100, maxCoveredCents: 500_000 } },
      productCategories: "",
      claimRules: {},
      settlementPeriod: "weekly",
    };
    const update = (input: Record<string, unknown>) =>
      t.database.db.transaction((tx) => updateProgram(tx, t.services, source, { ...terms, ...input }));
    const refusal = async (input: Record<string, unknown>) => {
      const error = await assertChangesNothing(t.database.db, () =>
        update(input).then(
          () => undefined,
          (e) => e,
        ),
      );
      assert.ok(error instanceof DomainError, String(error));
      return [error.code, error.field, error.message];
    };
    assert.deepEqual(await refusal({ payer: "split" }), [
      "parameter_invalid",
      "buyerSharePercent",
      "Enter the share of the fee the buyer pays, such as 50 %.",
    ]);
    assert.deepEqual(await refusal({ payer: "split", buyerSharePercent: "0" }), [
      "parameter_invalid",
      "buyerSharePercent",
      "The buyer's share is at least 0.01 %; for none, choose that you pay.",
    ]);
    assert.deepEqual(await refusal({ payer: "split", buyerSharePercent: "100" }), [
      "parameter_invalid",
      "buyerSharePercent",
      "The buyer's share is at most 99.99 %; for all of it, choose that the buyer pays.",
    ]);
    assert.deepEqual((await refusal({ payer: "split", buyerSharePercent: "12.345" })).slice(0, 2), [
      "parameter_invalid",
      "buyerSharePercent",
    ]);
    assert.deepEqual((await refusal({ payer: "shop" })).slice(0, 2), ["parameter_invalid", "payer"]);

    // 12.5 % is 1,250 bps; the audit entry names the change. Another payer drops the share.
    assert.deepEqual([(await update({ payer: "split", buyerSharePercent: "12.5" })).buyerShareBps], [1_250]);
    const audit = await t.database.db.get<{ detail: string }>(
      "SELECT detail FROM merchant_audit_log WHERE merchant_id = ? AND action = 'program.updated' ORDER BY created_at DESC, id DESC",
      [merchant.merchantId],
    );
    assert.deepEqual((({ payer, buyerShareBps }) => ({ payer, buyerShareBps }))(JSON.parse(audit!.detail)), {
      payer: "split",
      buyerShareBps: 1_250,
    });
    // Terms saved without a payer (a form that has none) leave the payer and its share as they are.
    const unchanged = await update({});
    assert.deepEqual([unchanged.payer, unchanged.buyerShareBps], ["split", 1_250]);
    const merchantPaid = await update({ payer: "merchant", buyerSharePercent: "12.5" });
    assert.deepEqual([merchantPaid.payer, merchantPaid.buyerShareBps], ["merchant", null]);
    const row = await t.database.db.get<{ payer: string; buyer_share_bps: number | null }>(
      "SELECT payer, buyer_share_bps FROM protection_programs WHERE id = ?",
      [merchant.programId],
    );
    assert.deepEqual({ ...row }, { payer: "merchant", buyer_share_bps: null });
  });

  it("going live makes the live program with the payer the merchant tried in test mode", async () => {
    const merchant = await merchantPaying("split", 2_500);
    const source = { ...actorOf(merchant), actor: { id: "mem_owner", email: "owner@example.com" }, ip: "127.0.0.1" };
    const { liveProgramId } = await t.database.db.transaction(async (tx) => {
      // Live already (as a merchant live before its live program was made): going live makes the program only.
      await markMerchantLive(tx, merchant.merchantId, t.services.clock());
      return goLive(tx, t.services, source, { confirmationEmail: "yes" });
    });
    const live = await t.database.db.get<{ mode: string; payer: string; buyer_share_bps: number | null }>(
      "SELECT mode, payer, buyer_share_bps FROM protection_programs WHERE id = ?",
      [liveProgramId],
    );
    assert.deepEqual({ ...live }, { mode: "live", payer: "split", buyer_share_bps: 2_500 });
  });
});
