import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient, orderContextFor, type ApiResponse } from "../support/client.ts";
import {
  assertChangesNothing,
  assertError,
  assertRequestId,
  createQuote,
  mintLiveCredentials,
  type LiveCredentials,
} from "../support/api-assertions.ts";
import type { NewMerchant } from "../../server/domain/merchants.ts";

// Browser access (CORS) on the widget routes: preflights for any origin; test publishable keys from any origin;
// live publishable keys only from the merchant's allowed_origins; secret keys and secret-only routes never.

const SHOP = "https://shop.example.com";
const FOREIGN = "https://evil.example.net";
const WIDGET_PATHS = ["/offers/quote", "/offers/confirm", "/offers/decline"];

const headerList = (response: Response | ApiResponse, name: string) =>
  (response.headers.get(name) ?? "")
    .split(",")
    .map((value) => value.trim().toLowerCase())
    .filter(Boolean);

describe.each(DIALECTS)("CORS (%s)", (dialect) => {
  let t: TestApi;
  let shop: NewMerchant;
  let live: LiveCredentials;
  beforeAll(async () => {
    t = await startTestApi({ dialect });
    shop = await t.createMerchant("Shop With Origins", [SHOP]);
    live = await mintLiveCredentials(t, shop.merchantId);
  });
  afterAll(() => t.close());

  const preflight = (path: string, origin: string) =>
    t.fetch(`${t.baseUrl}${path}`, {
      method: "OPTIONS",
      headers: {
        Origin: origin,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
      },
    });

  describe("preflight", () => {
    for (const path of WIDGET_PATHS) {
      it(`OPTIONS ${path} from any origin is 204 and allows the origin, POST and the widget's headers`, async () => {
        for (const origin of [SHOP, FOREIGN, "http://localhost:3000"]) {
          const response = await preflight(path, origin);
          assert.equal(response.status, 204);
          assert.equal(await response.text(), "");
          assert.equal(response.headers.get("access-control-allow-origin"), origin);
          assert.ok(headerList(response, "access-control-allow-methods").includes("post"));
          const allowed = headerList(response, "access-control-allow-headers");
          for (const header of ["authorization", "idempotency-key", "content-type"])
            assert.ok(allowed.includes(header), `${header} in ${allowed}`);
          assert.ok(headerList(response, "vary").includes("origin"), "Vary: Origin");
          assert.equal(
            response.headers.get("access-control-allow-credentials"),
            null,
            "no cookies: the key is the credential",
          );
        }
      });
    }

    it("a preflight changes nothing", async () => {
      await assertChangesNothing(t.database.db, () => preflight("/offers/quote", FOREIGN));
    });

    it("secret-only routes answer no preflight: OPTIONS is not 204 and carries no Access-Control-Allow-Origin", async () => {
      for (const path of [
        "/purchases",
        "/offers/void",
        "/headless/quote",
        "/orders/order-1/refund",
        "/merchant/claims",
      ]) {
        const response = await preflight(path, SHOP);
        assert.notEqual(response.status, 204, path);
        assert.ok(response.status >= 400, `${path}: ${response.status}`);
        assert.equal(response.headers.get("access-control-allow-origin"), null, path);
        assert.equal(response.headers.get("access-control-allow-headers"), null, path);
        await response.body?.cancel();
      }
    });
  });

  describe("actual requests", () => {
    it("a test publishable key from any origin gets the origin allowed and the quote headers exposed", async () => {
      const widget = apiClient(t.baseUrl, t.merchant.publishableKey);
      for (const origin of [SHOP, FOREIGN]) {
        const response = await widget.post(
          "/offers/quote",
          {
            order_amount_cents: 2_500,
            order_id: `o-${crypto.randomUUID()}`,
            protection_program_id: t.merchant.programId,
          },
          { headers: { Origin: origin } },
        );
        assert.equal(response.status, 200, response.text);
        assert.equal(response.headers.get("access-control-allow-origin"), origin);
        const exposed = headerList(response, "access-control-expose-headers");
        for (const header of ["x-service-quote-token", "idempotent-replayed", "x-request-id"])
          assert.ok(exposed.includes(header), `${header} in ${exposed}`);
        assert.ok(headerList(response, "vary").includes("origin"));
        assert.ok(response.headers.get("x-service-quote-token"));
      }
    });

    it("confirm and decline from a browser carry the same CORS headers", async () => {
      const widget = apiClient(t.baseUrl, t.merchant.publishableKey);
      const headers = { Origin: FOREIGN };
      const first = await createQuote(widget, t.merchant.programId);
      const confirm = await widget.post(
        "/offers/confirm",
        { quoteId: first.quote.quoteId, quoteToken: first.token, order_context: orderContextFor(first.quote) },
        { headers },
      );
      const second = await createQuote(widget, t.merchant.programId);
      const decline = await widget.post("/offers/decline", { quoteId: second.quote.quoteId }, { headers });
      for (const response of [confirm, decline]) {
        assert.equal(response.status, 200, response.text);
        assert.equal(response.headers.get("access-control-allow-origin"), FOREIGN);
        assert.ok(headerList(response, "access-control-expose-headers").includes("x-request-id"));
      }
    });

    it("a replayed response is readable cross-origin, with Idempotent-Replayed exposed", async () => {
      const widget = apiClient(t.baseUrl, t.merchant.publishableKey);
      const body = {
        order_amount_cents: 2_500,
        order_id: `o-${crypto.randomUUID()}`,
        protection_program_id: t.merchant.programId,
      };
      const options = { idempotencyKey: crypto.randomUUID(), headers: { Origin: SHOP } };
      const first = await widget.post("/offers/quote", body, options);
      const replay = await widget.post("/offers/quote", body, options);
      assert.equal(replay.status, 200);
      assert.equal(replay.headers.get("idempotent-replayed"), "true");
      assert.equal(replay.headers.get("access-control-allow-origin"), SHOP);
      assert.equal(replay.headers.get("x-service-quote-token"), first.headers.get("x-service-quote-token"));
    });

    it("a live publishable key from the merchant's allowed origin quotes and confirms, with the origin allowed", async () => {
      const widget = apiClient(t.baseUrl, live.publishableKey);
      const headers = { Origin: SHOP };
      const quote = await widget.post(
        "/offers/quote",
        { order_amount_cents: 8_000, order_id: `o-${crypto.randomUUID()}`, protection_program_id: live.programId },
        { headers },
      );
      assert.equal(quote.status, 200, quote.text);
      assert.equal(quote.body.livemode, true);
      assert.equal(quote.headers.get("access-control-allow-origin"), SHOP);
      assert.ok(headerList(quote, "access-control-expose-headers").includes("x-service-quote-token"));

      const confirm = await widget.post(
        "/offers/confirm",
        {
          quoteId: quote.body.quoteId,
          quoteToken: quote.headers.get("x-service-quote-token"),
          order_context: orderContextFor(quote.body),
          customer_email: "ada@example.com",
        },
        { headers },
      );
      assert.equal(confirm.status, 200, confirm.text);
      assert.equal(confirm.headers.get("access-control-allow-origin"), SHOP);
    });

    it("a live publishable key from a foreign origin is 403 origin_not_allowed, creates nothing, and the error is not readable by that origin", async () => {
      const widget = apiClient(t.baseUrl, live.publishableKey);
      const { quote, token } = await createQuote(widget, live.programId);
      const requests = [
        () =>
          widget.post(
            "/offers/quote",
            { order_amount_cents: 8_000, order_id: `o-${crypto.randomUUID()}`, protection_program_id: live.programId },
            { headers: { Origin: FOREIGN } },
          ),
        () =>
          widget.post(
            "/offers/confirm",
            { quoteId: quote.quoteId, quoteToken: token, order_context: orderContextFor(quote) },
            { headers: { Origin: FOREIGN } },
          ),
        () => widget.post("/offers/decline", { quoteId: quote.quoteId }, { headers: { Origin: FOREIGN } }),
        // Same host, other scheme or port: a different origin.
        () =>
          widget.post(
            "/offers/decline",
            { quoteId: quote.quoteId },
            { headers: { Origin: "http://shop.example.com" } },
          ),
        () =>
          widget.post(
            "/offers/decline",
            { quoteId: quote.quoteId },
            { headers: { Origin: "https://shop.example.com:8443" } },
          ),
      ];
      for (const request of requests) {
        const response = await assertChangesNothing(t.database.db, request);
        assertError(response, { status: 403, code: "origin_not_allowed" });
        assert.equal(response.headers.get("access-control-allow-origin"), null);
      }
      // The quote is untouched: the allowed origin can still confirm it.
      const confirm = await widget.post(
        "/offers/confirm",
        { quoteId: quote.quoteId, quoteToken: token, order_context: orderContextFor(quote) },
        { headers: { Origin: SHOP } },
      );
      assert.equal(confirm.status, 200, confirm.text);
    });

    it("a secret key sent with an Origin gets no Access-Control-Allow-Origin", async () => {
      for (const key of [t.merchant.secretKey, live.secretKey]) {
        const secret = apiClient(t.baseUrl, key);
        const programId = key === live.secretKey ? live.programId : t.merchant.programId;
        const quote = await secret.post(
          "/offers/quote",
          { order_amount_cents: 2_500, order_id: `o-${crypto.randomUUID()}`, protection_program_id: programId },
          { headers: { Origin: SHOP } },
        );
        assert.equal(quote.status, 200, quote.text);
        assert.equal(quote.headers.get("access-control-allow-origin"), null);
        assert.equal(quote.headers.get("access-control-expose-headers"), null);
        const list = await secret.get("/purchases", { headers: { Origin: SHOP } });
        assert.equal(list.status, 200);
        assert.equal(list.headers.get("access-control-allow-origin"), null);
      }
    });

    it("a request without an Origin (not a browser) gets no CORS headers", async () => {
      const widget = apiClient(t.baseUrl, t.merchant.publishableKey);
      const response = await widget.post("/offers/quote", {
        order_amount_cents: 2_500,
        order_id: `o-${crypto.randomUUID()}`,
        protection_program_id: t.merchant.programId,
      });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("access-control-allow-origin"), null);
      assertRequestId(response);
    });

    it("an authentication failure on a widget route is readable by the page (so the widget can fail open)", async () => {
      const response = await apiClient(t.baseUrl).post(
        "/offers/quote",
        { order_amount_cents: 2_500, order_id: "o-x", protection_program_id: t.merchant.programId },
        { headers: { Origin: FOREIGN } },
      );
      assertError(response, { status: 401, code: "api_key_missing" });
      assert.equal(response.headers.get("access-control-allow-origin"), FOREIGN);
    });
  });
});
