import { describe, it, beforeAll, afterAll, afterEach } from "vitest";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { DIALECTS, rowCounts } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { assertChangesNothing, assertError, createQuote } from "../support/api-assertions.ts";
import {
  confirmBody,
  outbox,
  protectOrder,
  protectOrderHeadless,
  sha256Hex,
  type ApiClient,
} from "../support/protection-flows.ts";
import { REFERENCE_NUMBER_PATTERN } from "@purchase-protection/contract";
import { DEFAULT_PROGRAM } from "../../server/domain/programs.ts";
import type { Confirmation } from "../../packages/sdk/src/responses.ts";

// Decline, void, the merchant refund report (docs/api.md "Orders: merchant refund report"), reference numbers and the stored quote token.

const FULL_DISCLOSURE =
  "This is not insurance. This is a contractual refund guarantee provided by Test Protection Ltd.";

describe.each(DIALECTS)("lifecycle (%s)", (dialect) => {
  let t: TestApi;
  let widget: ApiClient;
  let secret: ApiClient;
  let hook: (() => void) | undefined;
  beforeAll(async () => {
    t = await startTestApi({ dialect, afterSideEffects: () => hook?.() });
    widget = apiClient(t.baseUrl, t.merchant.publishableKey);
    secret = apiClient(t.baseUrl, t.merchant.secretKey);
  });
  afterEach(() => (hook = undefined));
  afterAll(() => t.close());

  const quoteRow = (id: string) =>
    t.database.db.get<{ status: string; decline_reason: string | null; decided_at: number | null; token_hash: string }>(
      "SELECT status, decline_reason, decided_at, token_hash FROM quotes WHERE id = ?",
      [id],
    );
  const planRow = (id: string) =>
    t.database.db.get<{ status: string; void_reason: string | null; voided_at: number | null }>(
      "SELECT status, void_reason, voided_at FROM plans WHERE id = ?",
      [id],
    );
  const eventsFor = async (type: string, match: (object: Record<string, unknown>) => boolean) =>
    (await outbox(t.database.db, t.merchant.merchantId, type)).filter((e) => match(e.data));

  describe("decline", () => {
    it("/offers/decline (widget key) declines the quote, writes offer.declined, and a later confirm is 409 quote_declined", async () => {
      const { quote, token } = await createQuote(widget, t.merchant.programId);
      const before = await rowCounts(t.database.db);
      const declined = await widget.post("/offers/decline", {
        quoteId: quote.quoteId,
        reason: "buyer unticked the box",
      });
      assert.equal(declined.status, 200, declined.text);
      assert.deepEqual(declined.body, {
        quoteId: quote.quoteId,
        status: "declined",
        reason: "buyer unticked the box",
        declinedAt: new Date(t.clock.now).toISOString(),
        livemode: false,
      });
      assert.deepEqual(await rowCounts(t.database.db), {
        ...before,
        events: before.events + 1,
        idempotency_records: before.idempotency_records + 1,
      });
      const row = await quoteRow(quote.quoteId);
      assert.equal(row!.status, "declined");
      assert.equal(row!.decline_reason, "buyer unticked the box");
      assert.equal(Number(row!.decided_at), t.clock.now);
      const events = await eventsFor("offer.declined", (o) => o.quoteId === quote.quoteId);
      assert.equal(events.length, 1);
      assert.deepEqual(events[0].data, declined.body);

      const confirm = await assertChangesNothing(
        t.database.db,
        () => widget.post("/offers/confirm", confirmBody(quote, token)),
        1,
      );
      assertError(confirm, { status: 409, code: "quote_declined", param: "quoteId" });
      assertError(await widget.post("/offers/decline", { quoteId: quote.quoteId }), {
        status: 409,
        code: "quote_declined",
        param: "quoteId",
      });
    });

    it("a decline without a reason stores none; declining a confirmed quote is 409 quote_already_used, an unknown one 404", async () => {
      const { quote } = await createQuote(secret, t.merchant.programId);
      const declined = await secret.post("/offers/decline", { quoteId: quote.quoteId });
      assert.equal(declined.status, 200, declined.text);
      assert.equal(declined.body.reason, null);
      assert.equal((await quoteRow(quote.quoteId))!.decline_reason, null);

      const { quote: confirmedQuote } = await protectOrder(widget, t.merchant.programId);
      assertError(await widget.post("/offers/decline", { quoteId: confirmedQuote.quoteId }), {
        status: 409,
        code: "quote_already_used",
        param: "quoteId",
      });
      assertError(await widget.post("/offers/decline", { quoteId: "qt_does_not_exist" }), {
        status: 404,
        code: "resource_missing",
        param: "quoteId",
      });
    });

    it("/headless/decline declines too: offer.declined, then headless and /offers confirm are 409 quote_declined", async () => {
      const quote = await secret.post("/headless/quote", {
        order_amount_cents: 5_000,
        order_id: `order-${crypto.randomUUID()}`,
        protection_program_id: t.merchant.programId,
      });
      const quoteId = quote.body.quote_id;
      const declined = await secret.post("/headless/decline", { quote_id: quoteId, reason: "not wanted" });
      assert.equal(declined.status, 200, declined.text);
      assert.equal((await quoteRow(quoteId))!.status, "declined");
      assert.equal((await eventsFor("offer.declined", (o) => o.quoteId === quoteId)).length, 1);
      assertError(await secret.post("/headless/confirm", { quote_id: quoteId }), {
        status: 409,
        code: "quote_declined",
        param: "quote_id",
      });
    });

    it("an expired quote can be neither declined nor confirmed (409 quote_expired)", async () => {
      const { quote, token } = await createQuote(widget, t.merchant.programId);
      t.clock.advance(30 * 60 * 1000);
      assertError(await widget.post("/offers/decline", { quoteId: quote.quoteId }), {
        status: 409,
        code: "quote_expired",
        param: "quoteId",
      });
      assertError(await widget.post("/offers/confirm", confirmBody(quote, token)), {
        status: 409,
        code: "quote_expired",
        param: "quoteId",
      });
      assert.equal((await quoteRow(quote.quoteId))!.status, "open");
    });
  });

  describe("void", () => {
    const selectors = [
      ["planId", (c: Confirmation) => ({ planId: c.planId })],
      ["referenceNumber", (c: Confirmation) => ({ referenceNumber: c.referenceNumber })],
      ["orderId", (c: Confirmation) => ({ orderId: c.orderId })],
    ] as const;

    for (const [name, select] of selectors) {
      it(`by ${name}: the plan is voided with protection.voided; a second void is 409 plan_not_active`, async () => {
        const { confirmation } = await protectOrder(widget, t.merchant.programId);
        const before = await rowCounts(t.database.db);
        const voided = await secret.post("/offers/void", { ...select(confirmation), reason: "order cancelled" });
        assert.equal(voided.status, 200, voided.text);
        assert.equal(voided.body.id, confirmation.planId);
        assert.equal(voided.body.status, "voided");
        assert.equal(voided.body.voidReason, "order cancelled");
        assert.equal(voided.body.voidedAt, new Date(t.clock.now).toISOString());
        assert.equal(voided.body.referenceNumber, confirmation.referenceNumber);
        assert.deepEqual(await rowCounts(t.database.db), {
          ...before,
          events: before.events + 1,
          idempotency_records: before.idempotency_records + 1,
        });
        const row = await planRow(confirmation.planId);
        assert.equal(row!.status, "voided");
        assert.equal(row!.void_reason, "order cancelled");
        const events = await eventsFor("protection.voided", (o) => o.id === confirmation.planId);
        assert.equal(events.length, 1);
        assert.deepEqual(events[0].data, voided.body);

        const again = await assertChangesNothing(
          t.database.db,
          () => secret.post("/offers/void", select(confirmation)),
          1,
        );
        assertError(again, { status: 409, code: "plan_not_active" });
      });
    }

    it("is secret-key only (wk_ → 403 secret_key_required) and needs exactly one selector (400); an unknown plan is 404", async () => {
      const { confirmation } = await protectOrder(widget, t.merchant.programId);
      assertError(
        await assertChangesNothing(t.database.db, () => widget.post("/offers/void", { planId: confirmation.planId })),
        { status: 403, code: "secret_key_required" },
      );
      for (const body of [{}, { planId: confirmation.planId, orderId: confirmation.orderId }, { reason: "x" }]) {
        const response = await assertChangesNothing(t.database.db, () => secret.post("/offers/void", body));
        assertError(response, { status: 400, code: "parameter_invalid", param: "planId" });
      }
      assertError(await secret.post("/offers/void", { planId: "plan_unknown" }), {
        status: 404,
        code: "resource_missing",
      });
      assert.equal((await planRow(confirmation.planId))!.status, "active");
    });
  });

  describe("merchant refund report (POST /orders/{orderId}/refund)", () => {
    for (const [label, send] of [
      ["body {}", (path: string) => secret.post(path, {})],
      ["an empty body", (path: string) => secret.post(path, undefined, { raw: "" })],
    ] as const) {
      it(`with ${label}: order merchant_refunded, plan voided, fee share credited for the next statement, no consumer refund`, async () => {
        // 13 100 × 3 % = 393; the merchant's 20 % share is 78.6 → 79 (rounded half up).
        const { quote, confirmation } = await protectOrder(widget, t.merchant.programId, {
          order_amount_cents: 13_100,
        });
        assert.equal(confirmation.feeCents, 393);
        const before = await rowCounts(t.database.db);
        const eventsBefore = (await outbox(t.database.db, t.merchant.merchantId)).length;

        const response = await send(`/orders/${quote.orderId}/refund`);
        assert.equal(response.status, 200, response.text);
        const credit = Math.round((393 * DEFAULT_PROGRAM.merchantShareBps) / 10_000);
        assert.equal(credit, 79);
        assert.equal(response.body.orderId, quote.orderId);
        assert.equal(response.body.status, "merchant_refunded");
        assert.equal(response.body.consumerRefundIssued, false);
        assert.deepEqual(response.body.settlementCredit, { amountCents: credit, currency: "USD", statement: "next" });
        assert.equal(response.body.purchase.status, "voided");
        assert.equal(response.body.purchase.orderStatus, "merchant_refunded");

        // One credit and two events, nothing else: no claim, no payout, no second anything.
        assert.deepEqual(await rowCounts(t.database.db), {
          ...before,
          settlement_credits: before.settlement_credits + 1,
          events: before.events + 2,
          idempotency_records: before.idempotency_records + 1,
        });
        const order = await t.database.db.get<{ status: string; refunded_at: number }>(
          "SELECT status, refunded_at FROM orders WHERE external_id = ? AND merchant_id = ?",
          [quote.orderId, t.merchant.merchantId],
        );
        assert.equal(order!.status, "merchant_refunded");
        assert.equal(Number(order!.refunded_at), t.clock.now);
        const plan = await planRow(confirmation.planId);
        assert.equal(plan!.status, "voided");
        assert.equal(plan!.void_reason, "merchant_refunded");
        const credits = await t.database.db.all<{
          amount_cents: number;
          currency: string;
          statement_id: string | null;
          order_id: string;
          reason: string;
        }>("SELECT amount_cents, currency, statement_id, order_id, reason FROM settlement_credits WHERE plan_id = ?", [
          confirmation.planId,
        ]);
        assert.deepEqual(
          credits.map((c) => ({ ...c, amount_cents: Number(c.amount_cents) })),
          [
            {
              amount_cents: credit,
              currency: "USD",
              statement_id: null,
              order_id: quote.orderId,
              reason: "merchant_refunded",
            },
          ],
        );
        const newEvents = (await outbox(t.database.db, t.merchant.merchantId)).slice(eventsBefore);
        assert.deepEqual(
          newEvents.map((e) => e.type),
          ["protection.voided", "order.merchant_refunded"],
        );
        assert.deepEqual(newEvents[1].data, response.body);

        const again = await assertChangesNothing(
          t.database.db,
          () => secret.post(`/orders/${quote.orderId}/refund`, {}),
          1,
        );
        assertError(again, { status: 409, code: "order_already_refunded", param: "orderId" });
      });
    }

    it("is atomic: a fault after its writes leaves the order protected, the plan active, no credit and no events", async () => {
      const { quote, confirmation } = await protectOrder(widget, t.merchant.programId);
      hook = () => {
        hook = undefined;
        throw new Error("injected fault");
      };
      const failed = await assertChangesNothing(t.database.db, () =>
        secret.post(`/orders/${quote.orderId}/refund`, {}),
      );
      assertError(failed, { status: 500, code: "internal_error" });
      assert.equal((await planRow(confirmation.planId))!.status, "active");
      const order = await t.database.db.get<{ status: string }>("SELECT status FROM orders WHERE plan_id = ?", [
        confirmation.planId,
      ]);
      assert.equal(order!.status, "protected");
      assert.equal((await secret.post(`/orders/${quote.orderId}/refund`, {})).status, 200);
    });

    it("an unknown order is 404; a body with fields is 400 parameter_unknown; a widget key is 403", async () => {
      const unknown = await assertChangesNothing(
        t.database.db,
        () => secret.post("/orders/order-never-protected/refund", {}),
        1,
      );
      assertError(unknown, { status: 404, code: "resource_missing", param: "orderId" });
      const { quote } = await protectOrder(widget, t.merchant.programId);
      assertError(
        await assertChangesNothing(t.database.db, () =>
          secret.post(`/orders/${quote.orderId}/refund`, { amount_cents: 100 }),
        ),
        {
          status: 400,
          code: "parameter_unknown",
          param: "amount_cents",
        },
      );
      assertError(await assertChangesNothing(t.database.db, () => widget.post(`/orders/${quote.orderId}/refund`, {})), {
        status: 403,
        code: "secret_key_required",
      });
    });
  });

  describe("confirm", () => {
    it("a second quote for an already protected order cannot be confirmed: 409 order_already_protected, nothing created", async () => {
      const { quote } = await protectOrder(widget, t.merchant.programId);
      const second = await createQuote(widget, t.merchant.programId, { order_id: quote.orderId });
      const response = await assertChangesNothing(
        t.database.db,
        () => widget.post("/offers/confirm", confirmBody(second.quote, second.token)),
        1,
      );
      assertError(response, { status: 409, code: "order_already_protected" });
      assert.equal((await quoteRow(second.quote.quoteId))!.status, "open");
    });

    it("the quote token is stored only as its SHA-256 hex", async () => {
      const { quote, token } = await createQuote(widget, t.merchant.programId);
      const row = await quoteRow(quote.quoteId);
      assert.notEqual(row!.token_hash, token);
      assert.equal(row!.token_hash, sha256Hex(token));
      const dump = JSON.stringify(await t.database.db.all("SELECT * FROM quotes WHERE id = ?", [quote.quoteId]));
      assert.ok(!dump.includes(token), "the token appears nowhere in the row");
    });

    it("consent surface is widget for wk_, api for mch_ and server for headless; the disclosure is the full two sentences", async () => {
      const viaWidget = await protectOrder(widget, t.merchant.programId);
      const viaApi = await protectOrder(secret, t.merchant.programId);
      const viaServer = await protectOrderHeadless(secret, t.merchant.programId);
      for (const [planId, surface] of [
        [viaWidget.confirmation.planId, "widget"],
        [viaApi.confirmation.planId, "api"],
        [viaServer.confirmation.plan_id, "server"],
      ]) {
        const row = await t.database.db.get<{ consent: string }>("SELECT consent FROM plans WHERE id = ?", [planId]);
        const consent = JSON.parse(row!.consent);
        assert.equal(consent.surface, surface);
        assert.equal(consent.disclosureText, FULL_DISCLOSURE);
      }
    });
  });
});

