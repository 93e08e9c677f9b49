// Offer experiments (docs/api.md "Offer experiments") on SQLite and PostgreSQL: off by default, sticky and even
// assignment, quotes priced and worded by their variant and carried to the plan, one running experiment per program,
// bad input refused with nothing changed, stop and roll-out (with their audit entries), and the Wilson interval.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { createTestDatabase, DIALECTS, type TestDatabase } from "../../test/support/databases.ts";
import { createTestMerchant, type NewMerchant } from "./merchants.ts";
import { createQuote, type KeyedActor } from "./quotes.ts";
import { confirmQuote } from "./plans.ts";
import { DomainError } from "./errors.ts";
import { cryptoRandom } from "./ids.ts";
import type { Services, Tx } from "./context.ts";
import { storeBuyerEmail } from "./buyer-emails.ts";
import { createSealer } from "../secrets/sealer.ts";
import {
  acceptedCartIdentity,
  assignVariant,
  rollOutVariant,
  startExperiment,
  stopExperiment,
  experimentResultOf,
  variantRateBounds,
  wilsonInterval,
  type Experiment,
} from "./experiments.ts";

describe("assignVariant", () => {
  it("gives a cart the same variant every time, and splits carts evenly", () => {
    const variants = ["A", "B", "C"];
    assert.equal(assignVariant("exp_1", "cart-42", variants), assignVariant("exp_1", "cart-42", variants));
    const counts = { A: 0, B: 0, C: 0 } as Record<string, number>;
    for (let i = 0; i < 30_000; i++) counts[assignVariant("exp_1", `cart-${i}`, variants)]++;
    // Each a third, within 2 % of 30,000 (the binomial standard deviation is about 82).
    for (const key of variants) assert.ok(Math.abs(counts[key] - 10_000) < 600, JSON.stringify(counts));
    // Another experiment reshuffles: the same carts do not land as they did.
    const moved = Array.from({ length: 300 }, (_, i) => `cart-${i}`).filter(
      (cart) => assignVariant("exp_1", cart, variants) !== assignVariant("exp_2", cart, variants),
    );
    assert.ok(moved.length > 150, String(moved.length));
  });
});

describe("variantRateBounds and wilsonInterval", () => {
  it("bounds a variant's rate to half and one and a half times the program's, within 0.01–50 %", () => {
    assert.deepEqual(variantRateBounds(300), { minBps: 150, maxBps: 450 });
    assert.deepEqual(variantRateBounds(301), { minBps: 151, maxBps: 451 });
    assert.deepEqual(variantRateBounds(1), { minBps: 1, maxBps: 1 });
    assert.deepEqual(variantRateBounds(4_000), { minBps: 2_000, maxBps: 5_000 });
  });

  it("computes the 95 % Wilson score interval", () => {
    assert.equal(wilsonInterval(0, 0), null);
    // 30 of 100: p 0.3, z² 3.8415; centre (0.3 + 0.019207) / 1.038415 = 0.307399; half 0.088163.
    const interval = wilsonInterval(30, 100)!;
    assert.ok(
      Math.abs(interval.low - 0.219) < 0.0005 && Math.abs(interval.high - 0.3955) < 0.0005,
      JSON.stringify(interval),
    );
    // None of 10: from 0 to 0.2775, never below 0.
    const none = wilsonInterval(0, 10)!;
    assert.equal(none.low, 0);
    assert.ok(Math.abs(none.high - 0.2775) < 0.0005, JSON.stringify(none));
  });
});

