// The analytics of GET /merchants/{id}/metrics and its CSV (docs/api.md "Analytics"), on SQLite and PostgreSQL: every
// figure against a small data set whose numbers are worked out by hand below, the weekly series, the previous period,
// the claims by reason, the default period, and bad parameters answered 400 in the documented shape.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { assertError, createQuote } from "../support/api-assertions.ts";
import { protectOrder, protectOrderHeadless, type ApiClient } from "../support/protection-flows.ts";
import type { NewMerchant } from "../../server/domain/merchants.ts";
import { submitClaim } from "../../server/domain/claims.ts";
import { createProgram, DEFAULT_PROGRAM } from "../../server/domain/programs.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** 00:00 UTC of a day, plus hours. Years after the test clock, so nothing else the suite does falls in. */
const at = (day: string, hours = 0) => Date.parse(`${day}T00:00:00.000Z`) + hours * HOUR;

/** A bucket or period without any activity: every count 0, every ratio without a denominator. */
const NOTHING = {
  offersShown: 0,
  confirmed: 0,
  declined: 0,
  abandoned: 0,
  attachRateByOrders: null,
  offeredValueCents: 0,
  protectedOrderValueCents: 0,
  attachRateByValue: null,
  feeCents: 0,
  buyerFeeCents: 0,
  merchantFeeCents: 0,
  merchantShareCents: 0,
  claimsFiled: 0,
  claimRate: null,
  claimsDecided: 0,
  claimsApproved: 0,
  approvalRate: null,
  paidCents: 0,
  lossRatio: null,
};

