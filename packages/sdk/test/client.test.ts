import { describe, it } from "vitest";
import assert from "node:assert/strict";
import {
  canonicalJson,
  DEFAULT_RETRY,
  parseRetryAfter,
  ProtectionClient,
  retryDelayMs,
  ServiceError,
  ServiceHttpError,
  ServiceValidationError,
  shouldRetry,
} from "../src/index.ts";

const KEY = "mch_test_0123456789abcdefghijABCDEFGHIJ";

/** A client whose fetch records each request and answers 200 with `answer` (and a quote token header). */
function recordingClient(answer: unknown = {}) {
  const sent: { url: string; method: string; headers: Headers; body: string | undefined }[] = [];
  const client = new ProtectionClient({
    apiKey: KEY,
    baseUrl: "https://api.example.test/api/v1/",
    fetch: async (url, init) => {
      sent.push({
        url,
        method: init.method!,
        headers: new Headers(init.headers),
        body: init.body as string | undefined,
      });
      return new Response(JSON.stringify(answer), { status: 200, headers: { "X-Service-Quote-Token": "tok_1" } });
    },
  });
  return { client, sent, body: (i = 0) => JSON.parse(sent[i]!.body!) };
}

describe("ProtectionClient construction", () => {
  it("throws ServiceValidationError (a ServiceError, not an HTTP error) for an empty or missing apiKey", () => {
    for (const apiKey of ["", "   ", undefined, null, 42]) {
      assert.throws(
        () => new ProtectionClient({ apiKey } as never),
        (error: unknown) => {
          assert.ok(
            error instanceof ServiceValidationError &&
              error instanceof ServiceError &&
              !(error instanceof ServiceHttpError),
          );
          assert.equal(error.message, "apiKey must be a non-empty string");
          return true;
        },
      );
    }
  });

  it("rejects nonsensical retry and timeout options", () => {
    assert.throws(() => new ProtectionClient({ apiKey: KEY, retry: { maxAttempts: 0 } }), ServiceValidationError);
    assert.throws(() => new ProtectionClient({ apiKey: KEY, retry: { multiplier: 0.5 } }), ServiceValidationError);
    assert.throws(() => new ProtectionClient({ apiKey: KEY, timeoutMs: 0 }), ServiceValidationError);
  });

  it("has the spec's retry defaults and the resources of the PHP SDK surface", () => {
    assert.deepEqual(
      { ...DEFAULT_RETRY },
      { baseDelayMs: 250, jitter: true, maxAttempts: 3, multiplier: 2.0, retryAfterCeilingSeconds: 600 },
    );
    const client = new ProtectionClient({ apiKey: KEY });
    assert.equal(client.quotes, client.offers);
    assert.equal(client.headless.DISCLOSURE_PHRASE, "This is not insurance");
  });
});