describe("experimentResultOf: the reading", () => {
  const experiment: Experiment = {
    id: "exp_1",
    programId: "prog_1",
    state: "running",
    rolledOutVariant: null,
    startedAt: 0,
    stoppedAt: null,
    variants: [
      { key: "A", control: true, rateBps: null, offerWording: null },
      { key: "B", control: false, rateBps: 360, offerWording: "protect_order" },
    ],
  };
  const counts = (a: [number, number], b: [number, number]) => [
    { variant: "A", currency: "USD", shown: a[0], confirmed: a[1], feeCents: 0 },
    { variant: "B", currency: "USD", shown: b[0], confirmed: b[1], feeCents: 0 },
  ];
  const reading = (a: [number, number], b: [number, number]) => {
    const result = experimentResultOf(experiment, counts(a, b));
    return [result.reading, result.leader];
  };

  it("is too small to call while a variant has fewer than 100 offers, however far apart they are", () => {
    assert.deepEqual(reading([99, 0], [500, 400]), ["too_small", null]);
  });

  it("names a leader only when its interval lies wholly above the other's", () => {
    // 30/100: [0.219, 0.3955]; 50/100: [0.4038, 0.5962]: apart.
    assert.deepEqual(reading([100, 30], [100, 50]), ["leader", "B"]);
    // 30/100 and 40/100: [0.3094, 0.4980] overlaps [0.219, 0.3955].
    assert.deepEqual(reading([100, 30], [100, 40]), ["no_clear_leader", null]);
  });
});

