import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient, orderContextFor, type CallOptions } from "../support/client.ts";
import {
  assertChangesNothing,
  assertError,
  concretePath,
  createQuote,
  type ExpectedError,
} from "../support/api-assertions.ts";
import type { NewMerchant } from "../../server/domain/merchants.ts";
import { routes as routeTable } from "../../server/http/routes.ts";
import type { Quote } from "../../packages/sdk/src/responses.ts";

// Every way a request can be wrong, as one table: each case asserts the status, the error code (and param) and
// that no domain row changed. A domain 4xx on a mutation is stored under its idempotency key (`stored`), so a
// retry gets the same answer; a request refused before it runs stores nothing.

interface Context {
  t: TestApi;
  other: NewMerchant;
  /** A fresh open quote of the test merchant, with its token. */
  quote(): Promise<{ quote: Quote; token: string }>;
}

interface Request {
  method?: string;
  path: string;
  body?: unknown;
  /** The publishable key by default; "secret" for secret-only routes. */
  key?: "publishable" | "secret";
  options?: CallOptions;
}

interface Case {
  name: string;
  request(c: Context): Request | Promise<Request>;
  expect: ExpectedError & { allow?: string };
  stored?: boolean;
  /** Milliseconds the clock moves between building the request and sending it. */
  elapse?: number;
}

const MINUTE = 60_000;

const quoteBody = (c: Context, fields: Record<string, unknown> = {}) => ({
  order_amount_cents: 10_000,
  order_id: `order-${crypto.randomUUID()}`,
  protection_program_id: c.t.merchant.programId,
  ...fields,
});

const withoutField = (body: Record<string, unknown>, field: string) =>
  Object.fromEntries(Object.entries(body).filter(([name]) => name !== field));

const quoteWith =
  (fields: Record<string, unknown>) =>
  (c: Context): Request => ({ path: "/offers/quote", body: quoteBody(c, fields) });
const quoteWithout =
  (field: string) =>
  (c: Context): Request => ({ path: "/offers/quote", body: withoutField(quoteBody(c), field) });
const rawQuote = (raw: string) => (): Request => ({ path: "/offers/quote", options: { raw } });
const invalid = (param: string | null): ExpectedError => ({ status: 400, code: "parameter_invalid", param });

/** Request fields being broken on purpose: any of them may be set to a value of the wrong type or removed. */
type Fields = Record<string, unknown>;
/** The order_context of a confirm, with the two objects inside it that the cases reach into. */
interface ContextFields extends Fields {
  order: Fields;
  participants: Fields;
}

/**
 * A confirm of a fresh quote whose valid body is changed by `change` (the token and context start out right);
 * `context` is the body's order_context.
 */
const confirmWith =
  (change: (body: Fields, context: ContextFields) => void) =>
  async (c: Context): Promise<Request> => {
    const { quote, token } = await c.quote();
    const context: ContextFields = orderContextFor(quote);
    const body: Fields = { quoteId: quote.quoteId, quoteToken: token, order_context: context };
    change(body, context);
    return { path: "/offers/confirm", body };
  };

/** A confirm whose order_context is changed by `change`: always 422 order_context_invalid naming `param`. */
const contextCase = (name: string, param: string, change: (context: ContextFields, body: Fields) => void): Case => ({
  name: `order_context: ${name}`,
  request: confirmWith((body, context) => change(context, body)),
  expect: { status: 422, code: "order_context_invalid", param },
  stored: true,
});

const query = (path: string, param: string | null, code = "parameter_invalid"): Case => ({
  name: `GET ${path}`,
  request: (c) => ({ method: "GET", path: path.replace("{me}", c.t.merchant.merchantId), key: "secret" }),
  expect: { status: 400, code, param },
});

