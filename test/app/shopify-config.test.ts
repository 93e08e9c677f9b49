// Demo mode and the Shopify configuration: without credentials nothing throws and the missing variables are named;
// with them, shopifyApp() is built on Prisma session storage (driver adapter picked by DATABASE_URL).
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { createTestDatabase, type TestDatabase } from "../support/databases.ts";

const SHOPIFY_ENV = ["SHOPIFY_API_KEY", "SHOPIFY_API_SECRET", "SHOPIFY_APP_URL", "SCOPES"];
const CREDENTIALS = {
  SHOPIFY_API_KEY: "0123456789abcdef0123456789abcdef",
  SHOPIFY_API_SECRET: "shpss_test_secret",
  SHOPIFY_APP_URL: "https://app.example.test",
  SCOPES: "read_orders,write_orders,read_products,write_products",
};

describe("app: shopify.server (demo mode and credentials)", () => {
  let database: TestDatabase;
  const saved: Record<string, string | undefined> = {};

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    for (const name of [...SHOPIFY_ENV, "DATABASE_URL"]) saved[name] = process.env[name];
    for (const name of SHOPIFY_ENV) delete process.env[name];
    process.env.DATABASE_URL = database.url;
  });

  afterAll(async () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    const { closePrisma } = await import("../../app/db.server.ts");
    await closePrisma();
    await database.drop();
  });

  it("without credentials: imports cleanly, is in demo mode and names every missing variable", async () => {
    const shopify = await import("../../app/shopify.server.ts");
    assert.equal(shopify.isDemoMode(), true);
    assert.deepEqual(
      shopify.shopifyEnvProblems().map((p) => p.name),
      SHOPIFY_ENV,
    );
    assert.equal(shopify.shopify(), undefined);
    assert.equal(await shopify.authenticateAdmin(new Request("https://app.example.test/app")), null);
    const headers = new Headers();
    shopify.addDocumentResponseHeaders(new Request("https://app.example.test/app"), headers);
    assert.deepEqual([...headers.keys()], []);
  });

  it("names unusable values too: an app URL that is not http(s), scopes that list nothing", async () => {
    const { shopifyEnvProblems } = await import("../../app/shopify.server.ts");
    const problems = shopifyEnvProblems({ ...CREDENTIALS, SHOPIFY_APP_URL: "app.example.test", SCOPES: " , " });
    assert.deepEqual(
      problems.map((p) => p.name),
      ["SHOPIFY_APP_URL", "SCOPES"],
    );
    assert.match(problems[0].problem, /http\(s\) URL/);
    assert.deepEqual(shopifyEnvProblems(CREDENTIALS), []);
  });

  it("with credentials: shopifyApp() stores and loads sessions through Prisma on the SQLite adapter", async () => {
    Object.assign(process.env, CREDENTIALS);
    const shopify = await import("../../app/shopify.server.ts");
    const { Session } = await import("@shopify/shopify-api");
    assert.equal(shopify.isDemoMode(), false);
    const app = shopify.shopify();
    assert.ok(app, "the app is configured");
    assert.equal(shopify.shopify(), app, "created once");
    const session = new Session({
      id: "offline_shop-1.myshopify.com",
      shop: "shop-1.myshopify.com",
      state: "s",
      isOnline: false,
      accessToken: "shpat_x",
      scope: CREDENTIALS.SCOPES,
    });
    assert.equal(await app.sessionStorage!.storeSession(session), true);
    const loaded = await app.sessionStorage!.loadSession(session.id);
    assert.equal(loaded?.shop, "shop-1.myshopify.com");
    assert.equal(loaded?.accessToken, "shpat_x");
    const headers = new Headers();
    shopify.addDocumentResponseHeaders(new Request("https://app.example.test/app?shop=shop-1.myshopify.com"), headers);
    assert.match(headers.get("content-security-policy") ?? "", /frame-ancestors/);
  });
});
