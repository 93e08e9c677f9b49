// docs/api.md "Money, currencies, time" and "Programs": on other carts than Shopify the quote's currency is the plan's
// and every amount after it is in that currency's minor units (JPY none, KWD three): the fee priced under that
// currency's own minimum and maximum, the plan, the claim and its payout, the free look's refund, the ledger and the
// statement of that currency, and the buyer e-mails written with the currency's digits. Through the real HTTP API on
// SQLite and PostgreSQL, one merchant per currency; every figure is written by hand, derived beside it.
import { it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { describeEachDialectInOrder } from "../support/dialect-suites.ts";
import type { TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { protectOrderHeadless } from "../support/protection-flows.ts";
import { signIn } from "../support/portal.ts";
import { startMailingApi, type TestSmtpServer } from "../email/smtp-server.ts";
import { approveClaim } from "../../server/domain/claim-decisions.ts";
import { updateProgram } from "../../server/domain/programs.ts";
import { DomainError } from "../../server/domain/errors.ts";
import { closeEndedPeriods, SETTLEMENT_GRACE_MS } from "../../server/domain/settlements.ts";
import type { NewMerchant } from "../../server/domain/merchants.ts";

const STAFF = { kind: "staff", staffId: "stf_currencies" } as const;

// Every merchant's default program: 3 % of the covered amount (rateBps 300), the merchant's share 20 %, and the
// limits a new program starts with in each currency (server/domain/programs.ts DEFAULT_CURRENCY_LIMITS).
const CASES = [
  // $123.45 × 3 % = 370.35 → 370 cents; share 20 % of 370 = 74.
  {
    currency: "USD",
    order: 12_345,
    covered: 12_345,
    fee: 370,
    share: 74,
    claim: 4_250,
    feeText: "$3.70",
    claimText: "$42.50",
  },
  // €20.00 × 3 % = 60 cents, under the euro's minimum of €1.00 → 100; share 20.
  {
    currency: "EUR",
    order: 2_000,
    covered: 2_000,
    fee: 100,
    share: 20,
    claim: 1_999,
    feeText: "€1.00",
    claimText: "€19.99",
  },
  // £10,000.00 is covered up to £5,000.00: 500,000 × 3 % = 15,000 pence; share 3,000.
  {
    currency: "GBP",
    order: 1_000_000,
    covered: 500_000,
    fee: 15_000,
    share: 3_000,
    claim: 250_000,
    feeText: "£150.00",
    claimText: "£2,500.00",
  },
  // ¥12,345 × 3 % = ¥370.35 → ¥370 (the yen has no minor unit); share ¥74.
  {
    currency: "JPY",
    order: 12_345,
    covered: 12_345,
    fee: 370,
    share: 74,
    claim: 4_250,
    feeText: "¥370",
    claimText: "¥4,250",
  },
  // KWD 12.345 (12,345 fils) × 3 % = 370.35 → 370 fils, KWD 0.370; share 74 fils.
  {
    currency: "KWD",
    order: 12_345,
    covered: 12_345,
    fee: 370,
    share: 74,
    claim: 4_250,
    feeText: "KWD 0.370",
    claimText: "KWD 4.250",
  },
] as const;

describeEachDialectInOrder("every amount in the quote's currency (%s)", (dialect) => {
  let smtp: TestSmtpServer;
  let t: TestApi;
  beforeAll(async () => ({ smtp, t } = await startMailingApi(dialect)));
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const merchants = new Map<string, NewMerchant>();
  async function drain() {
    while ((await t.api.email!.runOnce()) > 0);
  }
  /** The text part of the one e-mail with this Subject. */
  function textOf(subject: string): string {
    const found = smtp.received.filter((message) => message.mail.subject === subject);
    assert.equal(found.length, 1, `one e-mail "${subject}", got ${found.length}`);
    return found[0].mail.text!.replace(/\s/g, " ");
  }

  it.each(CASES)(
    "$currency: quote, confirm, claim, payout, free look and ledger, every amount in its minor units",
    async (row) => {
      const merchant = await t.createMerchant(`${row.currency} Store`);
      merchants.set(row.currency, merchant);
      const secret = apiClient(t.baseUrl, merchant.secretKey);
      const email = `buyer-${row.currency.toLowerCase()}@example.test`;
      const order = { order_amount_cents: row.order, currency: row.currency, customer_email: email };

      // Quote and confirm: the fee and cover of this currency's limits.
      const kept = await protectOrderHeadless(secret, merchant.programId, order);
      assert.deepEqual(
        [kept.quote.currency, kept.quote.fee_cents, kept.quote.covered_amount_cents, kept.quote.buyer_fee_cents],
        [row.currency, row.fee, row.covered, row.fee],
      );
      const planId = kept.confirmation.plan_id as string;
      const purchase = (await secret.get(`/purchases/${planId}`)).body;
      assert.deepEqual(
        [purchase.currency, purchase.feeCents, purchase.coveredAmountCents],
        [row.currency, row.fee, row.covered],
      );

      // A claim in the plan's currency, approved and paid by the merchant.
      const buyer = await signIn(t, { email, referenceNumber: kept.confirmation.reference_number as string });
      assert.equal(buyer.session.plan.currency, row.currency);
      const filed = await buyer.buyer.post("/portal/claims", {
        referenceNumber: kept.confirmation.reference_number,
        reason: "lost_in_transit",
        occurredAt: new Date(t.clock.now).toISOString(),
        description: "Never came.",
        amountCents: row.claim,
      });
      assert.equal(filed.status, 200, filed.text);
      const actor = { merchantId: merchant.merchantId, mode: "test" as const };
      await t.database.db.transaction((tx) => approveClaim(tx, t.services, actor, filed.body.id, STAFF, {}));
      const paid = await secret.post(`/merchant/claims/${filed.body.id}/resolution`, {
        kind: "refund",
        reference: `re_${row.currency}`,
      });
      assert.equal(paid.status, 200, paid.text);
      const claim = (await buyer.buyer.get(`/portal/claims/${filed.body.id}`)).body;
      assert.deepEqual(
        [claim.payout.status, claim.payout.amountCents, claim.payout.currency],
        ["paid", row.claim, row.currency],
      );

      // A second plan cancelled within the free look: its whole fee back, in the currency.
      const cancelled = await protectOrderHeadless(secret, merchant.programId, order);
      const second = await signIn(t, { email, referenceNumber: cancelled.confirmation.reference_number as string });
      const cancel = await second.buyer.post("/portal/cancel", {
        referenceNumber: cancelled.confirmation.reference_number,
      });
      assert.equal(cancel.status, 200, cancel.text);
      const feeRefund = (await secret.get(`/purchases/${cancelled.confirmation.plan_id}`)).body.feeRefund;
      assert.deepEqual([feeRefund.amountCents, feeRefund.currency], [row.fee, row.currency]);

      // The ledger: every entry in the currency, each amount exact.
      const ledger = await t.database.db.all<{ kind: string; amount_cents: number | string; currency: string }>(
        "SELECT kind, amount_cents, currency FROM ledger_entries WHERE merchant_id = ? ORDER BY kind, amount_cents",
        [merchant.merchantId],
      );
      assert.deepEqual(
        ledger.map((entry) => `${entry.kind} ${Number(entry.amount_cents)} ${entry.currency}`),
        [
          `claim_reimbursement ${row.claim} ${row.currency}`,
          `correction -${row.share} ${row.currency}`,
          `fee_collected -${row.fee} ${row.currency}`,
          `fee_collected -${row.fee} ${row.currency}`,
          `fee_refunded ${row.fee} ${row.currency}`,
          `merchant_fee_share ${row.share} ${row.currency}`,
          `merchant_fee_share ${row.share} ${row.currency}`,
        ],
      );

      // The buyer's e-mails write the amounts with the currency's own digits.
      await drain();
      const refundMail = textOf(`Your refund has been paid: ${kept.confirmation.reference_number}`);
      assert.ok(refundMail.includes(`Your refund of ${row.claimText} `), refundMail);
      const cancelMail = textOf(`Your purchase protection is cancelled: ${cancelled.confirmation.reference_number}`);
      assert.ok(cancelMail.includes(`The protection fee of ${row.feeText} is refunded in full.`), cancelMail);
    },
  );

  it("each merchant's week closes in one statement of its currency, its totals exact", async () => {
    t.clock.now = Date.parse("2026-11-23T00:00:00.000Z") + SETTLEMENT_GRACE_MS;
    await closeEndedPeriods(t.database.db, t.services);
    for (const row of CASES) {
      const secret = apiClient(t.baseUrl, merchants.get(row.currency)!.secretKey);
      const statements = (await secret.get("/settlements")).body.data;
      assert.deepEqual(
        statements.map((statement: { currency: string }) => statement.currency),
        [row.currency],
      );
      const [statement] = statements;
      // Fees −fee −fee, refunded +fee, shares +share +share, the share taken back −share, the claim +claim:
      // net −fee + share + claim.
      assert.deepEqual(
        [statement.totals.fee_collected, statement.totals.fee_refunded, statement.totals.merchant_fee_share],
        [-2 * row.fee, row.fee, 2 * row.share],
      );
      assert.equal(statement.totals.claim_reimbursement, row.claim);
      assert.equal(statement.netCents, -row.fee + row.share + row.claim);
      assert.equal(statement.entryCount, 7);
    }
  });

  it("a program's currencies and its limits must agree: a currency without limits, or limits without their currency, change nothing", async () => {
    const merchant = await t.createMerchant("Limits Store");
    const secret = apiClient(t.baseUrl, merchant.secretKey);
    const source = {
      merchantId: merchant.merchantId,
      mode: "test" as const,
      actor: { id: "mem_1", email: "owner@example.test" },
      ip: "127.0.0.1",
    };
    const terms = {
      ratePercent: 3,
      productCategories: "",
      claimRules: {},
      settlementPeriod: "weekly",
      currencies: ["USD", "KWD"],
      currencyLimits: { USD: { minFeeCents: 100, maxCoveredCents: 500_000 } },
    };
    const before = (await secret.get(`/programs/${merchant.programId}`)).body;
    const refusal = async (input: unknown) => {
      try {
        await t.database.db.transaction((tx) => updateProgram(tx, t.services, source, input));
      } catch (error) {
        assert.ok(error instanceof DomainError);
        return [error.code, error.field, error.message];
      }
      assert.fail("accepted");
    };
    assert.deepEqual(await refusal(terms), [
      "parameter_invalid",
      "currencyLimits.KWD",
      "Enter the minimum fee and the maximum covered amount in KWD, the program offers protection in it.",
    ]);
    assert.deepEqual(
      await refusal({
        ...terms,
        currencies: ["USD"],
        currencyLimits: { ...terms.currencyLimits, JPY: { minFeeCents: 150, maxCoveredCents: 750_000 } },
      }),
      [
        "parameter_invalid",
        "currencyLimits.JPY",
        "The program does not offer protection in JPY: choose JPY among its currencies or leave out its limits.",
      ],
    );
    assert.deepEqual(
      await refusal({
        ...terms,
        currencyLimits: { ...terms.currencyLimits, KWD: { minFeeCents: 1.5, maxCoveredCents: 1 } },
      }),
      [
        "parameter_invalid",
        "currencyLimits.KWD.minFeeCents",
        "The minimum fee is a whole number of the currency's minor units.",
      ],
    );
    assert.deepEqual((await secret.get(`/programs/${merchant.programId}`)).body, before, "nothing changed");

    // Agreeing terms are saved in the currencies' order, and quotes price under them at once.
    await t.database.db.transaction((tx) =>
      updateProgram(tx, t.services, source, {
        ...terms,
        currencyLimits: { KWD: { minFeeCents: 500, maxCoveredCents: 2_000_000 }, ...terms.currencyLimits },
      }),
    );
    const saved = (await secret.get(`/programs/${merchant.programId}`)).body;
    assert.deepEqual(saved.currencies, ["USD", "KWD"]);
    assert.deepEqual(Object.keys(saved.currencyLimits), ["USD", "KWD"]);
    // KWD 12.345 × 3 % = 370 fils, under the new minimum of KWD 0.500.
    const { quote } = await protectOrderHeadless(secret, merchant.programId, {
      order_amount_cents: 12_345,
      currency: "KWD",
    });
    assert.equal(quote.fee_cents, 500);
    const jpy = await secret.post("/headless/quote", {
      order_amount_cents: 12_345,
      currency: "JPY",
      order_id: "order-jpy",
      protection_program_id: merchant.programId,
    });
    assert.deepEqual([jpy.status, jpy.body.error.code], [400, "currency_unsupported"]);
  });
});
