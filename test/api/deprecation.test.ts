import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import pino from "pino";
import { z } from "zod";
import { createHttpApi } from "../../server/http/app.ts";
import { deprecationHeaders } from "../../server/http/deprecation.ts";
import { openApiDocument } from "../../server/http/openapi.ts";
import { routes } from "../../server/http/routes.ts";
import { ok, route, type Route } from "../../server/http/route.ts";
import { createSealer } from "../../server/secrets/sealer.ts";
import { coverageLinks } from "../../server/email/coverage-link.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";
import { createTestMerchant, type NewMerchant } from "../../server/domain/merchants.ts";
import type { Services } from "../../server/domain/context.ts";
import { createTestDatabase, type TestDatabase } from "../support/databases.ts";
import { apiClient } from "../support/client.ts";

// The route table's `deprecated` column: a deprecated route, or a route with a deprecated field, says so on every
// response with RFC 9745 Deprecation and RFC 8594 Sunset headers, and the OpenAPI document marks it. Nothing in the
// product is deprecated today, so the rows here are the test's own, added to the real table.

const SINCE = "2026-11-01";
const SUNSET = "2027-03-01";
const GUIDE = "https://docs.example.test/changes/widgets";

const testRoutes: Route[] = [
  route({
    method: "GET",
    path: "/test/old-widgets",
    operationId: "listOldWidgets",
    summary: "A deprecated route.",
    keys: ["secret"],
    deprecated: { since: SINCE, sunset: SUNSET, link: GUIDE },
    response: { description: "Widgets.", schema: z.strictObject({ widgets: z.array(z.string()) }) },
    handle: async () => ok({ widgets: ["a"] }),
  }),
  route({
    method: "POST",
    path: "/test/widgets",
    operationId: "createWidget",
    summary: "A route whose `colour` field is deprecated.",
    keys: ["secret"],
    deprecated: { since: SINCE, sunset: SUNSET, field: "colour" },
    body: z.strictObject({ name: z.string(), colour: z.string().optional() }),
    response: { description: "The widget.", schema: z.strictObject({ name: z.string() }) },
    handle: async ({ body }) => ok({ name: body.name }),
  }),
];

describe("Deprecation and Sunset headers from the route table", () => {
  let database: TestDatabase;
  let server: ServerType;
  let baseUrl: string;
  let merchant: NewMerchant;

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    const services: Services = {
      clock: Date.now,
      random: cryptoRandom,
      settings: { companyName: "Test Protection Ltd", portalUrl: "https://portal.example.test" },
    };
    const key = randomBytes(32);
    const http = createHttpApi({
      db: database.db,
      services,
      sealer: createSealer(key),
      coverageLinks: coverageLinks(key),
      logger: pino({ level: "silent" }),
      routes: [...routes, ...testRoutes],
    });
    server = await new Promise((resolve) => {
      const s = serve({ fetch: http.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(s));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
    merchant = await database.db.transaction((tx) => createTestMerchant(tx, services, { name: "Test Store" }));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await database.drop();
  });

  const assertDeprecated = (headers: Headers, link?: string) => {
    assert.equal(headers.get("deprecation"), `@${Date.parse(SINCE) / 1000}`);
    assert.equal(headers.get("sunset"), "Mon, 01 Mar 2027 00:00:00 GMT");
    assert.equal(headers.get("link"), link === undefined ? null : `<${link}>; rel="deprecation"; type="text/html"`);
  };

  it("a deprecated route keeps working and says when it goes, on success and on error", async () => {
    const client = apiClient(baseUrl, merchant.secretKey);
    const answer = await client.get("/test/old-widgets");
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { widgets: ["a"] });
    assertDeprecated(answer.headers, GUIDE);

    const unauthenticated = await client.get("/test/old-widgets", { key: null });
    assert.equal(unauthenticated.status, 401);
    assertDeprecated(unauthenticated.headers, GUIDE);
  });

  it("a route with a deprecated field sends the headers, a replay included; other routes send none", async () => {
    const client = apiClient(baseUrl, merchant.secretKey);
    const idempotencyKey = randomUUID();
    for (const replayed of [null, "true"]) {
      const answer = await client.post("/test/widgets", { name: "w", colour: "red" }, { idempotencyKey });
      assert.equal(answer.status, 200);
      assert.equal(answer.headers.get("idempotent-replayed"), replayed);
      assertDeprecated(answer.headers);
    }
    const current = await client.get("/purchases");
    assert.equal(current.status, 200);
    assert.equal(current.headers.get("deprecation"), null);
    assert.equal(current.headers.get("sunset"), null);
  });

  it("the OpenAPI document marks the deprecated operation, the deprecated field and their headers", async () => {
    const document = (await apiClient(baseUrl).get("/openapi.json")).body;
    const old = document.paths["/test/old-widgets"].get;
    assert.equal(old.deprecated, true);
    assert.deepEqual(Object.keys(old.responses["200"].headers).slice(-2), ["Deprecation", "Sunset"]);
    const widgets = document.paths["/test/widgets"].post;
    assert.equal(widgets.deprecated, undefined);
    const schema = widgets.requestBody.content["application/json"].schema;
    assert.equal(schema.properties.colour.deprecated, true);
    assert.equal(schema.properties.name.deprecated, undefined);
    assert.ok("Sunset" in widgets.responses["200"].headers);
    // The product's own table: nothing is deprecated today.
    assert.deepEqual(
      routes.filter((r) => r.deprecated),
      [],
    );
    assert.equal(document.paths["/purchases"].get.deprecated, undefined);
  });

  it("refuses a table row whose sunset leaves less than 90 days, or whose field does not exist", () => {
    assert.throws(() => deprecationHeaders({ since: SINCE, sunset: "2027-01-29" }), /at least 90 days/);
    assert.throws(() => deprecationHeaders({ since: "soon", sunset: SUNSET }), /ISO 8601/);
    assert.equal(deprecationHeaders({ since: SINCE, sunset: "2027-01-30" }).Sunset, "Sat, 30 Jan 2027 00:00:00 GMT");
    const misnamed = { ...testRoutes[1]!, deprecated: { since: SINCE, sunset: SUNSET, field: "color" } };
    assert.throws(() => openApiDocument([misnamed]), /deprecated field 'color'/);
  });
});
