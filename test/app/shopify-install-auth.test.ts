// Install as Shopify drives it with the new embedded auth strategy: the admin's first request carries a session token
// (signed as Shopify signs them) and the app has no session yet, so authenticate.admin trades the token for an offline
// token (token exchange, answered by the fake) and runs the afterAuth hook — which must install the shop.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { startShopifyApp, type ShopifyAppHarness } from "../support/shopify-app.ts";
import { sessionToken, TEST_APP } from "../support/shopify.ts";

const SHOP = "fresh-install.myshopify.com";

describe("Shopify app: first admin request → token exchange → afterAuth installs the shop", () => {
  let app: ShopifyAppHarness;
  beforeAll(async () => {
    app = await startShopifyApp({ dialect: "sqlite", shops: [] });
  });
  afterAll(() => app?.close());

  it("stores the offline session, creates the merchant and runs the storefront setup with the new token", async () => {
    const { authenticateAdmin } = await import("../../app/shopify.server.ts");
    const request = new Request(`${TEST_APP.SHOPIFY_APP_URL}/app?shop=${SHOP}&embedded=1`, {
      headers: { Authorization: `Bearer ${sessionToken(SHOP)}` },
    });
    const context = await authenticateAdmin(request);
    assert.equal(context?.session.shop, SHOP);

    assert.equal(app.admin.tokenExchanges.length, 1);
    assert.equal(
      app.admin.tokenExchanges[0].body.requested_token_type,
      "urn:shopify:params:oauth:token-type:offline-access-token",
    );
    const { prisma } = await import("../../app/db.server.ts");
    const session = (await prisma().session.findUnique({ where: { id: `offline_${SHOP}` } }))!;
    assert.equal(session.accessToken, "shpat_exchanged_1");

    await app.settled();
    const installation = (await app.database.db.get<{ status: string; product_id: string | null }>(
      "SELECT * FROM shop_installations WHERE shop = ?",
      [SHOP],
    ))!;
    assert.equal(installation.status, "installed");
    assert.ok(installation.product_id, "the protection product was created");
    const productSet = app.admin.calls.find((call) => call.operationName === "ProtectionProductSet")!;
    assert.equal(productSet.accessToken, "shpat_exchanged_1", "with the exchanged offline token");

    // The next request with a valid session does not exchange again, and install does not run again.
    const jobs = await app.database.db.get<{ n: number | string }>("SELECT COUNT(*) AS n FROM shopify_jobs");
    await authenticateAdmin(
      new Request(`${TEST_APP.SHOPIFY_APP_URL}/app?shop=${SHOP}&embedded=1`, {
        headers: { Authorization: `Bearer ${sessionToken(SHOP)}` },
      }),
    );
    assert.equal(app.admin.tokenExchanges.length, 1);
    assert.deepEqual(await app.database.db.get<{ n: number | string }>("SELECT COUNT(*) AS n FROM shopify_jobs"), jobs);
  });
});
