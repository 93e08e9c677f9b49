// Offer experiments in the analytics of GET /merchants/{id}/metrics (docs/api.md "Offer experiments"), on SQLite and
// PostgreSQL: each variant's offers, confirmations, attach rate with its 95 % Wilson interval, and fees per currency
// against a small data set worked out by hand below; quotes through both the page's and the server's routes follow
// the cart's variant; an experiment that ended before the period is not listed.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { assertError, createQuote } from "../support/api-assertions.ts";
import { protectOrder, protectOrderHeadless, type ApiClient } from "../support/protection-flows.ts";
import type { NewMerchant } from "../../server/domain/merchants.ts";
import { assignVariant, startExperiment, stopExperiment, type Experiment } from "../../server/domain/experiments.ts";

const at = (day: string, hours = 0) => Date.parse(`${day}T00:00:00.000Z`) + hours * 3_600_000;
const close = (actual: number, expected: number) =>
  assert.ok(Math.abs(actual - expected) < 5e-5, `${actual} is not ${expected}`);

describe.each(DIALECTS)("offer experiments in the analytics (%s)", (dialect) => {
  let t: TestApi;
  let m: NewMerchant;
  let secret: ApiClient;
  let widget: ApiClient;
  let experiment: Experiment;
  let old: Experiment;
  const source = () => ({
    merchantId: m.merchantId,
    mode: "test" as const,
    actor: { id: "mem_owner", email: "owner@example.com" },
    ip: "127.0.0.1",
  });
  /** Carts of `variant`, found by the assignment itself (its spread is tested in server/domain/experiments.test.ts). */
  function cartsOf(variant: string, count: number): string[] {
    const carts: string[] = [];
    for (let i = 0; carts.length < count; i++)
      if (assignVariant(experiment.id, `cart-${i}`, ["A", "B"]) === variant) carts.push(`cart-${i}`);
    return carts;
  }
  const movedTo = async (quoteId: string, createdAt: number) => {
    await t.database.db.run("UPDATE quotes SET created_at = ? WHERE id = ?", [createdAt, quoteId]);
    await t.database.db.run("UPDATE plans SET created_at = ? WHERE quote_id = ?", [createdAt, quoteId]);
  };

  beforeAll(async () => {
    t = await startTestApi({ dialect });
    m = await t.createMerchant("Experiment Analytics Store");
    secret = apiClient(t.baseUrl, m.secretKey);
    widget = apiClient(t.baseUrl, m.publishableKey);
    // An experiment that ran and stopped in April: outside the period, not listed.
    old = await t.database.db.transaction((tx) =>
      startExperiment(tx, t.services, source(), {
        variants: [{ control: true }, { control: false, ratePercent: 2, offerWording: "standard" }],
      }),
    );
    await t.database.db.transaction((tx) => stopExperiment(tx, t.services, source(), old.id));
    await t.database.db.run("UPDATE offer_experiments SET started_at = ?, stopped_at = ? WHERE id = ?", [
      at("2031-04-01"),
      at("2031-04-20"),
      old.id,
    ]);
    // The experiment: A the program (3 %, at least 100), B 3.6 % worded protect_order; from 2031-04-29, running.
    experiment = await t.database.db.transaction((tx) =>
      startExperiment(tx, t.services, source(), {
        variants: [{ control: true }, { control: false, ratePercent: "3.6", offerWording: "protect_order" }],
      }),
    );
    await t.database.db.run("UPDATE offer_experiments SET started_at = ? WHERE id = ?", [
      at("2031-04-29"),
      experiment.id,
    ]);
    const [a1, a2, a3, a4, a5] = cartsOf("A", 5);
    const [b1, b2, b3] = cartsOf("B", 3);

    // A: a1 10,000 confirmed (fee 300); a2 20,000 confirmed then voided (no fee); a3 declined; a4 abandoned;
    // a5 EUR 5,000 confirmed (fee 150), through the headless route.
    const q1 = await protectOrder(widget, m.programId, { order_amount_cents: 10_000, cart_id: a1 });
    assert.equal(q1.quote.feeCents, 300);
    assert.equal(q1.quote.offerWording, "standard");
    await movedTo(q1.quote.quoteId, at("2031-05-01", 10));
    const q2 = await protectOrder(secret, m.programId, { order_amount_cents: 20_000, cart_id: a2 });
    assert.equal((await secret.post("/offers/void", { planId: q2.confirmation.planId })).status, 200);
    await movedTo(q2.quote.quoteId, at("2031-05-02"));
    const { quote: q3 } = await createQuote(widget, m.programId, { order_amount_cents: 5_000, cart_id: a3 });
    assert.equal((await widget.post("/offers/decline", { quoteId: q3.quoteId })).status, 200);
    await movedTo(q3.quoteId, at("2031-05-03"));
    const { quote: q4 } = await createQuote(widget, m.programId, { order_amount_cents: 1_000, cart_id: a4 });
    await movedTo(q4.quoteId, at("2031-05-04"));
    const q5 = await protectOrderHeadless(secret, m.programId, {
      order_amount_cents: 5_000,
      currency: "EUR",
      cart_id: a5,
    });
    assert.equal(q5.quote.fee_cents, 150);
    await movedTo(q5.quote.quote_id, at("2031-05-05"));

    // B: b1 10,000 confirmed (3.6 %: 360); b2 2,000 confirmed (72, so the minimum 100); b3 confirmed on 04-30,
    // before the period: not counted.
    const q6 = await protectOrder(widget, m.programId, { order_amount_cents: 10_000, cart_id: b1 });
    assert.equal(q6.quote.feeCents, 360);
    assert.equal(q6.quote.offerWording, "protect_order");
    await movedTo(q6.quote.quoteId, at("2031-05-06"));
    const q7 = await protectOrderHeadless(secret, m.programId, { order_amount_cents: 2_000, cart_id: b2 });
    assert.equal(q7.quote.fee_cents, 100);
    assert.equal(q7.quote.offer_wording, "protect_order");
    await movedTo(q7.quote.quote_id, at("2031-05-07"));
    const q8 = await protectOrder(widget, m.programId, { order_amount_cents: 10_000, cart_id: b3 });
    await movedTo(q8.quote.quoteId, at("2031-04-30"));
  });
  afterAll(() => t?.close());

  it("counts each variant's offers, attach rate, Wilson interval and fees per currency", async () => {
    const response = await secret.get(`/merchants/${m.merchantId}/metrics?from=2031-05-01&to=2031-05-10`);
    assert.equal(response.status, 200, response.text);
    const { experiments } = response.body.analytics;
    assert.equal(experiments.length, 1, "the April experiment is not listed");
    const [listed] = experiments;
    assert.equal(listed.id, experiment.id);
    assert.equal(listed.state, "running");
    assert.equal(listed.startedAt, "2031-04-29T00:00:00.000Z");
    assert.equal(listed.stoppedAt, null);
    // Two and five offers: too few to call.
    assert.deepEqual([listed.reading, listed.leader], ["too_small", null]);
    const [a, b] = listed.variants;

    // A: 5 shown (a1–a5), 3 confirmed (a1, a2 voided since, a5): 3 / 5. Wilson at 95 % (z² = 3.8415): centre
    // (0.6 + 0.38415) / 1.76829 = 0.55655, half 1.10839 × √(0.048 + 0.038415) = 0.32583: [0.23072, 0.88238].
    // Fees of active plans: USD 300 (a1; a2 voided) over 4 USD offers = 75; EUR 150 over 1 = 150.
    assert.deepEqual(
      { ...a, attachRate: undefined, attachRateInterval: undefined },
      {
        key: "A",
        control: true,
        rateBps: null,
        offerWording: null,
        offersShown: 5,
        confirmed: 3,
        attachRate: undefined,
        attachRateInterval: undefined,
        revenue: [
          { currency: "EUR", offersShown: 1, feeCents: 150, revenuePerOfferCents: 150 },
          { currency: "USD", offersShown: 4, feeCents: 300, revenuePerOfferCents: 75 },
        ],
      },
    );
    assert.equal(a.attachRate, 3 / 5);
    close(a.attachRateInterval.low, 0.23072);
    close(a.attachRateInterval.high, 0.88238);

    // B: 2 shown, 2 confirmed (b3 was quoted before the period). Wilson: centre (1 + 0.96036) / 2.92073 = 0.67119,
    // half 0.67105 × √0.24009 = 0.32881: [0.34238, 1]. Fees USD 360 + 100 = 460 over 2 offers = 230.
    assert.deepEqual(
      { ...b, attachRateInterval: undefined },
      {
        key: "B",
        control: false,
        rateBps: 360,
        offerWording: "protect_order",
        offersShown: 2,
        confirmed: 2,
        attachRate: 1,
        attachRateInterval: undefined,
        revenue: [{ currency: "USD", offersShown: 2, feeCents: 460, revenuePerOfferCents: 230 }],
      },
    );
    close(b.attachRateInterval.low, 0.34238);
    close(b.attachRateInterval.high, 1);
  });

  it("refuses a cart_id that is not one printable line of at most 200 characters, and quotes nothing", async () => {
    const count = async () =>
      Number(
        (await t.database.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM quotes WHERE merchant_id = ?", [
          m.merchantId,
        ]))!.n,
      );
    const before = await count();
    for (const cartId of ["two\nlines", "x".repeat(201), ""]) {
      const body = { order_amount_cents: 1_000, order_id: "order-bad-cart", protection_program_id: m.programId };
      assertError(await widget.post("/offers/quote", { ...body, cart_id: cartId }), {
        status: 400,
        code: "parameter_invalid",
        param: "cart_id",
      });
      assertError(await secret.post("/headless/quote", { ...body, cart_id: cartId }), {
        status: 400,
        code: "parameter_invalid",
        param: "cart_id",
      });
    }
    assert.equal(await count(), before);
  });

  it("lists the April experiment for April, with no offers counted", async () => {
    const response = await secret.get(`/merchants/${m.merchantId}/metrics?from=2031-04-01&to=2031-04-10`);
    assert.equal(response.status, 200, response.text);
    const [listed] = response.body.analytics.experiments;
    assert.equal(listed.id, old.id);
    assert.equal(listed.state, "stopped");
    assert.deepEqual(
      listed.variants.map((v: { offersShown: number; attachRate: null; attachRateInterval: null; revenue: [] }) => [
        v.offersShown,
        v.attachRate,
        v.attachRateInterval,
        v.revenue,
      ]),
      [
        [0, null, null, []],
        [0, null, null, []],
      ],
    );
  });
});