describe.each(DIALECTS)("merchant analytics (%s)", (dialect) => {
  let t: TestApi;
  let m: NewMerchant;
  let secret: ApiClient;
  const metrics = (params: string) => secret.get(`/merchants/${m.merchantId}/metrics${params}`);

  /** Moves a quote (and its plan, if any) to `createdAt`. */
  async function quotedAt(quoteId: string, createdAt: number) {
    await t.database.db.run("UPDATE quotes SET created_at = ? WHERE id = ?", [createdAt, quoteId]);
    await t.database.db.run("UPDATE plans SET created_at = ? WHERE quote_id = ?", [createdAt, quoteId]);
  }

  /** A protected order of `amount` in `currency`, quoted and confirmed at `createdAt`. */
  async function protectedAt(createdAt: number, amount: number, currency = "USD") {
    const bought = await protectOrder(secret, m.programId, { order_amount_cents: amount, currency });
    await quotedAt(bought.quote.quoteId, createdAt);
    return bought.confirmation as { planId: string; referenceNumber: string };
  }

  /**
   * A claim on the plan, filed at `filedAt`, then as `outcome` says: the columns a decision and a payment write
   * (server/store/claims.ts recordClaimDecision, recordClaimResolution), at the times the case needs.
   */
  async function claimed(
    plan: { referenceNumber: string },
    reason: string,
    filedAt: number,
    outcome:
      | { status: "submitted" }
      | { status: "approved" | "denied"; decidedAt: number }
      | {
          status: "paid";
          decidedAt: number;
          paidAt: number;
          paidCents: number;
        },
  ) {
    await t.database.db.transaction(async (q) => {
      const claim = await submitClaim(
        q,
        t.services,
        { merchantId: m.merchantId, mode: "test" },
        {
          referenceNumber: plan.referenceNumber,
          reason,
        },
      );
      const decidedAt = "decidedAt" in outcome ? outcome.decidedAt : null;
      const paid = outcome.status === "paid" ? outcome : { paidAt: null, paidCents: 0 };
      await q.run(
        `UPDATE claims SET created_at = ?, status = ?, decided_at = ?, decided_by = ?, resolved_at = ?,
           paid_amount_cents = ?, open_slot = CASE WHEN ? IN ('paid', 'denied') THEN NULL ELSE open_slot END WHERE id = ?`,
        [
          filedAt,
          outcome.status,
          decidedAt,
          decidedAt === null ? null : "staff:stf_analytics",
          paid.paidAt,
          paid.paidCents,
          outcome.status,
          claim.id,
        ],
      );
    });
  }

  beforeAll(async () => {
    t = await startTestApi({ dialect });
    m = await t.createMerchant("Analytics Store");
    secret = apiClient(t.baseUrl, m.secretKey);
    // The program's fee: 3 % of the order, at least 100; the merchant's share: 20 % of it, per plan.
    // Period 2031-03-01..2031-03-14 (Saturday to Friday); the previous period 2031-02-15..2031-02-28.
    const q1 = await protectedAt(at("2031-03-01", 10), 10_000); // fee 300, share 60
    const q2 = await protectedAt(at("2031-03-03", 9), 20_000); // fee 600, then voided: no fee
    assert.equal((await secret.post("/offers/void", { planId: q2.planId })).status, 200);
    const { quote: q3 } = await createQuote(secret, m.programId, { order_amount_cents: 5_000 });
    assert.equal((await secret.post("/offers/decline", { quoteId: q3.quoteId })).status, 200);
    await quotedAt(q3.quoteId, at("2031-03-03", 10)); // declined
    const { quote: q4 } = await createQuote(secret, m.programId, { order_amount_cents: 15_000 });
    await quotedAt(q4.quoteId, at("2031-03-09", 23)); // abandoned: never answered
    const q5 = await protectedAt(at("2031-03-10", 8), 1_000); // fee 100 (the minimum), share 20
    const q6 = await protectedAt(at("2031-03-12"), 5_000, "EUR"); // fee 150, share 30
    // The previous period: one protected order, one abandoned offer.
    const q7 = await protectedAt(at("2031-02-20"), 8_000); // fee 240, share 48
    const { quote: q8 } = await createQuote(secret, m.programId, { order_amount_cents: 2_000 });
    await quotedAt(q8.quoteId, at("2031-02-20", 1));

    // C1: filed 03-02, approved 03-04 (2 days), paid 8,000 on 03-05.
    await claimed(q1, "damaged_in_transit", at("2031-03-02"), {
      status: "paid",
      decidedAt: at("2031-03-04"),
      paidAt: at("2031-03-05"),
      paidCents: 8_000,
    });
    // C2: filed 03-10 12:00, denied 03-11 00:00 (half a day).
    await claimed(q5, "arrived_defective", at("2031-03-10", 12), { status: "denied", decidedAt: at("2031-03-11") });
    // C3: EUR, filed 03-13, undecided.
    await claimed(q6, "arrived_defective", at("2031-03-13"), { status: "submitted" });
    // C4: filed in the previous period (02-21), approved in this one (03-02: 9 days later, February having 28).
    await claimed(q7, "damaged_in_transit", at("2031-02-21"), { status: "approved", decidedAt: at("2031-03-02") });
  });
  afterAll(() => t?.close());

  it("counts every figure per currency for the period, the previous period and each ISO week", async () => {
    const response = await metrics("?from=2031-03-01&to=2031-03-14&interval=week");
    assert.equal(response.status, 200, response.text);
    const { analytics } = response.body;
    assert.deepEqual(analytics.period, { from: "2031-03-01T00:00:00.000Z", to: "2031-03-15T00:00:00.000Z" });
    assert.deepEqual(analytics.previousPeriod, { from: "2031-02-15T00:00:00.000Z", to: "2031-03-01T00:00:00.000Z" });
    assert.equal(analytics.interval, "week");
    assert.deepEqual(
      analytics.currencies.map((c: { currency: string }) => c.currency),
      ["EUR", "USD"],
    );
    const [eur, usd] = analytics.currencies;

    // USD offers: q1, q2, q5 confirmed, q3 declined, q4 abandoned (in the denominator): 3 / 5.
    // Value: shown 10,000 + 20,000 + 5,000 + 15,000 + 1,000 = 51,000; confirmed 10,000 + 20,000 + 1,000 = 31,000.
    // Fees of the active plans: q1 300 + q5 100 = 400 (q2 voided), all paid by buyers; shares 60 + 20 = 80.
    // Claims filed: C1, C2 = 2 of 3 protected orders. Decided in the period: C1 (paid), C2 (denied), C4 (approved):
    // approved 2 of 3. Paid: 8,000, over 400 of fees: a loss ratio of 20. Median decision: of 0.5, 2 and 9 days, 2.
    assert.deepEqual(usd.current, {
      offersShown: 5,
      confirmed: 3,
      declined: 1,
      abandoned: 1,
      attachRateByOrders: 3 / 5,
      offeredValueCents: 51_000,
      protectedOrderValueCents: 31_000,
      attachRateByValue: 31_000 / 51_000,
      feeCents: 400,
      buyerFeeCents: 400,
      merchantFeeCents: 0,
      merchantShareCents: 80,
      claimsFiled: 2,
      claimRate: 2 / 3,
      claimsDecided: 3,
      claimsApproved: 2,
      approvalRate: 2 / 3,
      paidCents: 8_000,
      lossRatio: 20,
      medianDecisionMs: 2 * DAY,
    });
    // USD before: q7 confirmed, q8 abandoned: 1 / 2; value 8,000 of 10,000; fee 240, share 48; C4 filed (1 of 1),
    // decided only in the current period.
    assert.deepEqual(usd.previous, {
      ...NOTHING,
      offersShown: 2,
      confirmed: 1,
      abandoned: 1,
      attachRateByOrders: 1 / 2,
      offeredValueCents: 10_000,
      protectedOrderValueCents: 8_000,
      attachRateByValue: 8_000 / 10_000,
      feeCents: 240,
      buyerFeeCents: 240,
      merchantFeeCents: 0,
      merchantShareCents: 48,
      claimsFiled: 1,
      claimRate: 1,
      lossRatio: 0,
      medianDecisionMs: null,
    });
    // Weeks from Monday: 02-24 (holds 03-01 and 03-02), 03-03, 03-10 (to 03-14).
    assert.deepEqual(usd.series, [
      // q1; C1 filed 03-02; C4 approved 03-02.
      {
        start: "2031-02-24",
        ...NOTHING,
        offersShown: 1,
        confirmed: 1,
        attachRateByOrders: 1,
        offeredValueCents: 10_000,
        protectedOrderValueCents: 10_000,
        attachRateByValue: 1,
        feeCents: 300,
        buyerFeeCents: 300,
        merchantFeeCents: 0,
        merchantShareCents: 60,
        claimsFiled: 1,
        claimRate: 1,
        claimsDecided: 1,
        claimsApproved: 1,
        approvalRate: 1,
        lossRatio: 0,
      },
      // q2 (voided: no fee), q3 declined, q4 abandoned: 1 / 3, 20,000 of 40,000; C1 approved 03-04, paid 03-05.
      {
        start: "2031-03-03",
        ...NOTHING,
        offersShown: 3,
        confirmed: 1,
        declined: 1,
        abandoned: 1,
        attachRateByOrders: 1 / 3,
        offeredValueCents: 40_000,
        protectedOrderValueCents: 20_000,
        attachRateByValue: 0.5,
        claimRate: 0,
        claimsDecided: 1,
        claimsApproved: 1,
        approvalRate: 1,
        paidCents: 8_000,
      },
      // q5; C2 filed 03-10, denied 03-11.
      {
        start: "2031-03-10",
        ...NOTHING,
        offersShown: 1,
        confirmed: 1,
        attachRateByOrders: 1,
        offeredValueCents: 1_000,
        protectedOrderValueCents: 1_000,
        attachRateByValue: 1,
        feeCents: 100,
        buyerFeeCents: 100,
        merchantFeeCents: 0,
        merchantShareCents: 20,
        claimsFiled: 1,
        claimRate: 1,
        claimsDecided: 1,
        approvalRate: 0,
        lossRatio: 0,
      },
    ]);

    // EUR: q6 only, and C3 on it (undecided); nothing before.
    const q6 = {
      ...NOTHING,
      offersShown: 1,
      confirmed: 1,
      attachRateByOrders: 1,
      offeredValueCents: 5_000,
      protectedOrderValueCents: 5_000,
      attachRateByValue: 1,
      feeCents: 150,
      buyerFeeCents: 150,
      merchantFeeCents: 0,
      merchantShareCents: 30,
      claimsFiled: 1,
      claimRate: 1,
      lossRatio: 0,
    };
    assert.deepEqual(eur.current, { ...q6, medianDecisionMs: null });
    assert.deepEqual(eur.previous, { ...NOTHING, medianDecisionMs: null });
    assert.deepEqual(eur.series, [
      { start: "2031-02-24", ...NOTHING },
      { start: "2031-03-03", ...NOTHING },
      { start: "2031-03-10", ...q6 },
    ]);

    // Filed now: C2, C3 arrived_defective, C1 damaged_in_transit; before: C4 damaged_in_transit.
    assert.deepEqual(analytics.claimsByReason, [
      { reason: "arrived_defective", count: 2, previousCount: 0 },
      { reason: "damaged_in_transit", count: 1, previousCount: 1 },
    ]);
    // The report's own fields keep the same window: the 6 offers of the period, the q1 and q5 and q6 fees.
    assert.equal(response.body.quotes.total, 6);
  });

  it("fees are split into what buyers paid (revenue) and what the merchant paid (cost); the merchant's share is of what buyers paid, as the ledger credits it", async () => {
    // docs/api.md "Who pays": 3 % fees, the merchant's share 20 %. A split program where the buyer pays 33.33 %:
    // an order of 10,000 costs 300, the buyer pays 300 × 33.33 % = 99.99 → 100, so the share is 20 % of 100 = 20 (not
    // 60, 20 % of the whole fee). A merchant-paid program: an order of 20,000 costs 600 and earns no share.
    const payers = await t.createMerchant("Who pays analytics");
    const client = apiClient(t.baseUrl, payers.secretKey);
    const actor = { merchantId: payers.merchantId, mode: "test" as const };
    const programOf = (payer: "merchant" | "split", buyerShareBps: number | null) =>
      t.database.db.transaction((tx) =>
        createProgram(tx, t.services, actor, { ...DEFAULT_PROGRAM, payer, buyerShareBps }),
      );
    const plans = [
      await protectOrderHeadless(client, await programOf("split", 3_333), { order_amount_cents: 10_000 }),
      await protectOrderHeadless(client, await programOf("merchant", null), { order_amount_cents: 20_000 }),
    ];
    for (const { quote, confirmation } of plans) {
      await t.database.db.run("UPDATE quotes SET created_at = ? WHERE id = ?", [at("2031-05-04", 9), quote.quote_id]);
      await t.database.db.run("UPDATE plans SET created_at = ? WHERE id = ?", [
        at("2031-05-04", 9),
        confirmation.plan_id,
      ]);
    }
    const ledgerShare = await t.database.db.get<{ share: number | string }>(
      `SELECT SUM(amount_cents) AS share FROM ledger_entries WHERE kind = 'merchant_fee_share' AND plan_id IN (?, ?)`,
      plans.map(({ confirmation }) => confirmation.plan_id),
    );
    assert.equal(Number(ledgerShare!.share), 20, "the ledger's merchant_fee_share");

    const response = await client.get(`/merchants/${payers.merchantId}/metrics?from=2031-05-01&to=2031-05-31`);
    assert.equal(response.status, 200, response.text);
    const [usd] = response.body.analytics.currencies;
    // Fees 300 + 600 = 900: buyers paid 100 (the revenue), the merchant 200 + 600 = 800 (its cost).
    const fees = ({ feeCents, buyerFeeCents, merchantFeeCents, merchantShareCents }: Record<string, number>) => [
      feeCents,
      buyerFeeCents,
      merchantFeeCents,
      merchantShareCents,
    ];
    assert.deepEqual(fees(usd.current), [900, 100, 800, 20]);
    assert.deepEqual(usd.series.filter((bucket: { feeCents: number }) => bucket.feeCents > 0).map(fees), [
      [900, 100, 800, 20],
    ]);
    // The report's fees per currency say the same.
    assert.deepEqual(response.body.fees, [
      { currency: "USD", feeCents: 900, buyerFeeCents: 100, merchantFeeCents: 800, merchantShareCents: 20 },
    ]);
    // And the CSV, by month: May 2031 holds both plans.
    const csv = await t.fetch(
      `${t.baseUrl}/merchants/${payers.merchantId}/metrics.csv?from=2031-05-01&to=2031-05-31&interval=month`,
      { headers: { Authorization: `Bearer ${payers.secretKey}` } },
    );
    const [header, may] = (await csv.text()).split("\r\n").map((line) => line.split(","));
    const column = (name: string) => Number(may[header.indexOf(name)]);
    assert.deepEqual(
      ["fee_cents", "buyer_fee_cents", "merchant_fee_cents", "merchant_share_cents"].map(column),
      [900, 100, 800, 20],
    );
  });

  it("a series by day has every day of the period, and by month the months it touches", async () => {
    const byDay = (await metrics("?from=2031-03-01&to=2031-03-14")).body.analytics;
    assert.equal(byDay.interval, "day");
    const usdDays = byDay.currencies[1].series;
    assert.equal(usdDays.length, 14);
    assert.deepEqual(
      usdDays.filter((d: { offersShown: number }) => d.offersShown > 0).map((d: { start: string }) => d.start),
      ["2031-03-01", "2031-03-03", "2031-03-09", "2031-03-10"],
    );
    const byMonth = (await metrics("?from=2031-02-20&to=2031-03-14&interval=month")).body.analytics;
    const usdMonths = byMonth.currencies[1].series;
    assert.deepEqual(
      usdMonths.map((b: { start: string; offersShown: number }) => [b.start, b.offersShown]),
      // February from the 20th: q7, q8; March to the 14th: q1–q5.
      [
        ["2031-02-01", 2],
        ["2031-03-01", 5],
      ],
    );
  });

  it("exports the series as CSV, one row per currency and bucket", async () => {
    const csv = await t.fetch(
      `${t.baseUrl}/merchants/${m.merchantId}/metrics.csv?from=2031-03-01&to=2031-03-14&interval=week`,
      { headers: { Authorization: `Bearer ${m.secretKey}` } },
    );
    assert.equal(csv.status, 200);
    assert.equal(csv.headers.get("content-type"), "text/csv; charset=utf-8");
    assert.match(csv.headers.get("content-disposition")!, /attachment; filename=".*2031-03-01-2031-03-15-week\.csv"/);
    const lines = (await csv.text()).split("\r\n");
    assert.deepEqual(lines, [
      "period_start,currency,offers_shown,confirmed,declined,abandoned,attach_rate_by_orders,offered_value_cents,protected_order_value_cents,attach_rate_by_value,fee_cents,buyer_fee_cents,merchant_fee_cents,merchant_share_cents,claims_filed,claim_rate,claims_decided,claims_approved,approval_rate,paid_cents,loss_ratio",
      "2031-02-24,EUR,0,0,0,0,,0,0,,0,0,0,0,0,,0,0,,0,",
      "2031-03-03,EUR,0,0,0,0,,0,0,,0,0,0,0,0,,0,0,,0,",
      "2031-03-10,EUR,1,1,0,0,1,5000,5000,1,150,150,0,30,1,1,0,0,,0,0",
      "2031-02-24,USD,1,1,0,0,1,10000,10000,1,300,300,0,60,1,1,1,1,1,0,0",
      `2031-03-03,USD,3,1,1,1,${1 / 3},40000,20000,0.5,0,0,0,0,0,0,1,1,1,8000,`,
      "2031-03-10,USD,1,1,0,0,1,1000,1000,1,100,100,0,20,1,1,1,0,0,0,0",
      "",
    ]);
  });

  it("without from and to: the last 30 UTC days, today included, against the 30 before; with one, 30 days", async () => {
    const today = Math.floor(t.clock.now / DAY) * DAY;
    const { analytics, period } = (await metrics("")).body;
    assert.deepEqual(period, { from: null, to: null }, "the report's own fields still cover everything");
    assert.deepEqual(analytics.period, {
      from: new Date(today - 29 * DAY).toISOString(),
      to: new Date(today + DAY).toISOString(),
    });
    assert.deepEqual(analytics.previousPeriod, {
      from: new Date(today - 59 * DAY).toISOString(),
      to: new Date(today - 29 * DAY).toISOString(),
    });
    assert.equal(analytics.currencies.length, 0, "the data set lies years ahead");
    // One end given: the other is 30 days away.
    assert.deepEqual((await metrics("?from=2031-03-01")).body.analytics.period, {
      from: "2031-03-01T00:00:00.000Z",
      to: "2031-03-31T00:00:00.000Z",
    });
    assert.deepEqual((await metrics("?to=2031-03-14")).body.analytics.period, {
      from: "2031-02-13T00:00:00.000Z",
      to: "2031-03-15T00:00:00.000Z",
    });
  });

  it("bad parameters are 400 in the documented shape", async () => {
    const cases: [string, string, string][] = [
      ["?interval=year", "interval", "parameter_invalid"],
      ["?from=2031-02-30", "from", "parameter_invalid"],
      ["?from=yesterday", "from", "parameter_invalid"],
      ["?from=2031-03-14&to=2031-03-01", "to", "parameter_invalid"],
      ["?from=2029-01-01&to=2031-01-02", "to", "parameter_invalid"], // 732 days: one past the longest period

      ["?compare=previous", "compare", "parameter_unknown"],
    ];
    assert.equal((await metrics("?from=2029-01-01&to=2031-01-01")).status, 200, "731 days");
    for (const [params, param, code] of cases) {
      assertError(await metrics(params), { status: 400, code, param });
      const csv = await secret.get(`/merchants/${m.merchantId}/metrics.csv${params}`);
      assertError(csv, { status: 400, code, param });
    }
  });
});
