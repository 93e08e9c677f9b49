import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient, orderContextFor, type ApiResponse } from "../support/client.ts";
import { assertChangesNothing, assertError, assertRequestId } from "../support/api-assertions.ts";
import { createQuote as createQuoteInDomain } from "../../server/domain/quotes.ts";

// The OpenAPI document against the route table and the real responses, the error body shape, and an unexpected
// failure: a bare 500 that reveals nothing, rolls back its side effects and is not stored under its idempotency key.

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
};

/** The parts of the OpenAPI document these tests read. */
interface OpenApiDocument {
  openapi: string;
  info: { title: string };
  servers: { url: string }[];
  components: { securitySchemes: Record<string, object>; schemas: Record<string, JsonSchema> };
  paths: Record<string, PathItem>;
}
/** Operations by lower-case method; an alias path also carries its own server list. */
type PathItem = Record<string, Operation> & { servers?: { url: string }[] };
type JsonContent = { "application/json": { schema: JsonSchema } };
interface Operation {
  operationId: string;
  security: unknown[];
  "x-key-kinds": string[];
  parameters: { name: string; in: "path" | "query" | "header"; required: boolean; schema: JsonSchema }[];
  requestBody?: { required: boolean; content: JsonContent };
  responses: Record<string, { headers?: Record<string, unknown>; content?: JsonContent }>;
}

const jsonType = (value: unknown) =>
  value === null ? "null" : Array.isArray(value) ? "array" : Number.isInteger(value) ? "integer" : typeof value;

/** A body against an object schema of the document: required keys, no undeclared keys, declared top-level types. */
function assertMatchesSchema(body: Record<string, unknown>, schema: JsonSchema, label: string) {
  assert.equal(schema.type, "object", label);
  for (const name of schema.required ?? [])
    assert.ok(name in body, `${label}: required '${name}' in ${JSON.stringify(body)}`);
  for (const [name, value] of Object.entries(body)) {
    const property = schema.properties?.[name];
    if (schema.additionalProperties === false) assert.ok(property, `${label}: '${name}' is declared`);
    if (!property) continue;
    if (property.type) {
      const types = [property.type].flat();
      const actual = jsonType(value);
      assert.ok(
        types.includes(actual) || (actual === "integer" && types.includes("number")),
        `${label}.${name}: ${actual} is one of ${types}`,
      );
    }
    if (property.enum) assert.ok(property.enum.includes(value), `${label}.${name}: ${String(value)} in enum`);
    if ("const" in property) assert.equal(value, property.const, `${label}.${name}`);
    if (property.type === "object" && value && typeof value === "object" && !Array.isArray(value))
      assertMatchesSchema(value as Record<string, unknown>, property, `${label}.${name}`);
  }
}

const openApiPath = (path: string) => path.replace(/:([A-Za-z]+)/g, "{$1}");

