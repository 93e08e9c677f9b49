import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient, orderContextFor } from "../support/client.ts";
import { rowCounts } from "../support/databases.ts";
import { assertError, createQuote } from "../support/api-assertions.ts";
import { confirmBody, type ApiClient } from "../support/protection-flows.ts";
import { REFERENCE_NUMBER_PATTERN } from "@purchase-protection/contract";
import { COVERED_REASONS } from "../../server/domain/disclosure.ts";

const QUOTE_LIFETIME_MS = 30 * 60 * 1000;
/** The free look's end: 48 hours after the order's purchase (as the order context gives it). */
const twoDaysAfter = (purchasedAt: string) => new Date(Date.parse(purchasedAt) + 48 * 60 * 60 * 1000).toISOString();

describe.each(DIALECTS)("offers: quote → confirm (%s)", (dialect) => {
  let t: TestApi;
  beforeAll(async () => (t = await startTestApi({ dialect })));
  afterAll(() => t.close());

  it("quotes with the token only in the header, then confirms into a plan with a reference number", async () => {
    const widget = apiClient(t.baseUrl, t.merchant.publishableKey);
    const quote = await widget.post("/offers/quote", {
      order_amount_cents: 12_999,
      order_id: "order-1",
      protection_program_id: t.merchant.programId,
    });
    assert.equal(quote.status, 200);
    const token = quote.headers.get("x-service-quote-token");
    assert.ok(token && token.length >= 40);
    assert.ok(!quote.text.includes(token), "the token never appears in the body");
    assert.equal(quote.body.currency, "USD");
    assert.equal(quote.body.feeCents, 390);
    assert.equal(
      quote.body.disclosureText,
      "This is not insurance. This is a contractual refund guarantee provided by Test Protection Ltd.",
    );

    const orderContext = orderContextFor(quote.body);
    const confirm = await widget.post("/offers/confirm", {
      quoteId: quote.body.quoteId,
      quoteToken: token,
      order_context: orderContext,
      customer_email: "ada@example.com",
    });
    assert.equal(confirm.status, 200, confirm.text);
    assert.match(confirm.body.referenceNumber, REFERENCE_NUMBER_PATTERN);
    assert.equal(confirm.body.status, "confirmed");
    assert.equal(confirm.body.freeLookEndsAt, twoDaysAfter(orderContext.order.purchased_at));

    const again = await widget.post("/offers/confirm", {
      quoteId: quote.body.quoteId,
      quoteToken: token,
      order_context: orderContextFor(quote.body),
    });
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, "quote_already_used");
  });

  describe("quote", () => {
    let widget: ApiClient;
    beforeAll(() => (widget = apiClient(t.baseUrl, t.merchant.publishableKey)));

    it("returns exactly the documented camelCase fields", async () => {
      const { quote } = await createQuote(widget, t.merchant.programId, {
        order_amount_cents: 12_999,
        order_id: "order-shape",
      });
      assert.deepEqual(Object.keys(quote).sort(), [
        "buyerFeeCents",
        "coveredAmountCents",
        "coveredReasons",
        "currency",
        "disclosureText",
        "expiresAt",
        "feeCents",
        "livemode",
        "merchantFeeCents",
        "offerTexts",
        "offerWording",
        "orderAmountCents",
        "orderId",
        "payer",
        "quoteId",
        "status",
        "termsUrl",
      ]);
      assert.match(quote.quoteId, /^qt_[0-9a-z]{24}$/);
      assert.equal(quote.status, "open");
      assert.equal(quote.orderId, "order-shape");
      assert.equal(quote.orderAmountCents, 12_999);
      assert.equal(quote.coveredAmountCents, 12_999);
      assert.deepEqual(quote.coveredReasons, [...COVERED_REASONS]);
      assert.equal(quote.coveredReasons.length, 12);
      assert.equal(quote.termsUrl, "https://portal.example.test/terms");
      assert.equal(quote.expiresAt, new Date(t.clock.now + QUOTE_LIFETIME_MS).toISOString());
      assert.equal(quote.livemode, false);
    });

    it("prices 3 % of the covered amount rounded half up, at least 1.00, covering at most 5 000.00; currency codes are upper-cased", async () => {
      for (const [fields, expected] of [
        [{ order_amount_cents: 12_950 }, { currency: "USD", coveredAmountCents: 12_950, feeCents: 389 }], // 388.5 → 389
        [{ order_amount_cents: 12_949 }, { currency: "USD", coveredAmountCents: 12_949, feeCents: 388 }], // 388.47 → 388
        [{ order_amount_cents: 1_000 }, { currency: "USD", coveredAmountCents: 1_000, feeCents: 100 }], // minimum fee
        [{ order_amount_cents: 600_000 }, { currency: "USD", coveredAmountCents: 500_000, feeCents: 15_000 }], // covered amount capped
        [
          { order_amount_cents: 20_000, currency: "jpy" },
          { currency: "JPY", coveredAmountCents: 20_000, feeCents: 600 },
        ],
        [
          { order_amount_cents: 5_000, currency: "Cad" },
          { currency: "CAD", coveredAmountCents: 5_000, feeCents: 150 },
        ],
      ] as const) {
        const { quote } = await createQuote(widget, t.merchant.programId, fields);
        assert.deepEqual(
          { currency: quote.currency, coveredAmountCents: quote.coveredAmountCents, feeCents: quote.feeCents },
          expected,
          JSON.stringify(fields),
        );
      }
    });
  });

  describe("confirm", () => {
    let widget: ApiClient;
    beforeAll(() => (widget = apiClient(t.baseUrl, t.merchant.publishableKey)));

    it("returns exactly the documented fields and writes one plan, one protected order, one event and the welcome e-mail", async () => {
      const { quote, token } = await createQuote(widget, t.merchant.programId, {
        order_amount_cents: 600_000,
        currency: "EUR",
      });
      const before = await rowCounts(t.database.db);
      const body = confirmBody(quote, token);
      const response = await widget.post("/offers/confirm", body);
      assert.equal(response.status, 200, response.text);
      const { referenceNumber, planId, ...rest } = response.body;
      assert.match(referenceNumber, REFERENCE_NUMBER_PATTERN);
      assert.match(planId, /^plan_[0-9a-z]{24}$/);
      assert.deepEqual(rest, {
        status: "confirmed",
        orderId: quote.orderId,
        currency: "EUR",
        feeCents: 15_000,
        payer: "buyer",
        buyerFeeCents: 15_000,
        merchantFeeCents: 0,
        coveredAmountCents: 500_000,
        freeLookEndsAt: twoDaysAfter(body.order_context.order.purchased_at),
        coverageUrl: `https://portal.example.test/coverage/${referenceNumber}`,
        livemode: false,
      });
      assert.deepEqual(await rowCounts(t.database.db), {
        ...before,
        plans: before.plans + 1,
        orders: before.orders + 1,
        events: before.events + 1,
        email_messages: before.email_messages + 1,
        idempotency_records: before.idempotency_records + 1,
      });
      const order = await t.database.db.get<{ status: string; plan_id: string }>(
        "SELECT status, plan_id FROM orders WHERE external_id = ? AND merchant_id = ?",
        [quote.orderId, t.merchant.merchantId],
      );
      assert.deepEqual({ ...order }, { status: "protected", plan_id: planId });
      const stored = await t.database.db.get<{ status: string }>("SELECT status FROM quotes WHERE id = ?", [
        quote.quoteId,
      ]);
      assert.equal(stored!.status, "confirmed");
    });

    it("a quote lives 30 minutes: confirmable 1 ms before, 409 quote_expired at 30 minutes", async () => {
      const early = await createQuote(widget, t.merchant.programId);
      const late = await createQuote(widget, t.merchant.programId);
      t.clock.advance(QUOTE_LIFETIME_MS - 1);
      assert.equal((await widget.post("/offers/confirm", confirmBody(early.quote, early.token))).status, 200);
      t.clock.advance(1);
      assertError(await widget.post("/offers/confirm", confirmBody(late.quote, late.token)), {
        status: 409,
        code: "quote_expired",
        param: "quoteId",
      });
    });
  });
});

describe.each(DIALECTS)("disclosure wording (%s)", (dialect) => {
  let t: TestApi;
  beforeAll(async () => (t = await startTestApi({ dialect, companyName: "Acme Guarantees Inc." })));
  afterAll(() => t.close());

  it("names the company once, ending in exactly one period even when the legal name ends in one", async () => {
    const { quote } = await createQuote(apiClient(t.baseUrl, t.merchant.publishableKey), t.merchant.programId);
    assert.equal(
      quote.disclosureText,
      "This is not insurance. This is a contractual refund guarantee provided by Acme Guarantees Inc.",
    );
  });
});
