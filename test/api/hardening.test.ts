// Issue 11's edge rules over HTTP, on both databases: NUL characters refused at validation, JSON bodies only, a
// replayed error names the new request, no API answer is cacheable, and idempotency keys are scoped by key kind.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient, type ApiResponse } from "../support/client.ts";
import { assertChangesNothing, assertError, createQuote } from "../support/api-assertions.ts";

const PUBLIC_ADDRESS = "93.184.216.34";
const newKey = () => `hardening-${crypto.randomUUID()}`;

describe.each(DIALECTS)("API edge hardening (%s)", (dialect) => {
  let t: TestApi;
  let widget: ReturnType<typeof apiClient>;
  let secret: ReturnType<typeof apiClient>;
  beforeAll(async () => {
    t = await startTestApi({ dialect, resolveHost: async () => [{ address: PUBLIC_ADDRESS, family: 4 }] });
    widget = apiClient(t.baseUrl, t.merchant.publishableKey);
    secret = apiClient(t.baseUrl, t.merchant.secretKey);
  });
  afterAll(() => t.close());

  const quoteBody = (fields: Record<string, unknown> = {}) => ({
    order_amount_cents: 12_999,
    order_id: `order-${crypto.randomUUID()}`,
    protection_program_id: t.merchant.programId,
    ...fields,
  });

  describe("NUL characters are 400 parameter_invalid naming the parameter, and change nothing", () => {
    const cases: { name: string; send: () => Promise<ApiResponse>; param: string | null }[] = [
      {
        name: "a publishable-key decline's quoteId",
        send: () => widget.post("/offers/decline", { quoteId: "qt_\u0000" }),
        param: "quoteId",
      },
      {
        name: "a quote's order_id",
        send: () => widget.post("/offers/quote", quoteBody({ order_id: "order-\u0000-1" })),
        param: "order_id",
      },
      {
        name: "a nested order_context field",
        send: () =>
          widget.post("/offers/confirm", {
            quoteId: "qt_x",
            quoteToken: "t",
            order_context: { order: { id: "a\u0000" } },
          }),
        param: "order_context.order.id",
      },
      {
        name: "an object key",
        send: () => secret.post("/headless/decline", { ["quote_id\u0000"]: "qt_x" }),
        param: "quote_id\u0000",
      },
      {
        name: "a void reason",
        send: () => secret.post("/offers/void", { planId: "pln_x", reason: "\u0000" }),
        param: "reason",
      },
      { name: "a path parameter", send: () => secret.post("/orders/order%00x/refund", {}), param: "orderId" },
      { name: "a GET path parameter", send: () => secret.get("/purchases/pur%00x"), param: "purchaseId" },
      { name: "a query parameter", send: () => secret.get("/purchases?order_id=a%00b"), param: "order_id" },
      {
        name: "a webhook URL",
        send: () => secret.post("/webhooks/endpoints", { url: "https://hooks.example.test/\u0000", events: ["*"] }),
        param: "url",
      },
    ];
    for (const { name, send, param } of cases) {
      it(name, async () => {
        const response = await assertChangesNothing(t.database.db, send);
        assertError(response, { status: 400, code: "parameter_invalid", param });
        assert.match(response.body.error.message, /NUL/);
      });
    }
  });

  it("a non-JSON Content-Type on a JSON route is 415 media_type_unsupported and changes nothing; application/json with a charset is fine", async () => {
    for (const type of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/jsonx",
    ]) {
      const response = await assertChangesNothing(t.database.db, () =>
        widget.post("/offers/quote", undefined, {
          raw: JSON.stringify(quoteBody()),
          headers: { "Content-Type": type },
        }),
      );
      assertError(response, { status: 415, code: "media_type_unsupported", param: "Content-Type" });
    }
    for (const type of ["application/json; charset=utf-8", "Application/JSON", "application/merge-patch+json"]) {
      const response = await widget.post("/offers/quote", undefined, {
        raw: JSON.stringify(quoteBody()),
        headers: { "Content-Type": type },
      });
      assert.equal(response.status, 200, `${type}: ${response.text}`);
    }
  });

  it("a replayed error answers with the new request's id (its X-Request-Id), the rest of the body unchanged", async () => {
    const key = newKey();
    const body = { planId: "pln_doesnotexist0000000000" };
    const first = await secret.post("/offers/void", body, { idempotencyKey: key });
    assertError(first, { status: 404, code: "resource_missing" });
    const replay = await secret.post("/offers/void", body, { idempotencyKey: key });
    assert.equal(replay.headers.get("idempotent-replayed"), "true");
    assertError(replay, { status: 404, code: "resource_missing" });
    assert.notEqual(replay.body.error.request_id, first.body.error.request_id);
    assert.deepEqual({ ...replay.body.error, request_id: undefined }, { ...first.body.error, request_id: undefined });
  });

  it("every API answer is Cache-Control: no-store — the signing secret's reveal on create, rotate and their replays above all", async () => {
    const key = newKey();
    const created = await secret.post(
      "/webhooks/endpoints",
      { url: "https://hooks.example.test/in", events: ["*"] },
      { idempotencyKey: key },
    );
    assert.equal(created.status, 200, created.text);
    assert.match(created.body.secret, /^whsec_/);
    const replayed = await secret.post(
      "/webhooks/endpoints",
      { url: "https://hooks.example.test/in", events: ["*"] },
      { idempotencyKey: key },
    );
    const rotated = await secret.post(`/webhooks/endpoints/${created.body.id}/secret/rotate`, {});
    assert.equal(rotated.status, 200, rotated.text);
    const quote = await widget.post("/offers/quote", quoteBody());
    const refused = await widget.get("/purchases");
    for (const response of [created, replayed, rotated, quote, refused])
      assert.equal(response.headers.get("cache-control"), "no-store");
  });

  describe("idempotency keys are scoped by key kind", () => {
    it("a key pre-claimed with the publishable key does not block the secret key's void, nor get its response replayed", async () => {
      const { quote, token } = await createQuote(widget, t.merchant.programId);
      const confirmed = await widget.post("/offers/confirm", {
        quoteId: quote.quoteId,
        quoteToken: token,
        order_context: {
          schema_version: "2026-01-01",
          order: {
            id: quote.orderId,
            purchased_at: new Date(t.clock.now).toISOString(),
            currency: "USD",
            covered_amount_cents: quote.coveredAmountCents,
          },
          participants: { mode: "unnamed" },
        },
      });
      assert.equal(confirmed.status, 200, confirmed.text);
      const key = newKey();
      const preClaim = await widget.post("/offers/quote", quoteBody(), { idempotencyKey: key });
      assert.equal(preClaim.status, 200, preClaim.text);

      const voidBody = { orderId: quote.orderId, reason: "order_cancelled" };
      const voided = await secret.post("/offers/void", voidBody, { idempotencyKey: key });
      assert.equal(voided.status, 200, voided.text);
      assert.equal(voided.headers.get("idempotent-replayed"), null);
      assert.equal(voided.body.status, "voided");

      const mimic = await widget.post("/offers/void", voidBody, { idempotencyKey: key });
      assertError(mimic, { status: 403, code: "secret_key_required" });
      assert.equal(
        mimic.headers.get("idempotent-replayed"),
        null,
        "the secret key's response is never replayed to the publishable key",
      );
    });

    it("the same key and body from both kinds run once each: two quotes, each replayed only to its own kind", async () => {
      const key = newKey();
      const body = quoteBody();
      const fromWidget = await widget.post("/offers/quote", body, { idempotencyKey: key });
      const fromServer = await secret.post("/offers/quote", body, { idempotencyKey: key });
      assert.equal(fromWidget.status, 200);
      assert.equal(fromServer.status, 200);
      assert.notEqual(fromWidget.body.quoteId, fromServer.body.quoteId);
      assert.equal(fromServer.headers.get("idempotent-replayed"), null);
      const again = await secret.post("/offers/quote", body, { idempotencyKey: key });
      assert.equal(again.headers.get("idempotent-replayed"), "true");
      assert.equal(again.body.quoteId, fromServer.body.quoteId);
    });
  });
});
