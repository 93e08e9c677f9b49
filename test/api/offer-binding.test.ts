import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient, orderContextFor } from "../support/client.ts";
import { assertChangesNothing, assertError, createQuote } from "../support/api-assertions.ts";
import { confirmBody, protectOrder, type ApiClient } from "../support/protection-flows.ts";
import { CLOCK_SKEW_MS } from "../../server/domain/order-context.ts";
import { FREE_LOOK_MS, QUOTE_LIFETIME_MS } from "../../server/domain/disclosure.ts";
import type { Quote } from "../../packages/sdk/src/responses.ts";

// What a confirm or decline may do with a quote: the order_context must be the order the buyer was offered
// (purchased after the quote, the quoted covered amount), a publishable key declines only quotes a publishable key
// made, and a confirm proves its token before it learns a quote's state.

const at = (ms: number) => new Date(ms).toISOString();

describe.each(DIALECTS)("offers bound to their quote (%s)", (dialect) => {
  let t: TestApi;
  let widget: ApiClient;
  let secret: ApiClient;
  beforeAll(async () => {
    t = await startTestApi({ dialect });
    widget = apiClient(t.baseUrl, t.merchant.publishableKey);
    secret = apiClient(t.baseUrl, t.merchant.secretKey);
  });
  afterAll(() => t.close());

  const quoteRow = (id: string) =>
    t.database.db.get<{ status: string; decline_reason: string | null; decided_at: number | null }>(
      "SELECT status, decline_reason, decided_at FROM quotes WHERE id = ?",
      [id],
    );

  /** A confirm of `quote` with its order_context changed by `change`: 422 naming `param`, and no row changed. */
  async function assertContextRefused(
    quote: Quote,
    token: string,
    param: string,
    change: (order: Record<string, unknown>) => void,
  ) {
    const body = confirmBody(quote, token);
    change(body.order_context.order);
    const response = await assertChangesNothing(t.database.db, () => widget.post("/offers/confirm", body), 1);
    assertError(response, { status: 422, code: "order_context_invalid", param });
    assert.equal((await quoteRow(quote.quoteId))!.status, "open");
  }

  describe("order_context", () => {
    it("purchased_at in 1970 is 422 and creates nothing (it would void the 48-hour free look from the start)", async () => {
      const { quote, token } = await createQuote(widget, t.merchant.programId);
      await assertContextRefused(
        quote,
        token,
        "order_context.order.purchased_at",
        (order) => (order.purchased_at = "1970-01-01T00:00:00Z"),
      );
    });

    it(`purchased_at from the quote's creation less ${CLOCK_SKEW_MS / 60_000} minutes to now plus as much; 1 ms outside is 422`, async () => {
      const made = t.clock.now;
      const early = await createQuote(widget, t.merchant.programId);
      const late = await createQuote(widget, t.merchant.programId);
      t.clock.advance(10 * 60_000);
      await assertContextRefused(
        early.quote,
        early.token,
        "order_context.order.purchased_at",
        (order) => (order.purchased_at = at(made - CLOCK_SKEW_MS - 1)),
      );
      await assertContextRefused(
        late.quote,
        late.token,
        "order_context.order.purchased_at",
        (order) => (order.purchased_at = at(t.clock.now + CLOCK_SKEW_MS + 1)),
      );

      for (const [{ quote, token }, purchasedAt] of [
        [early, made - CLOCK_SKEW_MS],
        [late, t.clock.now + CLOCK_SKEW_MS],
      ] as const) {
        const confirm = await widget.post("/offers/confirm", {
          quoteId: quote.quoteId,
          quoteToken: token,
          order_context: orderContextFor(quote, at(purchasedAt)),
        });
        assert.equal(confirm.status, 200, confirm.text);
        assert.equal(confirm.body.freeLookEndsAt, at(purchasedAt + FREE_LOOK_MS));
      }
    });

    it("covered_amount_cents other than the quote's is 422; the consent record keeps the quoted amount the buyer saw", async () => {
      const { quote, token } = await createQuote(widget, t.merchant.programId, { order_amount_cents: 12_999 });
      assert.equal(quote.coveredAmountCents, 12_999);
      for (const covered of [1, 12_998, 13_000]) {
        await assertContextRefused(
          quote,
          token,
          "order_context.order.covered_amount_cents",
          (order) => (order.covered_amount_cents = covered),
        );
      }
      const confirm = await widget.post("/offers/confirm", confirmBody(quote, token));
      assert.equal(confirm.status, 200, confirm.text);
      const purchase = await secret.get(`/purchases/${confirm.body.planId}`);
      assert.equal(purchase.body.coveredAmountCents, 12_999);
      assert.equal(purchase.body.consent.coveredAmountCents, 12_999);
    });
  });

  describe("decline by the publishable key", () => {
    it("of a quote made with the secret key is 404 exactly as an unknown id, and changes nothing; the secret key can still decline it", async () => {
      const headless = await secret.post("/headless/quote", {
        order_amount_cents: 5_000,
        order_id: `order-${crypto.randomUUID()}`,
        protection_program_id: t.merchant.programId,
      });
      assert.equal(headless.status, 200, headless.text);
      const { quote: serverQuote } = await createQuote(secret, t.merchant.programId);
      const unknown = await widget.post("/offers/decline", { quoteId: "qt_does_not_exist" });
      assertError(unknown, { status: 404, code: "resource_missing", param: "quoteId" });

      for (const quoteId of [headless.body.quote_id, serverQuote.quoteId]) {
        const before = await quoteRow(quoteId);
        const response = await assertChangesNothing(
          t.database.db,
          () => widget.post("/offers/decline", { quoteId, reason: "not mine" }),
          1,
        );
        assertError(response, { status: 404, code: "resource_missing", param: "quoteId" });
        assert.equal(
          response.body.error.message,
          unknown.body.error.message.replace("qt_does_not_exist", quoteId),
          "the same answer as an unknown quote",
        );
        assert.deepEqual(await quoteRow(quoteId), before);
      }
      assert.equal((await secret.post("/headless/decline", { quote_id: headless.body.quote_id })).status, 200);
      assert.equal((await secret.post("/offers/decline", { quoteId: serverQuote.quoteId })).status, 200);
    });

    it("of its own kind's quote still declines it, and the secret key declines those too", async () => {
      for (const client of [widget, secret]) {
        const { quote } = await createQuote(widget, t.merchant.programId);
        const response = await client.post("/offers/decline", { quoteId: quote.quoteId });
        assert.equal(response.status, 200, response.text);
        assert.equal((await quoteRow(quote.quoteId))!.status, "declined");
      }
    });

    it("of a confirmed secret-key quote is 404 too, not 409 quote_already_used", async () => {
      const { quote } = await protectOrder(secret, t.merchant.programId);
      const response = await assertChangesNothing(
        t.database.db,
        () => widget.post("/offers/decline", { quoteId: quote.quoteId }),
        1,
      );
      assertError(response, { status: 404, code: "resource_missing", param: "quoteId" });
    });
  });

  describe("confirm checks the token before the quote's state", () => {
    const states: [string, (quote: Quote, token: string) => Promise<void>, string][] = [
      [
        "a confirmed quote",
        async (quote, token) =>
          assert.equal((await widget.post("/offers/confirm", confirmBody(quote, token))).status, 200),
        "quote_already_used",
      ],
      [
        "a declined quote",
        async (quote) => assert.equal((await widget.post("/offers/decline", { quoteId: quote.quoteId })).status, 200),
        "quote_declined",
      ],
      ["an expired quote", async () => t.clock.advance(QUOTE_LIFETIME_MS), "quote_expired"],
    ];
    for (const [which, reach, code] of states) {
      it(`${which} with a wrong token is 403 quote_token_invalid and changes nothing; with its token, 409 ${code}`, async () => {
        const { quote, token } = await createQuote(widget, t.merchant.programId);
        const other = await createQuote(widget, t.merchant.programId);
        await reach(quote, token);
        const before = await quoteRow(quote.quoteId);
        for (const wrong of [`${token.slice(0, -2)}xx`, other.token]) {
          const response = await assertChangesNothing(
            t.database.db,
            () => widget.post("/offers/confirm", confirmBody(quote, wrong)),
            1,
          );
          assertError(response, { status: 403, code: "quote_token_invalid", param: "quoteToken" });
        }
        assert.deepEqual(await quoteRow(quote.quoteId), before);
        assertError(await widget.post("/offers/confirm", confirmBody(quote, token)), {
          status: 409,
          code,
          param: "quoteId",
        });
      });
    }

    it("the secret key's headless confirm (no token) sees the state", async () => {
      const quoted = await secret.post("/headless/quote", {
        order_amount_cents: 5_000,
        order_id: `order-${crypto.randomUUID()}`,
        protection_program_id: t.merchant.programId,
      });
      assert.equal((await secret.post("/headless/decline", { quote_id: quoted.body.quote_id })).status, 200);
      assertError(await secret.post("/headless/confirm", { quote_id: quoted.body.quote_id }), {
        status: 409,
        code: "quote_declined",
        param: "quote_id",
      });
    });
  });
});
