import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient, orderContextFor } from "../support/client.ts";
import { REFERENCE_NUMBER_PATTERN } from "../../server/domain/ids.ts";

for (const dialect of DIALECTS) {
  describe(`offers: quote → confirm (${dialect})`, () => {
    let t: TestApi;
    before(async () => (t = await startTestApi({ dialect })));
    after(() => t.close());

    it("quotes with the token only in the header, then confirms into a plan with a reference number", async () => {
      const widget = apiClient(t.baseUrl, t.merchant.publishableKey);
      const quote = await widget.post("/offers/quote", { order_amount_cents: 12_999, order_id: "order-1", protection_program_id: t.merchant.programId });
      assert.equal(quote.status, 200);
      const token = quote.headers.get("x-service-quote-token");
      assert.ok(token && token.length >= 40);
      assert.ok(!quote.text.includes(token), "the token never appears in the body");
      assert.equal(quote.body.currency, "USD");
      assert.equal(quote.body.feeCents, 390);
      assert.equal(quote.body.disclosureText, "This is not insurance. This is a contractual refund guarantee provided by Test Protection Ltd.");

      const confirm = await widget.post("/offers/confirm", { quoteId: quote.body.quoteId, quoteToken: token, order_context: orderContextFor(quote.body) });
      assert.equal(confirm.status, 200, confirm.text);
      assert.match(confirm.body.referenceNumber, REFERENCE_NUMBER_PATTERN);
      assert.equal(confirm.body.status, "confirmed");
      assert.equal(confirm.body.freeLookEndsAt, "2026-11-24T11:59:00.000Z");

      const again = await widget.post("/offers/confirm", { quoteId: quote.body.quoteId, quoteToken: token, order_context: orderContextFor(quote.body) });
      assert.equal(again.status, 409);
      assert.equal(again.body.error.code, "quote_already_used");
    });
  });
}
