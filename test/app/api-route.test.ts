// The /api/v1/* splat route of the Remix app hands the Request to the protection API: same status, headers and body
// as the standalone server. The route module is imported directly (plain .ts), over a fresh migrated SQLite file.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { createTestDatabase, type TestDatabase } from "../support/databases.ts";
import { createTestMerchant, type NewMerchant } from "../../server/domain/merchants.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";

type RouteModule = typeof import("../../app/routes/api.v1.$.ts");
type RuntimeModule = typeof import("../../app/protection-api.server.ts");

describe("app: /api/v1/* splat route", () => {
  let database: TestDatabase;
  let dataDir: string;
  let merchant: NewMerchant;
  let route: RouteModule;
  let runtime: RuntimeModule;

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-app-data-"));
    merchant = await database.db.transaction((tx) =>
      createTestMerchant(
        tx,
        {
          clock: Date.now,
          random: cryptoRandom,
          settings: { companyName: "Test Protection Ltd", portalUrl: "https://portal.example.test" },
        },
        { name: "App Store" },
      ),
    );
    // The runtime reads its configuration on the first request; set it before anything can create it.
    process.env.DATABASE_URL = database.url;
    process.env.DATA_DIR = dataDir;
    process.env.LOG_LEVEL = process.env.TEST_LOG_LEVEL ?? "silent";
    route = await import("../../app/routes/api.v1.$.ts");
    runtime = await import("../../app/protection-api.server.ts");
  });

  afterAll(async () => {
    await runtime?.closeProtectionRuntime();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const args = (request: Request) => ({ request, params: {}, context: {} });
  const post = (pathname: string, body: unknown, headers: Record<string, string> = {}) =>
    new Request(`http://app.test/api/v1${pathname}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID(), ...headers },
      body: JSON.stringify(body),
    });

  it("loader: GET /api/v1/openapi.json is the API's OpenAPI 3.1 document", async () => {
    const response = await route.loader(args(new Request("http://app.test/api/v1/openapi.json")));
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type") ?? "", /application\/json/);
    assert.match(response.headers.get("x-request-id") ?? "", /^req_[0-9A-Za-z]{24}$/);
    const document = await response.json();
    assert.equal(document.openapi, "3.1.0");
    assert.deepEqual(document.servers, [{ url: "/api/v1" }]);
    assert.ok(document.paths["/offers/quote"]?.post, "documents the quote route");
  });

  it("loader: unknown paths get the API's 404 route_not_found, not Remix's", async () => {
    const response = await route.loader(args(new Request("http://app.test/api/v1/nothing-here")));
    assert.equal(response.status, 404);
    assert.equal((await response.json()).error.code, "route_not_found");
  });

  it("action: POST without a key is the API's 401 api_key_missing", async () => {
    const response = await route.action(
      args(
        post("/offers/quote", {
          order_amount_cents: 5000,
          order_id: "order-app-1",
          protection_program_id: merchant.programId,
        }),
      ),
    );
    assert.equal(response.status, 401);
    const body = await response.json();
    assert.equal(body.error.type, "authentication_error");
    assert.equal(body.error.code, "api_key_missing");
    assert.equal(body.error.request_id, response.headers.get("x-request-id"));
  });

  it("action: POST /offers/quote with the publishable key is a 200 quote, token only in the header", async () => {
    const response = await route.action(
      args(
        post(
          "/offers/quote",
          { order_amount_cents: 12_999, order_id: "order-app-2", protection_program_id: merchant.programId },
          { Authorization: `Bearer ${merchant.publishableKey}` },
        ),
      ),
    );
    const text = await response.text();
    assert.equal(response.status, 200, text);
    const quote = JSON.parse(text);
    assert.equal(quote.status, "open");
    assert.equal(quote.currency, "USD");
    assert.equal(quote.orderAmountCents, 12_999);
    const token = response.headers.get("x-service-quote-token");
    assert.ok(token, "quote token header");
    assert.ok(!text.includes(token), "the token never appears in the body");
  });

  it("action: OPTIONS preflights on browser routes are answered by the API's CORS policy", async () => {
    const response = await route.action(
      args(
        new Request("http://app.test/api/v1/offers/quote", {
          method: "OPTIONS",
          headers: {
            Origin: "https://shop.example.com",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization,content-type,idempotency-key",
          },
        }),
      ),
    );
    assert.equal(response.status, 204);
    assert.equal(response.headers.get("access-control-allow-origin"), "https://shop.example.com");
  });

  it("reuses one runtime (one database handle) across requests", async () => {
    const first = runtime.protectionRuntime();
    await route.loader(args(new Request("http://app.test/api/v1/openapi.json")));
    assert.equal(runtime.protectionRuntime(), first);
  });
});
