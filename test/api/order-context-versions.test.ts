import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient, orderContextFor } from "../support/client.ts";
import { assertChangesNothing, assertError, createQuote } from "../support/api-assertions.ts";
import { ORDER_CONTEXT_SCHEMA_VERSIONS } from "../../server/domain/order-context.ts";

// docs/api.md "Versioning": order_context's schema_version is one of a published list of dates. A well-formed date that is
// not on it is 422 order_context_invalid naming the accepted versions, and nothing is written but the stored answer.

describe.each(DIALECTS)("order_context schema_version (%s)", (dialect) => {
  let t: TestApi;
  beforeAll(async () => (t = await startTestApi({ dialect })));
  afterAll(() => t.close());

  it("refuses an unknown version, naming the accepted ones, then confirms with an accepted one", async () => {
    const widget = apiClient(t.baseUrl, t.merchant.publishableKey);
    const { quote, token } = await createQuote(widget, t.merchant.programId);
    for (const version of ["2025-06-01", "2026-01-02", "2099-12-31"]) {
      const refused = await assertChangesNothing(
        t.database.db,
        () =>
          widget.post("/offers/confirm", {
            quoteId: quote.quoteId,
            quoteToken: token,
            order_context: { ...orderContextFor(quote), schema_version: version },
          }),
        1,
      );
      assertError(refused, { status: 422, code: "order_context_invalid", param: "order_context.schema_version" });
      assert.equal(
        refused.body.error.message,
        `order_context.schema_version is not an accepted version; the accepted versions are ${ORDER_CONTEXT_SCHEMA_VERSIONS.join(", ")}.`,
      );
    }
    for (const version of ORDER_CONTEXT_SCHEMA_VERSIONS) assert.match(version, /^\d{4}-\d{2}-\d{2}$/);
    const confirmed = await widget.post("/offers/confirm", {
      quoteId: quote.quoteId,
      quoteToken: token,
      order_context: { ...orderContextFor(quote), schema_version: ORDER_CONTEXT_SCHEMA_VERSIONS.at(-1) },
    });
    assert.equal(confirmed.status, 200, confirmed.text);
  });

  it("lists the accepted versions in the OpenAPI document", async () => {
    const document = (await apiClient(t.baseUrl).get("/openapi.json")).body;
    const schema = document.paths["/offers/confirm"].post.requestBody.content["application/json"].schema;
    for (const version of ORDER_CONTEXT_SCHEMA_VERSIONS)
      assert.ok(
        schema.properties.order_context.description.includes(version),
        schema.properties.order_context.description,
      );
  });
});