describe.each(DIALECTS)("reference numbers (%s)", (dialect) => {
  let t: TestApi;
  let widget: ApiClient;
  /** Reference numbers are the only 16-byte draws (8 Crockford symbols × 2 bytes); the second one repeats the first. */
  const referenceDraws: Buffer[] = [];
  beforeAll(async () => {
    t = await startTestApi({
      dialect,
      random: (size) => {
        if (size !== 16) return randomBytes(size);
        const bytes = referenceDraws.length === 1 ? Buffer.from(referenceDraws[0]) : randomBytes(size);
        referenceDraws.push(bytes);
        return bytes;
      },
    });
    widget = apiClient(t.baseUrl, t.merchant.publishableKey);
  });
  afterAll(() => t.close());

  it("match ^CLM-[0-9]{4}-[0-9A-HJKMNP-TV-Z]{8}$, carry the clock's UTC year, and are drawn again on a collision", async () => {
    const { confirmation } = await protectOrder(widget, t.merchant.programId);
    assert.match(confirmation.referenceNumber, REFERENCE_NUMBER_PATTERN);
    assert.ok(confirmation.referenceNumber.startsWith("CLM-2026-"));
    const second = await protectOrder(widget, t.merchant.programId);
    assert.equal(referenceDraws.length, 3, "the second confirm drew the first number again, then a fresh one");
    assert.match(second.confirmation.referenceNumber, REFERENCE_NUMBER_PATTERN);
    assert.notEqual(second.confirmation.referenceNumber, confirmation.referenceNumber, "a collision is drawn again");
    const stored = await t.database.db.all<{ reference_number: string }>("SELECT reference_number FROM plans");
    assert.deepEqual(
      stored.map((r) => r.reference_number).sort(),
      [confirmation.referenceNumber, second.confirmation.referenceNumber].sort(),
    );

    t.clock.now = Date.parse("2027-01-01T00:00:00.000Z");
    const nextYear = await protectOrder(widget, t.merchant.programId);
    assert.match(nextYear.confirmation.referenceNumber, /^CLM-2027-[0-9A-HJKMNP-TV-Z]{8}$/);
  });
});
