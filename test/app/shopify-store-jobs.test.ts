import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { createTestDatabase, DIALECTS, type TestDatabase } from "../support/databases.ts";
import { blankShopifyJobPayloadsMentioning, insertShopifyJob } from "../../app/shopify/store/jobs.ts";

const SHOP = "privacy-test.myshopify.com";

describe.each(DIALECTS)("kept Shopify job payloads on customers/redact (%s)", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => (database = await createTestDatabase(dialect)));
  afterAll(() => database.drop());

  const job = (id: string, email: string) =>
    insertShopifyJob(
      database.db,
      { id, shop: SHOP, kind: "orders/create", subject: id, payload: { email }, lockedUntil: null },
      1_000,
    );
  const payloadOf = async (id: string) =>
    JSON.parse(
      (await database.db.get<{ payload: string }>("SELECT payload FROM shopify_jobs WHERE id = ?", [id]))!.payload,
    );

  it("blanks the payloads that hold an address with LIKE's wildcards (_ and %) in it, and no look-alike's", async () => {
    await job("job_underscore", "Erin_Lee@example.com");
    await job("job_percent", "frank%50@example.com");
    await job("job_underscore_lookalike", "erinxlee@example.com");
    await job("job_percent_lookalike", "frank%5050@example.com");

    for (const email of ["erin_lee@example.com", "frank%50@example.com"]) {
      await database.db.transaction((tx) => blankShopifyJobPayloadsMentioning(tx, SHOP, "job_redact", email));
    }

    assert.deepEqual(await payloadOf("job_underscore"), {});
    assert.deepEqual(await payloadOf("job_percent"), {});
    assert.deepEqual(await payloadOf("job_underscore_lookalike"), { email: "erinxlee@example.com" });
    assert.deepEqual(await payloadOf("job_percent_lookalike"), { email: "frank%5050@example.com" });
  });
});