describe.each(DIALECTS)("OpenAPI document and error shape (%s)", (dialect) => {
  let t: TestApi;
  let document: OpenApiDocument;
  beforeAll(async () => {
    t = await startTestApi({ dialect });
    const response = await apiClient(t.baseUrl).get<OpenApiDocument>("/openapi.json");
    assert.equal(response.status, 200, response.text);
    document = response.body;
  });
  afterAll(() => t.close());

  it("GET /openapi.json needs no key, is JSON, OpenAPI 3.1.0, and carries X-Request-Id", async () => {
    const response = await apiClient(t.baseUrl).get("/openapi.json");
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type") ?? "", /^application\/json/);
    assertRequestId(response);
    assert.equal(document.openapi, "3.1.0");
    assert.equal(typeof document.info.title, "string");
    assert.deepEqual(document.servers, [{ url: "/api/v1" }]);
    assert.deepEqual(document.components.securitySchemes.bearer, {
      ...document.components.securitySchemes.bearer,
      type: "http",
      scheme: "bearer",
    });
    assert.deepEqual(response.body, document, "stable across requests");
  });

  it("has exactly the operations of the route table, with their operationIds, key kinds and path parameters", () => {
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations)
        .filter((key) => key !== "servers")
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    const expected = t.api.routes.flatMap((route) =>
      [route.path, ...(route.alsoAt ? [route.alsoAt] : [])].map((path) => `${route.method} ${openApiPath(path)}`),
    );
    assert.deepEqual(documented.sort(), expected.sort());
    for (const route of t.api.routes.filter((r) => r.alsoAt)) {
      // The spec's own-prefix alias (/v1/…) is relative to the host, not to the /api/v1 server URL.
      assert.deepEqual(document.paths[openApiPath(route.alsoAt!)].servers, [{ url: "/" }]);
    }
    for (const route of t.api.routes) {
      const operation = document.paths[openApiPath(route.path)][route.method.toLowerCase()];
      assert.equal(operation.operationId, route.operationId);
      // A signed callback's credential is its signature header, and it takes no Idempotency-Key (route.ts).
      const signed = route.keys.includes("aftership");
      const open = route.keys.includes("anyone") || signed;
      assert.deepEqual(operation.security, signed ? [{ aftershipSignature: [] }] : open ? [] : [{ bearer: [] }]);
      assert.deepEqual(
        operation["x-key-kinds"],
        route.keys.flatMap((kind) =>
          kind === "publishable"
            ? ["wk_"]
            : kind === "secret"
              ? ["mch_"]
              : kind === "restricted"
                ? ["rk_"]
                : kind === "portal"
                  ? ["pps_"]
                  : [],
        ),
      );
      assert.equal(
        operation.parameters.some((p) => p.name === "Idempotency-Key"),
        route.method !== "GET" && !open,
        `${route.operationId}: Idempotency-Key only where it is required`,
      );
      const pathParams = operation.parameters.filter((p) => p.in === "path").map((p) => p.name);
      assert.deepEqual(
        pathParams,
        [...route.path.matchAll(/:([A-Za-z]+)/g)].map(([, name]) => name),
        `${route.path} path parameters`,
      );
      for (const status of ["200", "400", "401", "403", "404", "500"])
        assert.ok(operation.responses[status], `${route.operationId} documents ${status}`);
    }
    assert.equal(
      new Set(t.api.routes.map((route) => route.operationId)).size,
      t.api.routes.length,
      "operationIds are unique",
    );
  });

  it("every POST requires the Idempotency-Key header of the documented pattern, but the portal sign-ins; GETs take none", () => {
    for (const route of t.api.routes) {
      const operation = document.paths[openApiPath(route.path)][route.method.toLowerCase()];
      const header = operation.parameters.find((p) => p.in === "header" && p.name === "Idempotency-Key");
      if (route.keys.includes("anyone")) {
        // A sign-in stores nothing, so that no repeated key can hand its session token to another caller.
        assert.equal(header, undefined, `${route.operationId} takes no Idempotency-Key`);
        assert.deepEqual(operation.security, [], `${route.operationId} takes no credential`);
      } else if (route.keys.includes("aftership")) {
        // AfterShip sends none: a repeated callback records nothing new (docs/api.md "Tracking callbacks").
        assert.equal(header, undefined, `${route.operationId} takes no Idempotency-Key`);
        assert.ok(operation.responses["413"], `${route.operationId} documents 413`);
      } else if (route.method === "GET") {
        assert.equal(header, undefined, `${route.operationId} has no Idempotency-Key`);
        assert.equal(operation.requestBody, undefined, `${route.operationId} has no body`);
      } else {
        assert.ok(header, `${route.operationId} documents Idempotency-Key`);
        assert.equal(header.required, true);
        assert.equal(header.schema.pattern, "^[A-Za-z0-9_-]{16,255}$");
        assert.ok(operation.responses["413"], `${route.operationId} documents 413`);
      }
    }
  });

  it("the quote request schema requires order_amount_cents, order_id and protection_program_id and allows nothing else", () => {
    const body = document.paths["/offers/quote"].post.requestBody!;
    assert.equal(body.required, true);
    const schema = body.content["application/json"].schema;
    assert.equal(schema.type, "object");
    assert.deepEqual([...schema.required!].sort(), ["order_amount_cents", "order_id", "protection_program_id"]);
    assert.equal(schema.additionalProperties, false);
    assert.deepEqual(Object.keys(schema.properties!).sort(), [
      "cart_id",
      "currency",
      "customer_email",
      "locale",
      "order_amount_cents",
      "order_id",
      "order_name",
      "protection_program_id",
    ]);
    assert.equal(schema.properties!.order_amount_cents.type, "integer");
    assert.equal(schema.properties!.order_id.type, "string");
  });

  it("the confirm request schema requires quoteId, quoteToken and order_context; confirm documents 422", () => {
    const operation = document.paths["/offers/confirm"].post;
    const schema = operation.requestBody!.content["application/json"].schema;
    assert.deepEqual([...schema.required!].sort(), ["order_context", "quoteId", "quoteToken"]);
    assert.equal(schema.additionalProperties, false);
    assert.ok(operation.responses["422"]);
  });

  it("every strict request body schema is closed (additionalProperties false)", () => {
    // An aggregator's callback body is the aggregator's, which adds fields between its versions.
    for (const route of t.api.routes.filter((r) => r.method !== "GET" && !r.keys.includes("aftership"))) {
      const schema =
        document.paths[openApiPath(route.path)][route.method.toLowerCase()].requestBody!.content["application/json"]
          .schema;
      assert.equal(schema.additionalProperties, false, `${route.operationId} body`);
    }
  });

  it("real responses match the documented schemas: a quote, its token header, and errors", async () => {
    const widget = apiClient(t.baseUrl, t.merchant.publishableKey);
    const quote = await widget.post("/offers/quote", {
      order_amount_cents: 4_200,
      order_id: "doc-order-1",
      protection_program_id: t.merchant.programId,
    });
    assert.equal(quote.status, 200);
    const operation = document.paths["/offers/quote"].post;
    assertMatchesSchema(quote.body, operation.responses["200"].content!["application/json"].schema, "quote");
    assert.ok(operation.responses["200"].headers!["X-Service-Quote-Token"]);

    const errorSchema = document.components.schemas.Error;
    const errorResponses: ApiResponse[] = [
      await widget.post("/offers/quote", { order_amount_cents: "x" }),
      await widget.get("/purchases"),
      await widget.post("/offers/quote", {}, { key: null }),
      await widget.post("/offers/decline", { quoteId: "qt_missing" }),
      await widget.get("/offers/quote"),
    ];
    for (const response of errorResponses) {
      assert.ok(response.status >= 400);
      assertMatchesSchema(response.body, errorSchema, `error ${response.status}`);
      assert.deepEqual(Object.keys(response.body), ["error"]);
    }
  });
});