describe("wire spelling", () => {
  it("sends the quote snake_case from either spelling, with auth, JSON and idempotency headers", async () => {
    const { client, sent, body } = recordingClient({ quoteId: "qt_1" });
    const camel = await client.offers.quote({
      orderAmountCents: 100,
      orderId: "o-1",
      protectionProgramId: "prg_1",
      customerEmail: "a@b.test",
    });
    await client.quotes.create({
      order_amount_cents: 100,
      order_id: "o-1",
      protection_program_id: "prg_1",
      customer_email: "a@b.test",
    });
    assert.deepEqual(camel, { quoteId: "qt_1", quoteToken: "tok_1" });
    assert.deepEqual(body(0), {
      order_amount_cents: 100,
      order_id: "o-1",
      protection_program_id: "prg_1",
      customer_email: "a@b.test",
    });
    assert.deepEqual(body(1), body(0));
    assert.equal(sent[0]!.url, "https://api.example.test/api/v1/offers/quote");
    assert.equal(sent[0]!.method, "POST");
    assert.equal(sent[0]!.headers.get("authorization"), `Bearer ${KEY}`);
    assert.equal(sent[0]!.headers.get("content-type"), "application/json");
    assert.match(sent[0]!.headers.get("user-agent")!, /^purchase-protection-sdk-js\//);
  });

  it("sends confirm as quoteId/quoteToken with a snake_case order_context and customer_email, whatever the input spelling", async () => {
    const { client, body } = recordingClient();
    const wire = {
      quoteId: "qt_1",
      quoteToken: "tok",
      order_context: {
        schema_version: "2026-01-01",
        order: { id: "o-1", purchased_at: "2026-11-22T10:00:00Z", currency: "USD", covered_amount_cents: 100 },
        participants: { mode: "unnamed" },
      },
      customer_email: "ada@example.com",
      customer_locale: "fr-FR",
      customer_time_zone: "Europe/Paris",
    };
    await client.offers.confirm(wire);
    await client.offers.confirm({
      quoteId: "qt_1",
      quoteToken: "tok",
      orderContext: {
        schemaVersion: "2026-01-01",
        order: { id: "o-1", purchasedAt: "2026-11-22T10:00:00Z", currency: "USD", coveredAmountCents: 100 },
        participants: { mode: "unnamed" },
      },
      customerEmail: "ada@example.com",
      customerLocale: "fr-FR",
      customerTimeZone: "Europe/Paris",
    });
    await client.offers.confirm({
      quote_id: "qt_1",
      quote_token: "tok",
      order_context: wire.order_context,
      customer_email: "ada@example.com",
      customer_locale: "fr-FR",
      customer_time_zone: "Europe/Paris",
    });
    for (const i of [0, 1, 2]) assert.deepEqual(body(i), wire);
  });

  it("sends decline and void camelCase", async () => {
    const { client, body } = recordingClient();
    await client.offers.decline({ quote_id: "qt_1", reason: "no" });
    await client.offers.void({ reference_number: "CLM-2026-00000000" });
    await client.offers.void({ planId: "pln_1", reason: "cancelled" });
    assert.deepEqual(body(0), { quoteId: "qt_1", reason: "no" });
    assert.deepEqual(body(1), { referenceNumber: "CLM-2026-00000000" });
    assert.deepEqual(body(2), { planId: "pln_1", reason: "cancelled" });
  });

  it("sends headless bodies snake_case as canonical JSON bytes", async () => {
    const { client, sent } = recordingClient();
    await client.headless.quote({
      protectionProgramId: "prg_1",
      orderId: "o-1",
      orderAmountCents: 12999,
      currency: "USD",
      productCategory: "electronics",
    });
    await client.headless.confirm({ quoteId: "qt_1" });
    await client.headless.decline({ quote_id: "qt_1", reason: "changed mind" });
    assert.equal(
      sent[0]!.body,
      '{"currency":"USD","order_amount_cents":12999,"order_id":"o-1","product_category":"electronics","protection_program_id":"prg_1"}',
    );
    assert.equal(sent[1]!.body, '{"quote_id":"qt_1"}');
    assert.equal(sent[2]!.body, '{"quote_id":"qt_1","reason":"changed mind"}');
    assert.deepEqual(
      sent.map((s) => new URL(s.url).pathname),
      ["/api/v1/headless/quote", "/api/v1/headless/confirm", "/api/v1/headless/decline"],
    );
  });

  it("posts refunds to the order's path with an empty object by default", async () => {
    const { client, sent } = recordingClient();
    await client.refunds.create("order #1/2");
    assert.equal(new URL(sent[0]!.url).pathname, "/api/v1/orders/order%20%231%2F2/refund");
    assert.equal(sent[0]!.body, "{}");
    await assert.rejects(client.refunds.create(""), ServiceValidationError);
  });

  it("retrieves a claim and posts its resolution to the claim's path with an idempotency key", async () => {
    const { client, sent } = recordingClient();
    await client.claims.retrieve("clm_1");
    await client.claims.resolve(
      "clm_1",
      { kind: "refund", reference: "re_1", amountCents: 4999 },
      "resolve-key-00000001",
    );
    assert.deepEqual(
      sent.map((s) => [s.method, new URL(s.url).pathname, s.body, s.headers.get("idempotency-key")]),
      [
        ["GET", "/api/v1/merchant/claims/clm_1", undefined, null],
        [
          "POST",
          "/api/v1/merchant/claims/clm_1/resolution",
          '{"kind":"refund","reference":"re_1","amountCents":4999}',
          "resolve-key-00000001",
        ],
      ],
    );
    await assert.rejects(client.claims.resolve("", { kind: "refund", reference: "r" }), ServiceValidationError);
  });

  it("sends list queries snake_case, dates as ISO 8601, leaving out unset values", async () => {
    const { client, sent } = recordingClient({ object: "list", data: [], has_more: false, next_cursor: null });
    await client.claims.list({ referenceNumber: "CLM-2026-00000000", limit: 5, startingAfter: undefined });
    await client.purchases.list({ created_gte: new Date("2026-11-01T00:00:00Z"), status: "active" });
    assert.equal(new URL(sent[0]!.url).search, "?reference_number=CLM-2026-00000000&limit=5");
    assert.equal(new URL(sent[1]!.url).search, "?created_gte=2026-11-01T00%3A00%3A00.000Z&status=active");
    assert.equal(sent[0]!.headers.get("idempotency-key"), null);
  });

  it("sends generic post bodies as given and postRaw bytes untouched", async () => {
    const { client, sent } = recordingClient();
    await client.post("/webhooks/endpoints", {
      url: "https://merchant.example/hook",
      enabledEvents: ["claim.created"],
    });
    await client.postRaw("/headless/quote", '{ "b": 1,  "a": 2 }', "raw-call-key-000001");
    const metrics = await client.get("/merchants/mer_1/metrics", { from: "2026-11-01T00:00:00Z" });
    await client.patch("/webhooks/endpoints/we_1", { status: "disabled" });
    await client.delete("/webhooks/endpoints/we_1");
    assert.equal(sent[0]!.body, '{"url":"https://merchant.example/hook","enabledEvents":["claim.created"]}');
    assert.equal(sent[1]!.body, '{ "b": 1,  "a": 2 }');
    assert.equal(sent[1]!.headers.get("idempotency-key"), "raw-call-key-000001");
    assert.equal(sent[2]!.method, "GET");
    assert.deepEqual(metrics, {});
    assert.deepEqual(
      sent.slice(3).map((s) => [s.method, s.body, s.headers.has("idempotency-key")]),
      [
        ["PATCH", '{"status":"disabled"}', true],
        ["DELETE", undefined, true],
      ],
    );
  });

  it("pages through every purchase by next_cursor", async () => {
    const pages = [
      { object: "list", data: [{ id: "pur_3" }, { id: "pur_2" }], has_more: true, next_cursor: "pur_2" },
      { object: "list", data: [{ id: "pur_1" }], has_more: false, next_cursor: null },
    ];
    const urls: string[] = [];
    const client = new ProtectionClient({
      apiKey: KEY,
      baseUrl: "https://api.example.test/api/v1",
      fetch: async (url) => (urls.push(url), Response.json(pages[urls.length - 1])),
    });
    const ids: string[] = [];
    for await (const purchase of client.purchases.all({ limit: 2 })) ids.push(purchase.id as string);
    assert.deepEqual(ids, ["pur_3", "pur_2", "pur_1"]);
    assert.deepEqual(
      urls.map((u) => new URL(u).search),
      ["?limit=2", "?limit=2&starting_after=pur_2"],
    );
  });
});

describe("retry policy (pure)", () => {
  it("shouldRetry: 408/429/5xx gateway statuses and network errors, while attempts remain", () => {
    for (const status of [408, 429, 500, 502, 503, 504, null])
      assert.equal(shouldRetry({ status }, 1, 3), true, String(status));
    for (const status of [200, 400, 401, 403, 404, 409, 422, 501, 505])
      assert.equal(shouldRetry({ status }, 1, 3), false, String(status));
    assert.equal(shouldRetry({ status: 503 }, 3, 3), false);
  });

  it("parseRetryAfter: delta-seconds or an HTTP-date", () => {
    const now = Date.parse("2026-11-22T12:00:00Z");
    assert.equal(parseRetryAfter(null, now), null);
    assert.equal(parseRetryAfter("120", now), 120);
    assert.equal(parseRetryAfter("Sun, 22 Nov 2026 12:00:30 GMT", now), 30);
    assert.equal(parseRetryAfter("Sun, 22 Nov 2026 11:00:00 GMT", now), 0);
    assert.equal(parseRetryAfter("soon", now), null);
    assert.equal(parseRetryAfter("-5", now), null);
  });

  it("retryDelayMs: exponential, capped, jittered into [d/2, d]", () => {
    const options = { ...DEFAULT_RETRY, jitter: false };
    assert.deepEqual(
      [1, 2, 3, 4].map((a) => retryDelayMs(a, null, options, Math.random)),
      [250, 500, 1000, 2000],
    );
    assert.equal(retryDelayMs(30, null, options, Math.random), 600_000);
    assert.equal(
      retryDelayMs(2, null, DEFAULT_RETRY, () => 0),
      250,
    );
    assert.equal(
      retryDelayMs(2, null, DEFAULT_RETRY, () => 1),
      500,
    );
    assert.equal(
      retryDelayMs(1, 9999, DEFAULT_RETRY, () => 0),
      600_000,
    );
  });
});

describe("canonicalJson", () => {
  it("rejects values JSON cannot carry", () => {
    assert.throws(() => canonicalJson({ n: Number.NaN }), ServiceValidationError);
    assert.throws(() => canonicalJson(undefined), ServiceValidationError);
    assert.throws(() => canonicalJson({ s: "\ud800" }), ServiceValidationError);
  });
});
