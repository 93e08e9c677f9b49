// The built Remix app boots without Shopify credentials (demo mode): the protection API answers at /api/v1 and the
// admin names what is missing instead of failing; and with them it takes a signed orders/create webhook. Runs the
// web app's own process (`npm start`: scripts/web-server.ts, test/support/web-app.ts) on a free loopback port, with
// every Shopify variable removed; the build is made first when it is stale.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "../support/databases.ts";
import { randomBytes } from "node:crypto";
import { buildWidget } from "../../packages/widget/build.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";
import { createSealer } from "../../server/secrets/sealer.ts";
import { installShop, saveProtectionProduct } from "../../app/shopify/installations.server.ts";
import { orderPayload, TEST_APP, webhookHeaders } from "../support/shopify.ts";
import { startWebApp } from "../support/web-app.ts";

const SHOPIFY_ENV = ["SHOPIFY_API_KEY", "SHOPIFY_API_SECRET", "SHOPIFY_APP_URL", "SCOPES"];

describe("app: the built app boots in demo mode (no Shopify credentials)", { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let dataDir: string;
  let app: BuiltApp;
  let base: string;

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-app-boot-"));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      DEMO: "on",
    };
    for (const name of [...SHOPIFY_ENV, "SHOP_CUSTOM_DOMAIN", "PORTAL_URL"]) delete env[name];
    app = await bootBuiltApp(env);
    base = app.base;
  });

  afterAll(async () => {
    await app?.stop();
    await database?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("GET /api/v1/openapi.json is the protection API's document (200 JSON)", async () => {
    const response = await fetch(`${base}/api/v1/openapi.json`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type") ?? "", /application\/json/);
    assert.match(response.headers.get("x-request-id") ?? "", /^req_/);
    assert.equal((await response.json()).openapi, "3.1.0");
  });

  it("POST /api/v1/offers/quote without a key is the API's 401 JSON", async () => {
    const response = await fetch(`${base}/api/v1/offers/quote`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Idempotency-Key": "boot-test-0000000001" },
      body: JSON.stringify({ order_amount_cents: 5000, order_id: "o-1" }),
    });
    assert.equal(response.status, 401);
    assert.equal((await response.json()).error.code, "api_key_missing");
  });

  it("serves the widget (/widget/v1/service-widget.js, revalidated; its versioned URL immutable) and the /demo checkout page", async () => {
    const { integrity } = await buildWidget();
    const script = await fetch(`${base}/widget/v1/service-widget.js`);
    assert.equal(script.status, 200);
    assert.equal(script.headers.get("cache-control"), "public, max-age=300, stale-while-revalidate=86400");
    const pinned = await fetch(
      `${base}/widget/v1/service-widget.${script.headers.get("etag")!.replaceAll('"', "")}.js`,
    );
    assert.equal(pinned.headers.get("cache-control"), "public, max-age=31536000, immutable");
    assert.equal(await (await fetch(`${base}/widget/v1/service-widget.js.sri`)).text(), `${integrity}\n`);
    const demo = await fetch(`${base}/demo`);
    assert.equal(demo.status, 200);
    assert.match(await demo.text(), /<service-widget publishable-key="wk_test_/);
    // The page's "Place order" posts to /demo: an unknown quote reaches the API with the demo merchant's secret key.
    const order = await fetch(`${base}/demo`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ quoteId: "qt_unknown", protect: true }),
    });
    assert.equal(order.status, 404);
    assert.equal((await order.json()).error.code, "resource_missing");
  });

  it("GET /app is a 200 page naming every missing variable and the standalone demo, not a 500", async () => {
    const response = await fetch(`${base}/app`);
    const html = await response.text();
    assert.equal(response.status, 200, html.slice(0, 500));
    assert.match(response.headers.get("content-type") ?? "", /text\/html/);
    for (const name of SHOPIFY_ENV) assert.ok(html.includes(name), `names ${name}`);
    assert.match(html, /Demo mode/i);
    assert.match(html, /npm run demo/);
  });

  it("the auth route sends to the setup page instead of failing; the landing page renders", async () => {
    const auth = await fetch(`${base}/auth/login`, { redirect: "manual" });
    assert.equal(auth.status, 302);
    assert.equal(auth.headers.get("location"), "/app");
    const landing = await fetch(`${base}/`);
    assert.equal(landing.status, 200);
    assert.match(await landing.text(), /Purchase Protection/);
  });

  it("logged no server error", () => {
    assert.doesNotMatch(app.output(), /Error|ERR_|level":50/, app.output());
  });
});

// The production bundle with Shopify credentials: the webhook route, authenticate.webhook, the job queue and the SDK
// over the in-process transport as Vite bundled them. The shop's installation is seeded (install needs Shopify's
// Admin API, which the bundled app would call over the internet); the reference write-back job then fails and waits
// for its retry, which is not this test's subject.
describe("app: the built app with Shopify credentials takes a signed orders/create", { timeout: 120_000 }, () => {
  const SHOP = "built-app.myshopify.com";
  const encryptionKey = randomBytes(32);
  let database: TestDatabase;
  let dataDir: string;
  let app: BuiltApp;

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-app-shopify-"));
    const services = {
      clock: Date.now,
      random: cryptoRandom,
      settings: { companyName: "Test Ltd", portalUrl: "https://portal.example.test" },
    };
    await database.db.transaction((tx) => installShop(tx, services, createSealer(encryptionKey), SHOP));
    await saveProtectionProduct(database.db, services, SHOP, {
      productId: "900",
      tiers: [{ priceCents: 300, variantId: "901" }],
    });
    app = await bootBuiltApp({
      ...process.env,
      ...TEST_APP,
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      ENCRYPTION_KEY: encryptionKey.toString("base64"),
      LOG_LEVEL: "info",
    });
  });

  afterAll(async () => {
    await app?.stop();
    await database?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const post = (payload: unknown, secret?: string) => {
    const body = JSON.stringify(payload);
    return fetch(`${app.base}/webhooks/orders/create`, {
      method: "POST",
      headers: webhookHeaders({ topic: "orders/create", shop: SHOP, secret }, body),
      body,
    });
  };

  it("a bad HMAC is 401; a signed opted-in order is 200 with its plan confirmed", async () => {
    const order = orderPayload({
      lines: [
        { productId: 111, price: "100.00" },
        { productId: 900, variantId: 901, price: "3.00" },
      ],
      attributes: { _protection: "accepted" },
    });
    assert.equal((await post(order, "not-the-secret")).status, 401);
    assert.equal(await database.db.get("SELECT order_id FROM plans WHERE order_id = ?", [String(order.id)]), undefined);
    assert.equal((await post(order)).status, 200, app.output());
    const plan = await database.db.get<{ fee_cents: number; covered_amount_cents: number }>(
      "SELECT fee_cents, covered_amount_cents FROM plans WHERE order_id = ?",
      [String(order.id)],
    );
    assert.deepEqual(plan, { fee_cents: 300, covered_amount_cents: 10_000 });
  });
});

interface BuiltApp {
  base: string;
  output(): string;
  stop(): Promise<void>;
}

/** The web app on the build, on a free loopback port, with `env` (production mode). */
async function bootBuiltApp(env: NodeJS.ProcessEnv): Promise<BuiltApp> {
  const app = await startWebApp({ ...env, HOST: "127.0.0.1", NODE_ENV: "production" });
  return {
    base: app.origin,
    output: app.output,
    async stop() {
      assert.equal(await app.stop(), 0, app.output());
    },
  };
}