describe.each(DIALECTS)("unexpected failures (%s)", (dialect) => {
  let t: TestApi;
  let failing = true;
  beforeAll(async () => {
    t = await startTestApi({
      dialect,
      afterSideEffects: () => {
        if (failing) throw new Error("boom at /secret/path.ts");
      },
    });
  });
  afterAll(() => t.close());

  function assertBareInternalError(response: ApiResponse) {
    assertError(response, { status: 500, code: "internal_error", param: null });
    assert.equal(response.body.error.type, "api_error");
    for (const secret of ["boom", "/secret/path.ts", "secret/path", "Error:", "stack"])
      assert.ok(!response.text.includes(secret), `'${secret}' not in ${response.text}`);
    assert.equal(response.headers.get("idempotent-replayed"), null);
    assert.equal(response.headers.get("x-service-quote-token"), null, "no token escapes a failed quote");
  }

  it("a failure after the side effects is a bare 500 api_error internal_error; everything is rolled back and nothing stored", async () => {
    failing = true;
    const widget = apiClient(t.baseUrl, t.merchant.publishableKey);
    const body = { order_amount_cents: 9_900, order_id: "order-fault-1", protection_program_id: t.merchant.programId };
    const idempotencyKey = crypto.randomUUID();
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await assertChangesNothing(t.database.db, () =>
        widget.post("/offers/quote", body, { idempotencyKey }),
      );
      assertBareInternalError(response);
    }
    // After the fault clears, a retry with the same key runs for real (the 500 was not stored).
    failing = false;
    const retry = await widget.post("/offers/quote", body, { idempotencyKey });
    assert.equal(retry.status, 200, retry.text);
    assert.equal(retry.headers.get("idempotent-replayed"), null);
    assert.ok(retry.headers.get("x-service-quote-token"));
  });

  it("a failing confirm leaves its quote open: no plan, no order, no event", async () => {
    const actor = { merchantId: t.merchant.merchantId, mode: "test" as const, kind: "publishable" as const };
    const { quote, token } = await t.database.db.transaction((tx) =>
      createQuoteInDomain(tx, t.services, actor, {
        orderAmountCents: 5_000,
        orderId: "order-fault-2",
        programId: t.merchant.programId,
        currency: "USD",
      }),
    );
    failing = true;
    const widget = apiClient(t.baseUrl, t.merchant.publishableKey);
    const confirmBody = {
      quoteId: quote.quoteId,
      quoteToken: token,
      order_context: orderContextFor(quote),
      customer_email: "ada@example.com",
    };
    assertBareInternalError(
      await assertChangesNothing(t.database.db, () => widget.post("/offers/confirm", confirmBody)),
    );
    const row = await t.database.db.get<{ status: string }>("SELECT status FROM quotes WHERE id = ?", [quote.quoteId]);
    assert.equal(row?.status, "open");

    const secret = apiClient(t.baseUrl, t.merchant.secretKey);
    assertBareInternalError(
      await assertChangesNothing(t.database.db, () =>
        secret.post("/headless/quote", {
          order_amount_cents: 100,
          order_id: "o-h",
          protection_program_id: t.merchant.programId,
        }),
      ),
    );

    failing = false;
    const confirm = await widget.post("/offers/confirm", confirmBody);
    assert.equal(confirm.status, 200, confirm.text);
  });

  it("reads are unaffected by the mutation fault seam", async () => {
    failing = true;
    const response = await apiClient(t.baseUrl, t.merchant.secretKey).get("/purchases");
    assert.equal(response.status, 200, response.text);
    failing = false;
  });
});
