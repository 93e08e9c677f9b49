import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { assertChangesNothing, assertError, createQuote } from "../support/api-assertions.ts";
import { confirmBody, protectOrderHeadless } from "../support/protection-flows.ts";
import type { Payer } from "../../server/vocabulary/plans.ts";

// docs/api.md "Who pays", the storefront: the widget and the Shopify checkout (publishable key) quote a merchant-paid
// program to show its notice (the buyer pays nothing) but may not confirm it — the merchant's server (secret key)
// protects such orders; a split is quoted to the page with the buyer's part.

describe.each(DIALECTS)("who pays at the storefront (%s)", (dialect) => {
  let t: TestApi;
  beforeAll(async () => (t = await startTestApi({ dialect })));
  afterAll(() => t.close());

  async function merchantPaying(payer: Payer, buyerShareBps: number | null = null) {
    const merchant = await t.createMerchant(`${payer} pays at the storefront`);
    await t.database.db.run("UPDATE protection_programs SET payer = ?, buyer_share_bps = ? WHERE id = ?", [
      payer,
      buyerShareBps,
      merchant.programId,
    ]);
    return merchant;
  }

  it("a publishable key quotes a merchant-paid program at no cost to the buyer, cannot confirm it (409 payer_requires_server_confirm, nothing changes); the server's path protects the order", async () => {
    const merchant = await merchantPaying("merchant");
    const widget = apiClient(t.baseUrl, merchant.publishableKey);
    const { quote, token } = await createQuote(widget, merchant.programId, { order_id: "order-merchant-paid" });
    assert.deepEqual([quote.payer, quote.buyerFeeCents, quote.merchantFeeCents], ["merchant", 0, quote.feeCents]);
    assert.ok(token);
    // The page's words: the notice naming the store in place of the offer's label, in the buyer's language.
    assert.equal(quote.offerTexts.label, "Protected by merchant pays at the storefront");
    const { quote: french } = await createQuote(widget, merchant.programId, { locale: "fr" });
    assert.equal(french.offerTexts.label, "Protégé par merchant pays at the storefront");

    const refused = await assertChangesNothing(
      t.database.db,
      () => widget.post("/offers/confirm", confirmBody(quote, token)),
      1,
    );
    assertError(refused, { status: 409, code: "payer_requires_server_confirm", param: "quoteId" });
    assert.equal(
      refused.body.error.message,
      "This program is paid by the merchant: confirm each order from your server (headless confirm).",
    );

    // The merchant's server: the same order quoted and confirmed with the secret key, the merchant paying all of it.
    const secret = apiClient(t.baseUrl, merchant.secretKey);
    const { quote: headless } = await protectOrderHeadless(secret, merchant.programId, {
      order_id: "order-merchant-paid",
    });
    assert.deepEqual(
      [headless.payer, headless.buyer_fee_cents, headless.merchant_fee_cents],
      ["merchant", 0, headless.fee_cents],
    );
  });

  it("a publishable key's quote for a split program carries the buyer's part for the page to show", async () => {
    // 12,999 cents at the program's 3 %: a fee of 389.97 → 390; the buyer pays 25 % of it, 97.5 → 98 (half up).
    const merchant = await merchantPaying("split", 2_500);
    const { quote } = await createQuote(apiClient(t.baseUrl, merchant.publishableKey), merchant.programId, {
      order_amount_cents: 12_999,
    });
    assert.deepEqual(
      [quote.feeCents, quote.payer, quote.buyerFeeCents, quote.merchantFeeCents],
      [390, "split", 98, 292],
    );
  });
});