const CASES: Case[] = [
  // The body as a whole.
  {
    name: "malformed JSON",
    request: rawQuote('{"order_amount_cents": 100,'),
    expect: { status: 400, code: "body_invalid_json", param: null },
  },
  {
    name: "JSON with a trailing comma",
    request: rawQuote('{"order_amount_cents": 100,}'),
    expect: { status: 400, code: "body_invalid_json", param: null },
  },
  { name: "body is an array", request: rawQuote("[1, 2]"), expect: invalid(null) },
  { name: "body is a string", request: rawQuote('"order"'), expect: invalid(null) },
  { name: "body is null", request: rawQuote("null"), expect: invalid(null) },
  { name: "body is a number", request: rawQuote("42"), expect: invalid(null) },
  {
    name: "body over 64 KB",
    request: (c) => ({
      path: "/offers/quote",
      options: { raw: JSON.stringify({ ...quoteBody(c), padding: "x".repeat(64 * 1024) }) },
    }),
    expect: { status: 413, code: "request_too_large", param: null },
  },
  {
    name: "body of 65 537 bytes (one over the limit)",
    request: () => ({ path: "/offers/quote", options: { raw: `{"p":"${"x".repeat(64 * 1024 - 8 + 1)}"}` } }),
    expect: { status: 413, code: "request_too_large", param: null },
  },

  // Field types and ranges.
  {
    name: "order_amount_cents as a string",
    request: quoteWith({ order_amount_cents: "100" }),
    expect: invalid("order_amount_cents"),
  },
  {
    name: "order_amount_cents fractional",
    request: quoteWith({ order_amount_cents: 1.5 }),
    expect: invalid("order_amount_cents"),
  },
  {
    name: "order_amount_cents zero",
    request: quoteWith({ order_amount_cents: 0 }),
    expect: invalid("order_amount_cents"),
  },
  {
    name: "order_amount_cents negative",
    request: quoteWith({ order_amount_cents: -100 }),
    expect: invalid("order_amount_cents"),
  },
  {
    name: "order_amount_cents too large",
    request: quoteWith({ order_amount_cents: 1_000_000_001 }),
    expect: invalid("order_amount_cents"),
  },
  {
    name: "order_amount_cents beyond 2^53",
    request: rawQuote('{"order_amount_cents": 99999999999999999999, "order_id": "o", "protection_program_id": "p"}'),
    expect: invalid("order_amount_cents"),
  },
  {
    name: "order_amount_cents null",
    request: quoteWith({ order_amount_cents: null }),
    expect: invalid("order_amount_cents"),
  },
  { name: "order_id a number", request: quoteWith({ order_id: 123 }), expect: invalid("order_id") },
  { name: "order_id empty", request: quoteWith({ order_id: "" }), expect: invalid("order_id") },
  {
    name: "order_id over 255 characters",
    request: quoteWith({ order_id: "o".repeat(256) }),
    expect: invalid("order_id"),
  },
  // The order id is shown to the buyer (welcome e-mail): printable, no space at either end.
  {
    name: "order_id with a line break",
    request: quoteWith({ order_id: "order-1\r\nBcc: x@example.com" }),
    expect: invalid("order_id"),
  },
  { name: "order_id with a tab", request: quoteWith({ order_id: "order\t1" }), expect: invalid("order_id") },
  {
    name: "order_id with a bidi override",
    request: quoteWith({ order_id: "order-\u202Egpj.exe" }),
    expect: invalid("order_id"),
  },
  {
    name: "order_id with a zero-width space",
    request: quoteWith({ order_id: "order\u200B-1" }),
    expect: invalid("order_id"),
  },
  { name: "order_id with a leading space", request: quoteWith({ order_id: " order-1" }), expect: invalid("order_id") },
  {
    name: "order_id with a trailing space",
    request: quoteWith({ order_id: "order-1\u00A0" }),
    expect: invalid("order_id"),
  },
  { name: "order_id of spaces", request: quoteWith({ order_id: "   " }), expect: invalid("order_id") },
  {
    name: "headless quote: order_id with a control character",
    request: (c) => ({ path: "/headless/quote", key: "secret", body: quoteBody(c, { order_id: "order-\u0007" }) }),
    expect: invalid("order_id"),
  },
  {
    name: "customer_email not an address",
    request: quoteWith({ customer_email: "not-an-email" }),
    expect: invalid("customer_email"),
  },

  // Required and unknown fields.
  {
    name: "order_amount_cents missing",
    request: quoteWithout("order_amount_cents"),
    expect: { status: 400, code: "parameter_missing", param: "order_amount_cents" },
  },
  {
    name: "order_id missing",
    request: quoteWithout("order_id"),
    expect: { status: 400, code: "parameter_missing", param: "order_id" },
  },
  {
    name: "protection_program_id missing",
    request: quoteWithout("protection_program_id"),
    expect: { status: 400, code: "parameter_missing", param: "protection_program_id" },
  },
  {
    name: "unknown field",
    request: quoteWith({ coupon: "SAVE10" }),
    expect: { status: 400, code: "parameter_unknown", param: "coupon" },
  },
  {
    name: "headless-only field on the widget quote",
    request: quoteWith({ product_category: "electronics" }),
    expect: { status: 400, code: "parameter_unknown", param: "product_category" },
  },
  {
    name: "unknown field on headless quote",
    request: (c) => ({ path: "/headless/quote", key: "secret", body: quoteBody(c, { disclosure_text: "x" }) }),
    expect: { status: 400, code: "parameter_unknown", param: "disclosure_text" },
  },

  // Currency.
  {
    name: "currency XYZ",
    request: quoteWith({ currency: "XYZ" }),
    expect: { status: 400, code: "currency_unsupported", param: "currency" },
    stored: true,
  },
  { name: "currency US (not a code)", request: quoteWith({ currency: "US" }), expect: invalid("currency") },
  { name: "currency as a number", request: quoteWith({ currency: 840 }), expect: invalid("currency") },

  // Resources that are not the caller's.
  {
    name: "unknown program",
    request: quoteWith({ protection_program_id: "prog_does_not_exist" }),
    expect: { status: 404, code: "resource_missing", param: "protection_program_id" },
    stored: true,
  },
  {
    name: "another merchant's program",
    request: (c) => quoteWith({ protection_program_id: c.other.programId })(c),
    expect: { status: 404, code: "resource_missing", param: "protection_program_id" },
    stored: true,
  },
  {
    name: "confirm of another merchant's quote",
    request: async (c) => {
      const { quote, token } = await createQuote(apiClient(c.t.baseUrl, c.other.publishableKey), c.other.programId);
      return {
        path: "/offers/confirm",
        body: { quoteId: quote.quoteId, quoteToken: token, order_context: orderContextFor(quote) },
      };
    },
    expect: { status: 404, code: "resource_missing", param: "quoteId" },
    stored: true,
  },
  {
    name: "confirm of an unknown quote",
    request: confirmWith((body) => (body.quoteId = "qt_does_not_exist")),
    expect: { status: 404, code: "resource_missing", param: "quoteId" },
    stored: true,
  },
  {
    name: "confirm of an expired quote (31 minutes later)",
    request: confirmWith(() => {}),
    expect: { status: 409, code: "quote_expired", param: "quoteId" },
    stored: true,
    elapse: 31 * MINUTE,
  },
  {
    name: "confirm with a wrong token",
    request: confirmWith((body) => (body.quoteToken = "A".repeat(43))),
    expect: { status: 403, code: "quote_token_invalid", param: "quoteToken" },
    stored: true,
  },
  {
    name: "confirm with another quote's token",
    request: async (c) => {
      const other = await c.quote();
      return confirmWith((body) => (body.quoteToken = other.token))(c);
    },
    expect: { status: 403, code: "quote_token_invalid", param: "quoteToken" },
    stored: true,
  },
  {
    name: "confirm without quoteToken",
    request: confirmWith((body) => delete body.quoteToken),
    expect: { status: 400, code: "parameter_missing", param: "quoteToken" },
  },
  {
    name: "confirm with an unknown field",
    request: confirmWith((body) => (body.plan = "gold")),
    expect: { status: 400, code: "parameter_unknown", param: "plan" },
  },
  {
    name: "confirm with quote_id instead of quoteId",
    request: confirmWith((body) => ((body.quote_id = body.quoteId), delete body.quoteId)),
    expect: { status: 400, code: "parameter_missing", param: "quoteId" },
  },

  // order_context: every defect is 422 and creates nothing.
  contextCase("missing", "order_context", (_, body) => delete body.order_context),
  contextCase("null", "order_context", (_, body) => (body.order_context = null)),
  contextCase("a string", "order_context", (_, body) => (body.order_context = "2026-01-01")),
  contextCase("an array", "order_context", (_, body) => (body.order_context = [])),
  contextCase("schema_version missing", "order_context.schema_version", (context) => delete context.schema_version),
  contextCase(
    "schema_version 2026-13-45",
    "order_context.schema_version",
    (context) => (context.schema_version = "2026-13-45"),
  ),
  contextCase(
    "schema_version 2026-02-30",
    "order_context.schema_version",
    (context) => (context.schema_version = "2026-02-30"),
  ),
  contextCase("schema_version v1", "order_context.schema_version", (context) => (context.schema_version = "v1")),
  contextCase(
    "schema_version a number",
    "order_context.schema_version",
    (context) => (context.schema_version = 20260101),
  ),
  contextCase(
    "order missing",
    "order_context.order",
    (context, body) => (body.order_context = withoutField(context, "order")),
  ),
  contextCase(
    "order.id not the quoted order",
    "order_context.order.id",
    (context) => (context.order.id = "another-order"),
  ),
  contextCase("order.id missing", "order_context.order.id", (context) => delete context.order.id),
  contextCase(
    "purchased_at not UTC",
    "order_context.order.purchased_at",
    (context) => (context.order.purchased_at = "2026-11-22T10:00:00+02:00"),
  ),
  contextCase(
    "purchased_at without a zone",
    "order_context.order.purchased_at",
    (context) => (context.order.purchased_at = "2026-11-22T11:59:00"),
  ),
  contextCase(
    "purchased_at not ISO",
    "order_context.order.purchased_at",
    (context) => (context.order.purchased_at = "22/11/2026 11:59"),
  ),
  contextCase(
    "purchased_at a date only",
    "order_context.order.purchased_at",
    (context) => (context.order.purchased_at = "2026-11-22"),
  ),
  contextCase(
    "purchased_at an impossible date",
    "order_context.order.purchased_at",
    (context) => (context.order.purchased_at = "2026-02-30T10:00:00Z"),
  ),
  contextCase(
    "purchased_at epoch milliseconds",
    "order_context.order.purchased_at",
    (context) => (context.order.purchased_at = 1_795_000_000_000),
  ),
  contextCase(
    "purchased_at far in the future",
    "order_context.order.purchased_at",
    (context) => (context.order.purchased_at = "2027-06-01T00:00:00Z"),
  ),
  contextCase(
    "purchased_at long before the quote",
    "order_context.order.purchased_at",
    (context) => (context.order.purchased_at = "1970-01-01T00:00:00Z"),
  ),
  contextCase(
    "currency not the quoted one",
    "order_context.order.currency",
    (context) => (context.order.currency = "EUR"),
  ),
  contextCase(
    "covered_amount_cents above the quote's",
    "order_context.order.covered_amount_cents",
    (context) => (context.order.covered_amount_cents = Number(context.order.covered_amount_cents) + 1),
  ),
  contextCase(
    "covered_amount_cents below the quote's",
    "order_context.order.covered_amount_cents",
    (context) => (context.order.covered_amount_cents = 1),
  ),
  contextCase(
    "covered_amount_cents zero",
    "order_context.order.covered_amount_cents",
    (context) => (context.order.covered_amount_cents = 0),
  ),
  contextCase(
    "covered_amount_cents negative",
    "order_context.order.covered_amount_cents",
    (context) => (context.order.covered_amount_cents = -1),
  ),
  contextCase(
    "covered_amount_cents a string",
    "order_context.order.covered_amount_cents",
    (context) => (context.order.covered_amount_cents = "10000"),
  ),
  contextCase(
    "participants.mode named",
    "order_context.participants.mode",
    (context) => (context.participants.mode = "named"),
  ),
  contextCase(
    "participants missing",
    "order_context.participants",
    (context, body) => (body.order_context = withoutField(context, "participants")),
  ),
  contextCase("unknown extra field", "order_context.channel", (context) => (context.channel = "web")),
  contextCase("unknown field inside order", "order_context.order.sku", (context) => (context.order.sku = "SKU-1")),

  // Idempotency keys.
  // Every merchant mutation (the buyer portal's: test/api/portal-*.test.ts, with a portal session; its sign-ins take none).
  ...routeTable
    .filter((route) => route.method !== "GET" && route.keys.includes("secret"))
    .map((route): Case => ({
      name: `${route.method} ${route.path} without Idempotency-Key`,
      request: (c) => ({
        method: route.method,
        path: concretePath(route.path, { orderId: "order-1" }),
        key: "secret",
        body: route.path === "/offers/quote" || route.path === "/headless/quote" ? quoteBody(c) : {},
        options: { idempotencyKey: null },
      }),
      expect: { status: 400, code: "idempotency_key_required", param: "Idempotency-Key" },
    })),
  {
    name: "Idempotency-Key too short",
    request: (c) => ({ ...quoteWith({})(c), options: { idempotencyKey: "abc" } }),
    expect: { status: 400, code: "idempotency_key_required" },
  },
  {
    name: "Idempotency-Key of 15 characters",
    request: (c) => ({ ...quoteWith({})(c), options: { idempotencyKey: "a".repeat(15) } }),
    expect: { status: 400, code: "idempotency_key_required" },
  },
  {
    name: "Idempotency-Key with spaces",
    request: (c) => ({ ...quoteWith({})(c), options: { idempotencyKey: "has space........" } }),
    expect: { status: 400, code: "idempotency_key_required" },
  },
  {
    name: "Idempotency-Key with dots",
    request: (c) => ({ ...quoteWith({})(c), options: { idempotencyKey: "abc.def.ghi.jkl.mno" } }),
    expect: { status: 400, code: "idempotency_key_required" },
  },
  {
    name: "Idempotency-Key of 256 characters",
    request: (c) => ({ ...quoteWith({})(c), options: { idempotencyKey: "k".repeat(256) } }),
    expect: { status: 400, code: "idempotency_key_required" },
  },

  // Void, refund, headless selectors.
  {
    name: "void with two selectors",
    request: () => ({ path: "/offers/void", key: "secret", body: { planId: "plan_1", orderId: "order-1" } }),
    expect: invalid("planId"),
  },
  {
    name: "void with all three selectors",
    request: () => ({
      path: "/offers/void",
      key: "secret",
      body: { planId: "plan_1", referenceNumber: "CLM-2026-ABCDEFGH", orderId: "order-1" },
    }),
    expect: invalid("planId"),
  },
  {
    name: "void with no selector",
    request: () => ({ path: "/offers/void", key: "secret", body: { reason: "cancelled" } }),
    expect: invalid("planId"),
  },
  {
    name: "void with an unknown field",
    request: () => ({ path: "/offers/void", key: "secret", body: { orderId: "order-1", force: true } }),
    expect: { status: 400, code: "parameter_unknown", param: "force" },
  },
  {
    name: "refund with a body field",
    request: () => ({ path: "/orders/order-1/refund", key: "secret", body: { amount_cents: 500 } }),
    expect: { status: 400, code: "parameter_unknown", param: "amount_cents" },
  },
  {
    name: "refund with an array body",
    request: () => ({ path: "/orders/order-1/refund", key: "secret", options: { raw: "[]" } }),
    expect: invalid(null),
  },
  {
    name: "headless confirm with quote_id and quoteId",
    request: () => ({ path: "/headless/confirm", key: "secret", body: { quote_id: "qt_1", quoteId: "qt_1" } }),
    expect: invalid("quote_id"),
  },
  {
    name: "headless confirm with neither",
    request: () => ({ path: "/headless/confirm", key: "secret", body: {} }),
    expect: invalid("quote_id"),
  },
  {
    name: "headless decline with an unknown field",
    request: () => ({ path: "/headless/decline", key: "secret", body: { quote_id: "qt_1", note: "x" } }),
    expect: { status: 400, code: "parameter_unknown", param: "note" },
  },

  // Query strings.
  query("/purchases?foo=1", "foo", "parameter_unknown"),
  query("/merchant/claims?sort=asc", "sort", "parameter_unknown"),
  query("/merchants/{me}/claims?page=2", "page", "parameter_unknown"),
  query("/merchants/{me}/metrics?period=7d", "period", "parameter_unknown"),
  query("/events?cursor=x", "cursor", "parameter_unknown"),
  query("/purchases/plan_1?expand=consent", "expand", "parameter_unknown"),
  query("/events/evt_1?verbose=1", "verbose", "parameter_unknown"),
  query("/purchases?limit=0", "limit"),
  query("/purchases?limit=101", "limit"),
  query("/purchases?limit=abc", "limit"),
  query("/purchases?limit=2.5", "limit"),
  query("/merchant/claims?limit=101", "limit"),
  query("/events?limit=0", "limit"),
  query("/purchases?status=refunded", "status"),
  query("/purchases?created_gte=yesterday", "created_gte"),
  query("/merchants/{me}/metrics?from=2026-11-31", "from"),
  query("/merchants/{me}/metrics?interval=year", "interval"),

  // Routing.
  {
    name: "unknown route",
    request: () => ({ method: "GET", path: "/nowhere" }),
    expect: { status: 404, code: "route_not_found", param: null },
  },
  {
    name: "unknown route under a known prefix",
    request: (c) => ({ path: "/offers/quotes", body: quoteBody(c) }),
    expect: { status: 404, code: "route_not_found" },
  },
  {
    name: "GET /offers/quote",
    request: () => ({ method: "GET", path: "/offers/quote" }),
    expect: { status: 405, code: "method_not_allowed", param: null, allow: "POST" },
  },
  {
    name: "PUT /offers/confirm",
    request: () => ({ method: "PUT", path: "/offers/confirm", body: {} }),
    expect: { status: 405, code: "method_not_allowed", allow: "POST" },
  },
  {
    name: "DELETE /purchases",
    request: () => ({ method: "DELETE", path: "/purchases", key: "secret" }),
    expect: { status: 405, code: "method_not_allowed", allow: "GET" },
  },
  {
    name: "POST /merchants/{id}/metrics",
    request: (c) => ({ path: `/merchants/${c.t.merchant.merchantId}/metrics`, key: "secret", body: {} }),
    expect: { status: 405, code: "method_not_allowed", allow: "GET" },
  },
];

