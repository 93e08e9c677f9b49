import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { protectOrder } from "../support/protection-flows.ts";
import { createQuote } from "../support/api-assertions.ts";
import { mintApiKey, revokeMerchantKeys } from "../../server/domain/merchants.ts";
import { gettingStartedFacts } from "../../server/domain/getting-started.ts";
import { createProgram } from "../../server/domain/programs.ts";
import { insertMerchant } from "../../server/store/merchants.ts";

// The getting-started checklist's facts (server/domain/getting-started.ts), each read from what its step leaves
// behind; and the publishable key's value kept for the snippet, never a server key's.

describe.each(DIALECTS)("getting-started facts (%s)", (dialect) => {
  let t: TestApi;
  beforeAll(
    async () =>
      (t = await startTestApi({ dialect, resolveHost: async () => [{ address: "93.184.216.34", family: 4 }] })),
  );
  afterAll(() => t.close());

  it("tick from real rows: keys in force, the program, a plan, an endpoint; the publishable key's value only", async () => {
    const merchantId = `mer_start${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`;
    const test = { merchantId, mode: "test" as const };
    const programId = await t.database.db.transaction(async (tx) => {
      await insertMerchant(tx, {
        id: merchantId,
        name: "Fresh Store",
        allowedOrigins: [],
        shopDomain: null,
        createdAt: 0,
      });
      return createProgram(tx, t.services, test);
    });
    const facts = () => gettingStartedFacts(t.database.db, t.services, merchantId);
    assert.deepEqual(await facts(), {
      testKeyPair: false,
      publishableKey: null,
      programId,
      firstTestQuote: false,
      firstTestOrder: false,
      webhookEndpoint: false,
    });

    const [publishable, secret] = await t.database.db.transaction(async (tx) => [
      await mintApiKey(tx, t.services, test, "publishable"),
      await mintApiKey(tx, t.services, test, "secret"),
    ]);
    // A live key is no test key pair.
    await t.database.db.transaction((tx) => mintApiKey(tx, t.services, { merchantId, mode: "live" }, "publishable"));
    assert.deepEqual(await facts(), {
      testKeyPair: true,
      publishableKey: publishable.key,
      programId,
      firstTestQuote: false,
      firstTestOrder: false,
      webhookEndpoint: false,
    });
    const stored = await t.database.db.all<{ kind: string; publishable_key: string | null }>(
      "SELECT kind, publishable_key FROM api_keys WHERE merchant_id = ? AND mode = 'test' ORDER BY kind",
      [merchantId],
    );
    assert.deepEqual(
      stored.map((row) => ({ ...row })),
      [
        { kind: "publishable", publishable_key: publishable.key },
        { kind: "secret", publishable_key: null },
      ],
      "a secret key's value is never stored",
    );

    // An offer quoted, not yet taken: the snippet works, no order yet.
    await createQuote(apiClient(t.baseUrl, publishable.key), programId);
    assert.deepEqual([(await facts()).firstTestQuote, (await facts()).firstTestOrder], [true, false]);
    await protectOrder(apiClient(t.baseUrl, publishable.key), programId);
    const created = await apiClient(t.baseUrl, secret.key).post("/webhooks/endpoints", {
      url: "https://hooks.example.com/pp",
      events: ["*"],
    });
    assert.equal(created.status, 200, created.text);
    assert.deepEqual(
      { ...(await facts()), publishableKey: "…" },
      {
        testKeyPair: true,
        publishableKey: "…",
        programId,
        firstTestQuote: true,
        firstTestOrder: true,
        webhookEndpoint: true,
      },
    );

    // Revoked keys are no pair, and their value is no longer offered.
    await t.database.db.transaction((tx) => revokeMerchantKeys(tx, t.services, merchantId));
    const revoked = await facts();
    assert.equal(revoked.testKeyPair, false);
    assert.equal(revoked.publishableKey, null);
  });
});
