// The per-IP rate limits on the web app's API (/api/v1 through Remix), in the process `npm start` runs: the web
// server hands the API the Node request, so the limits see the client's address as they do under `npm run api`.
import { afterAll, beforeAll, describe, it } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "../support/databases.ts";
import { startWebApp, type WebAppProcess } from "../support/web-app.ts";
import { assertQuoteEdgeLimitApplies, NO_CLIENT_ADDRESS } from "../support/ip-limits.ts";
import { createTestMerchant, type NewMerchant } from "../../server/domain/merchants.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";

describe("npm start: the API's per-IP rate limits", () => {
  let database: TestDatabase;
  let merchant: NewMerchant;
  let app: WebAppProcess;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-web-limits-"));

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    const services = {
      clock: Date.now,
      random: cryptoRandom,
      settings: { companyName: "Test", portalUrl: "https://portal.example.test" },
    };
    merchant = await database.db.transaction((tx) => createTestMerchant(tx, services, { name: "Limited Store" }));
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: database.url, DATA_DIR: dataDir, LOG_LEVEL: "info" };
    // The socket's address, not a forwarded one, is the client's.
    for (const name of ["HOST", "DEMO", "TRUST_PROXY", "SHOPIFY_API_KEY", "SHOPIFY_API_SECRET", "SHOPIFY_APP_URL"])
      delete env[name];
    app = await startWebApp(env);
  }, 300_000);

  afterAll(async () => {
    await app?.stop();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("the edge limit on quote applies: quotes from one address get 429 once 50 per 10 s are spent, and the limiter knows the address", async () => {
    await assertQuoteEdgeLimitApplies(`${app.origin}/api/v1`, merchant);
    assert.equal(app.output().includes(NO_CLIENT_ADDRESS), false, "per-IP limits are never skipped");
  });
});