describe.each(DIALECTS)("bad input (%s)", (dialect) => {
  let t: TestApi;
  let context: Context;
  beforeAll(async () => {
    // A socket: body sizes with and without Content-Length (chunked) are what the wire carries.
    t = await startTestApi({ dialect, transport: "socket" });
    const other = await t.createMerchant("Other Store");
    const widget = apiClient(t.baseUrl, t.merchant.publishableKey);
    context = { t, other, quote: () => createQuote(widget, t.merchant.programId) };
  });
  afterAll(() => t.close());

  for (const testCase of CASES) {
    const { status, code, param } = testCase.expect;
    it(`${testCase.name} → ${status} ${code}${param ? ` (${param})` : ""}`, async () => {
      const request = await testCase.request(context);
      t.clock.advance(testCase.elapse ?? 0);
      const key = request.key === "secret" ? t.merchant.secretKey : t.merchant.publishableKey;
      const client = apiClient(t.baseUrl, key);
      const response = await assertChangesNothing(
        t.database.db,
        () => client.call(request.method ?? "POST", request.path, request.body, request.options),
        testCase.stored ? 1 : 0,
      );
      assertError(response, testCase.expect);
      if (testCase.expect.allow) assert.equal(response.headers.get("allow"), testCase.expect.allow);
    });
  }

  it("a quote survives every defective confirm and is then confirmed once", async () => {
    const { quote, token } = await context.quote();
    const widget = apiClient(t.baseUrl, t.merchant.publishableKey);
    const defects = [
      null,
      { ...orderContextFor(quote), schema_version: "v1" },
      { ...orderContextFor(quote), participants: { mode: "named" } },
    ];
    for (const order_context of defects) {
      const response = await widget.post("/offers/confirm", {
        quoteId: quote.quoteId,
        quoteToken: token,
        order_context,
      });
      assertError(response, { status: 422, code: "order_context_invalid" });
    }
    assertError(
      await widget.post("/offers/confirm", {
        quoteId: quote.quoteId,
        quoteToken: "wrong",
        order_context: orderContextFor(quote),
      }),
      {
        status: 403,
        code: "quote_token_invalid",
        param: "quoteToken",
      },
    );
    const confirm = await widget.post("/offers/confirm", {
      quoteId: quote.quoteId,
      quoteToken: token,
      order_context: orderContextFor(quote),
    });
    assert.equal(confirm.status, 200, confirm.text);
  });

  it("a purchased_at up to 15 minutes ahead (merchant clock skew) is accepted", async () => {
    const { quote, token } = await context.quote();
    const ahead = new Date(t.clock.now + 14 * MINUTE).toISOString();
    const response = await apiClient(t.baseUrl, t.merchant.publishableKey).post("/offers/confirm", {
      quoteId: quote.quoteId,
      quoteToken: token,
      order_context: orderContextFor(quote, ahead),
    });
    assert.equal(response.status, 200, response.text);
  });

  it("an order id with inner spaces, punctuation and non-ASCII letters is accepted", async () => {
    const orderId = `Commande #1001 / Größe-7 ${crypto.randomUUID()}`;
    const response = await apiClient(t.baseUrl, t.merchant.publishableKey).post(
      "/offers/quote",
      quoteBody(context, { order_id: orderId }),
    );
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.orderId, orderId);
  });

  it("a body of exactly 64 KB is accepted", async () => {
    const json = JSON.stringify(quoteBody(context));
    const raw = json + " ".repeat(64 * 1024 - Buffer.byteLength(json));
    assert.equal(Buffer.byteLength(raw), 65_536);
    const response = await apiClient(t.baseUrl, t.merchant.publishableKey).post("/offers/quote", undefined, { raw });
    assert.equal(response.status, 200, response.text);
  });

  it("a chunked body (no Content-Length) over 64 KB is 413 request_too_large too", async () => {
    const chunk = new TextEncoder().encode(" ".repeat(10_000));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 7) controller.enqueue(chunk);
        else {
          controller.enqueue(new TextEncoder().encode(JSON.stringify(quoteBody(context))));
          controller.close();
        }
      },
    });
    const response = await assertChangesNothing(t.database.db, async () => {
      const raw = await fetch(`${t.baseUrl}/offers/quote`, {
        method: "POST",
        body,
        duplex: "half",
        headers: {
          Authorization: `Bearer ${t.merchant.publishableKey}`,
          "Idempotency-Key": crypto.randomUUID(),
          "Content-Type": "application/json",
        },
      } as RequestInit);
      const text = await raw.text();
      return { status: raw.status, headers: raw.headers, text, body: JSON.parse(text) };
    });
    assertError(response, { status: 413, code: "request_too_large", param: null });
  });

  it("Idempotency-Keys of exactly 16 and 255 allowed characters are accepted", async () => {
    const widget = apiClient(t.baseUrl, t.merchant.publishableKey);
    for (const idempotencyKey of ["0123456789abcdef", `${"A-z_9".repeat(51)}`]) {
      const response = await widget.post("/offers/quote", quoteBody(context), { idempotencyKey });
      assert.equal(response.status, 200, `${idempotencyKey.length}: ${response.text}`);
    }
  });

  it("refund accepts an empty body and {} alike (and then looks for the order)", async () => {
    const secret = apiClient(t.baseUrl, t.merchant.secretKey);
    for (const options of [{ raw: "" }, { raw: "{}" }, { raw: "  " }]) {
      const response = await secret.post("/orders/order-unknown/refund", undefined, options);
      assertError(response, { status: 404, code: "resource_missing" });
    }
  });
});
