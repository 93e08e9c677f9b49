import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import pino from "pino";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient, orderContextFor } from "../support/client.ts";

for (const dialect of DIALECTS) {
  describe(`structured logs (${dialect})`, () => {
    let t: TestApi;
    const lines: string[] = [];
    before(async () => {
      const sink = new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) });
      t = await startTestApi({ dialect, logger: pino({ level: "trace" }, sink) });
    });
    after(() => t.close());

    it("log one line per request with its request id, and never a key, token, secret or e-mail address", async () => {
      const widget = apiClient(t.baseUrl, t.merchant.publishableKey);
      const quote = await widget.post("/offers/quote", {
        order_amount_cents: 2_500, order_id: "order-log", protection_program_id: t.merchant.programId, customer_email: "buyer@example.com",
      }, { idempotencyKey: "logging-test-idempotency-1" });
      const token = quote.headers.get("x-service-quote-token")!;
      const confirm = await widget.post("/offers/confirm", { quoteId: quote.body.quoteId, quoteToken: token, order_context: orderContextFor(quote.body) });
      await apiClient(t.baseUrl, t.merchant.secretKey).get("/purchases");
      // The real key with its last character changed: well-formed, unknown.
      const wrongKey = t.merchant.secretKey.slice(0, -1) + (t.merchant.secretKey.endsWith("x") ? "y" : "x");
      const refused = await apiClient(t.baseUrl, wrongKey).get("/purchases");
      assert.equal(refused.status, 401);

      const log = lines.join("");
      for (const secret of [t.merchant.publishableKey, t.merchant.secretKey, wrongKey, token, "buyer@example.com", "logging-test-idempotency-1"]) {
        assert.ok(!log.includes(secret), `the log must not contain ${secret.slice(0, 12)}…`);
      }
      const requests = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === "request");
      assert.equal(requests.length, 4);
      assert.deepEqual(
        requests.map((entry) => [entry.method, entry.path, entry.status]),
        [["POST", "/api/v1/offers/quote", 200], ["POST", "/api/v1/offers/confirm", 200], ["GET", "/api/v1/purchases", 200], ["GET", "/api/v1/purchases", 401]],
      );
      assert.equal(requests[1].request_id, confirm.headers.get("x-request-id"));
      assert.equal(requests[3].request_id, refused.body.error.request_id);
    });
  });
}
