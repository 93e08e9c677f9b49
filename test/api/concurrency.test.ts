import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS, rowCounts } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { createQuote } from "../support/api-assertions.ts";
import { confirmBody, outbox, protectOrder, tally, type ApiClient } from "../support/protection-flows.ts";

// Simultaneous requests against one server: exactly-once effects (docs/api.md "Idempotency": "a crash leaves all or none").

const N = 50;
const newKey = () => `conc-${crypto.randomUUID()}`;
const simultaneously = <T>(n: number, request: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: n }, (_, i) => request(i)));

describe.each(DIALECTS)("concurrency (%s)", (dialect) => {
  let t: TestApi;
  let widget: ApiClient;
  let secret: ApiClient;
  beforeAll(async () => {
    t = await startTestApi({ dialect });
    widget = apiClient(t.baseUrl, t.merchant.publishableKey);
    secret = apiClient(t.baseUrl, t.merchant.secretKey);
  });
  afterAll(() => t.close());

  it(`${N} simultaneous quotes with one idempotency key: one quote row; ${N} × 200 with identical bodies and tokens, ${N - 1} replays`, async () => {
    const key = newKey();
    const body = {
      order_amount_cents: 12_999,
      order_id: `order-${crypto.randomUUID()}`,
      protection_program_id: t.merchant.programId,
    };
    const before = await rowCounts(t.database.db);
    const responses = await simultaneously(N, () => widget.post("/offers/quote", body, { idempotencyKey: key }));

    assert.deepEqual(tally(responses), { "200": N });
    assert.equal(new Set(responses.map((r) => r.text)).size, 1, "identical bodies");
    assert.equal(new Set(responses.map((r) => r.headers.get("x-service-quote-token"))).size, 1, "identical tokens");
    assert.ok(responses[0].headers.get("x-service-quote-token"));
    assert.equal(responses.filter((r) => r.headers.get("idempotent-replayed") === "true").length, N - 1);
    assert.deepEqual(await rowCounts(t.database.db), {
      ...before,
      quotes: before.quotes + 1,
      idempotency_records: before.idempotency_records + 1,
    });
  });

  it(`${N} simultaneous confirms of one quote with ${N} keys: one plan, one order, one protection.confirmed; 1 × 200 and ${N - 1} × 409 quote_already_used`, async () => {
    const { quote, token } = await createQuote(widget, t.merchant.programId);
    const before = await rowCounts(t.database.db);
    const responses = await simultaneously(N, () =>
      widget.post("/offers/confirm", confirmBody(quote, token), { idempotencyKey: newKey() }),
    );

    assert.deepEqual(tally(responses), { "200": 1, "409 quote_already_used": N - 1 });
    assert.deepEqual(await rowCounts(t.database.db), {
      ...before,
      plans: before.plans + 1,
      orders: before.orders + 1,
      events: before.events + 1,
      email_messages: before.email_messages + 1,
      idempotency_records: before.idempotency_records + N,
    });
    const plans = await t.database.db.all<{ id: string }>("SELECT id FROM plans WHERE quote_id = ?", [quote.quoteId]);
    assert.deepEqual(
      plans.map((p) => p.id),
      [responses.find((r) => r.status === 200)!.body.planId],
    );
    const confirmed = (await outbox(t.database.db, t.merchant.merchantId, "protection.confirmed")).filter(
      (e) => e.data.quoteId === quote.quoteId,
    );
    assert.equal(confirmed.length, 1);
  });

  it(`${N} simultaneous confirms of one quote with one key: one plan, ${N} identical 200s`, async () => {
    const { quote, token } = await createQuote(widget, t.merchant.programId);
    const key = newKey();
    const before = await rowCounts(t.database.db);
    const responses = await simultaneously(N, () =>
      widget.post("/offers/confirm", confirmBody(quote, token), { idempotencyKey: key }),
    );

    assert.deepEqual(tally(responses), { "200": N });
    assert.equal(new Set(responses.map((r) => r.text)).size, 1);
    assert.deepEqual(await rowCounts(t.database.db), {
      ...before,
      plans: before.plans + 1,
      orders: before.orders + 1,
      events: before.events + 1,
      email_messages: before.email_messages + 1,
      idempotency_records: before.idempotency_records + 1,
    });
  });

  it("confirms of two quotes for one order_id at once: one plan; the other is 409 order_already_protected", async () => {
    const orderId = `order-${crypto.randomUUID()}`;
    const quotes = [
      await createQuote(widget, t.merchant.programId, { order_id: orderId }),
      await createQuote(widget, t.merchant.programId, { order_id: orderId }),
    ];
    const responses = await Promise.all(
      quotes.map(({ quote, token }) => widget.post("/offers/confirm", confirmBody(quote, token))),
    );
    assert.deepEqual(tally(responses), { "200": 1, "409 order_already_protected": 1 });
    const orders = await t.database.db.all("SELECT id FROM orders WHERE merchant_id = ? AND external_id = ?", [
      t.merchant.merchantId,
      orderId,
    ]);
    assert.equal(orders.length, 1);
    assert.equal((await t.database.db.all("SELECT id FROM plans WHERE order_id = ?", [orderId])).length, 1);
  });

  it("10 simultaneous refund reports for one order with 10 keys: one settlement credit; 1 × 200 and 9 × 409 order_already_refunded", async () => {
    const { quote } = await protectOrder(widget, t.merchant.programId);
    const before = await rowCounts(t.database.db);
    const responses = await simultaneously(10, () => secret.post(`/orders/${quote.orderId}/refund`, {}));
    assert.deepEqual(tally(responses), { "200": 1, "409 order_already_refunded": 9 });
    assert.deepEqual(await rowCounts(t.database.db), {
      ...before,
      settlement_credits: before.settlement_credits + 1,
      events: before.events + 2,
      idempotency_records: before.idempotency_records + 10,
    });
  });

  it("10 simultaneous voids of one plan with 10 keys: 1 × 200 and 9 × 409 plan_not_active; one protection.voided", async () => {
    const { confirmation } = await protectOrder(widget, t.merchant.programId);
    const responses = await simultaneously(10, () => secret.post("/offers/void", { planId: confirmation.planId }));
    assert.deepEqual(tally(responses), { "200": 1, "409 plan_not_active": 9 });
    const voided = (await outbox(t.database.db, t.merchant.merchantId, "protection.voided")).filter(
      (e) => e.data.id === confirmation.planId,
    );
    assert.equal(voided.length, 1);
  });
});