describe.each(DIALECTS)("offer experiments (%s)", (dialect) => {
  let database: TestDatabase;
  let merchant: NewMerchant;
  let now = Date.parse("2026-12-02T12:00:00.000Z");
  const services: Services = {
    clock: () => now,
    random: cryptoRandom,
    settings: { companyName: "Guarantor Inc.", portalUrl: "https://portal.example" },
  };
  const sealer = createSealer(randomBytes(32));
  let orders = 0;
  const widget = (): KeyedActor => ({ merchantId: merchant.merchantId, mode: "test", kind: "publishable" });
  const source = () => ({
    merchantId: merchant.merchantId,
    mode: "test" as const,
    actor: { id: "mem_owner", email: "owner@example.com" },
    ip: "127.0.0.1",
  });
  const inTx = <T>(work: (tx: Tx) => Promise<T>) => database.db.transaction(work);
  const quote = (extra: { cartId?: string; orderId?: string } = {}) =>
    inTx((tx) =>
      createQuote(tx, services, widget(), {
        orderAmountCents: 10_000,
        orderId: extra.orderId ?? `order-${++orders}`,
        programId: merchant.programId,
        currency: "USD",
        customerEmail: storeBuyerEmail(sealer, "buyer@example.com"),
        cartId: extra.cartId,
      }),
    );
  const start = (input: unknown) => inTx((tx) => startExperiment(tx, services, source(), input));
  const experimentRows = () =>
    database.db.all<{ id: string; state: string; rolled_out_variant: string | null; stopped_at: unknown }>(
      "SELECT id, state, rolled_out_variant, stopped_at FROM offer_experiments WHERE merchant_id = ? ORDER BY started_at",
      [merchant.merchantId],
    );
  const programRow = () =>
    database.db.get<{ rate_bps: number; offer_wording: string }>(
      "SELECT rate_bps, offer_wording FROM protection_programs WHERE id = ?",
      [merchant.programId],
    );
  const auditActions = async () =>
    (
      await database.db.all<{ action: string }>(
        "SELECT action FROM merchant_audit_log WHERE merchant_id = ? AND action LIKE 'offer_experiment.%' ORDER BY created_at, id",
        [merchant.merchantId],
      )
    ).map((row) => row.action);

  async function refused(work: Promise<unknown>, expected: { code: string; field: string }) {
    const error = await work.then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof DomainError, String(error));
    assert.deepEqual({ code: error.code, field: error.field }, expected);
  }

  const VARIANTS = [
    { control: true },
    { control: false, ratePercent: "3.6", offerWording: "protect_order" },
    { control: false, ratePercent: 2.4, offerWording: "cover_transit" },
  ];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    merchant = await database.db.transaction((tx) => createTestMerchant(tx, services, { name: "Experiment Shop" }));
  });
  afterAll(() => database.drop());

  it("is off by default: quotes use the program's terms and standard wording, outside any experiment", async () => {
    const { quote: offered } = await quote();
    assert.equal(offered.feeCents, 300);
    assert.equal(offered.offerWording, "standard");
    const row = await database.db.get("SELECT experiment_id, experiment_variant FROM quotes WHERE id = ?", [
      offered.quoteId,
    ]);
    assert.deepEqual({ ...row }, { experiment_id: null, experiment_variant: null });
    assert.deepEqual(await experimentRows(), []);
  });

  it("refuses bad variants with the field at fault, and starts nothing", async () => {
    const cases: [unknown, string, string][] = [
      [{ variants: [{ control: true }] }, "variants", "Test at least two variants."],
      [{ variants: [...VARIANTS, VARIANTS[1]] }, "variants", "Test at most three variants."],
      [{ variants: [{ control: true }, { control: true }] }, "variants.1.control", "Only one variant"],
      [
        { variants: [{ control: true }, { control: false, ratePercent: "4.51", offerWording: "standard" }] },
        "variants.1.ratePercent",
        "from 1.5 % to 4.5 %",
      ],
      [
        { variants: [{ control: true }, { control: false, ratePercent: "1.49", offerWording: "standard" }] },
        "variants.1.ratePercent",
        "from 1.5 % to 4.5 %",
      ],
      [
        { variants: [{ control: true }, { control: false, ratePercent: "3", offerWording: "standard" }] },
        "variants.1.ratePercent",
        "same rate and wording",
      ],
      [{ variants: [VARIANTS[1], VARIANTS[1]] }, "variants.1.ratePercent", "same rate and wording"],
      [
        { variants: [{ control: true }, { control: false, ratePercent: "3", offerWording: "act_now" }] },
        "variants.1.offerWording",
        "approved wordings",
      ],
      // No variant can pre-tick the box: the schema has no such option and refuses one.
      [{ variants: [{ control: true }, { ...VARIANTS[1], preselected: true }] }, "variants.1", "Unrecognized key"],
    ];
    for (const [input, field, message] of cases) {
      const error = await start(input).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(error instanceof DomainError, `${JSON.stringify(input)}: ${String(error)}`);
      assert.equal(error.code, "parameter_invalid");
      assert.equal(error.field, field, JSON.stringify(input));
      assert.ok(error.message.includes(message), `${error.message} ∌ ${message}`);
    }
    assert.deepEqual(await experimentRows(), []);
    assert.deepEqual(await auditActions(), []);
  });

  it("prices and words each cart's quotes by its sticky variant, and carries it to the plan", async () => {
    const experiment = await start({ variants: VARIANTS });
    assert.deepEqual(
      experiment.variants.map((v) => [v.key, v.control, v.rateBps, v.offerWording]),
      [
        ["A", true, null, null],
        ["B", false, 360, "protect_order"],
        ["C", false, 240, "cover_transit"],
      ],
    );
    const expected = { A: [300, "standard"], B: [360, "protect_order"], C: [240, "cover_transit"] } as const;
    const seen = new Set<string>();
    for (let cart = 0; cart < 12; cart++) {
      const cartId = `cart-${cart}`;
      const key = assignVariant(experiment.id, cartId, ["A", "B", "C"] as const);
      seen.add(key);
      for (let again = 0; again < 2; again++) {
        const { quote: offered } = await quote({ cartId });
        assert.deepEqual([offered.feeCents, offered.offerWording], expected[key], cartId);
        const row = await database.db.get<{ experiment_id: string; experiment_variant: string; offer_wording: string }>(
          "SELECT experiment_id, experiment_variant, offer_wording FROM quotes WHERE id = ?",
          [offered.quoteId],
        );
        assert.deepEqual(
          { ...row },
          { experiment_id: experiment.id, experiment_variant: key, offer_wording: expected[key][1] },
        );
      }
    }
    assert.equal(seen.size, 3, "12 carts reach every variant");

    // Without a cart id the order id is the identity: the same order, the same variant.
    const first = await quote({ orderId: "order-sticky" });
    const second = await quote({ orderId: "order-sticky" });
    assert.equal(first.quote.feeCents, second.quote.feeCents);
    assert.equal(
      first.quote.feeCents,
      expected[assignVariant(experiment.id, "order-sticky", ["A", "B", "C"] as const)][0],
    );

    // The plan keeps the experiment and variant of its quote.
    const plan = await inTx((tx) =>
      confirmQuote(
        tx,
        services,
        { merchantId: merchant.merchantId, mode: "test" },
        {
          surface: "server",
          quoteId: first.quote.quoteId,
        },
      ),
    );
    const planRow = await database.db.get(
      "SELECT experiment_id, experiment_variant, fee_cents FROM plans WHERE id = ?",
      [plan.planId],
    );
    assert.deepEqual(
      { ...planRow },
      {
        experiment_id: experiment.id,
        experiment_variant: assignVariant(experiment.id, "order-sticky", ["A", "B", "C"]),
        fee_cents: first.quote.feeCents,
      },
    );

    // The Shopify orders path: the server's quote of an order follows the variant of the quote its buyer accepted.
    const accepted = await quote({ cartId: "checkout-token-1" });
    const identity = await inTx((tx) =>
      acceptedCartIdentity(tx, { merchantId: merchant.merchantId, mode: "test" }, accepted.quote.quoteId),
    );
    assert.equal(identity, "checkout-token-1");
    const ordered = await quote({ orderId: "shopify-order-1", cartId: identity });
    assert.equal(ordered.quote.feeCents, accepted.quote.feeCents);
    assert.equal(
      await inTx((tx) => acceptedCartIdentity(tx, { merchantId: "mer_other", mode: "test" }, accepted.quote.quoteId)),
      undefined,
      "another merchant's quote lends no identity",
    );

    // One running experiment per program: a second is refused and changes nothing.
    await refused(start({ variants: VARIANTS }), { code: "experiment_running", field: "variants" });
    assert.equal((await experimentRows()).length, 1);
    assert.deepEqual(await auditActions(), ["offer_experiment.started"]);
  });

  it("stops: offers return to the program's terms; a second stop is refused", async () => {
    const [running] = await experimentRows();
    now += 1_000;
    await inTx((tx) => stopExperiment(tx, services, source(), running.id));
    const [stopped] = await experimentRows();
    assert.equal(stopped.state, "stopped");
    assert.equal(Number(stopped.stopped_at), now);
    for (let cart = 0; cart < 6; cart++) {
      const { quote: offered } = await quote({ cartId: `cart-${cart}` });
      assert.deepEqual([offered.feeCents, offered.offerWording], [300, "standard"]);
    }
    await refused(
      inTx((tx) => stopExperiment(tx, services, source(), running.id)),
      { code: "experiment_ended", field: "experimentId" },
    );
    await refused(
      inTx((tx) => stopExperiment(tx, services, source(), "exp_unknown")),
      { code: "resource_missing", field: "experimentId" },
    );
    assert.deepEqual(await programRow(), { rate_bps: 300, offer_wording: "standard" });
  });

  it("rolls a variant out: the program takes its rate and wording, the experiment ends, one audit entry", async () => {
    now += 1_000;
    const experiment = await start({ variants: VARIANTS.slice(1) });
    await refused(
      inTx((tx) => rollOutVariant(tx, services, source(), experiment.id, "C")),
      { code: "parameter_invalid", field: "variant" },
    );
    assert.deepEqual(await programRow(), { rate_bps: 300, offer_wording: "standard" });
    now += 1_000; // the audit entries are read in time order
    await inTx((tx) => rollOutVariant(tx, services, source(), experiment.id, "A"));
    assert.deepEqual(await programRow(), { rate_bps: 360, offer_wording: "protect_order" });
    const rows = await experimentRows();
    assert.deepEqual([rows[1].state, rows[1].rolled_out_variant], ["rolled_out", "A"]);
    const { quote: offered } = await quote({ cartId: "cart-after" });
    assert.deepEqual([offered.feeCents, offered.offerWording], [360, "protect_order"]);
    assert.deepEqual(await auditActions(), [
      "offer_experiment.started",
      "offer_experiment.stopped",
      "offer_experiment.started",
      "offer_experiment.rolled_out",
    ]);
    // The bounds follow the program's new rate (3.6 %: 1.8–5.4 %).
    await refused(
      start({ variants: [{ control: true }, { control: false, ratePercent: "5.41", offerWording: "standard" }] }),
      { code: "parameter_invalid", field: "variants.1.ratePercent" },
    );
  });

  it("is not offered for a program the merchant pays", async () => {
    await database.db.run("UPDATE protection_programs SET payer = 'merchant' WHERE id = ?", [merchant.programId]);
    await refused(start({ variants: VARIANTS }), { code: "experiment_not_offered", field: "variants" });
    await database.db.run("UPDATE protection_programs SET payer = 'buyer' WHERE id = ?", [merchant.programId]);
  });
});
