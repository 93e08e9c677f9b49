// Expiring offline access tokens are kept, through the app's real wiring (shopifyApp with
// future.expiringOfflineAccessTokens, the cached Prisma session storage, the fake's token endpoint answering refreshes
// as Shopify documents them): an Admin API call with an expired access token refreshes the pair first and keeps the new
// one; the periodic renewal refreshes the pair of a shop quiet for 70 days before its refresh token runs out, leaves a
// recently refreshed shop alone, and leaves a pair Shopify refuses as it was (docs/shopify.md "Expiring offline tokens").
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { Session } from "@shopify/shopify-api";
import { startShopifyApp, type ShopifyAppHarness } from "../support/shopify-app.ts";
import { TEST_APP } from "../support/shopify.ts";

const EXPIRED = "expired-token.myshopify.com";
const QUIET = "quiet-shop.myshopify.com";
const BUSY = "busy-shop.myshopify.com";
const REFUSED = "refused-token.myshopify.com";
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

describe("Shopify app: expiring offline access tokens are refreshed and kept", () => {
  let app: ShopifyAppHarness;
  beforeAll(async () => {
    app = await startShopifyApp({ dialect: "sqlite", shops: [EXPIRED, QUIET, BUSY, REFUSED] });
    for (const shop of [EXPIRED, QUIET, BUSY, REFUSED]) await app.install(shop);
  });
  afterAll(() => app?.close());

  /** Gives the shop an expiring offline session, through the app's session storage (so its read cache forgets the old one). */
  async function storeExpiringSession(
    shop: string,
    pair: { accessToken: string; expiresIn: number; refreshToken: string; refreshTokenExpiresIn: number },
  ) {
    const { shopify } = await import("../../app/shopify.server.ts");
    await shopify()!.sessionStorage.storeSession(
      new Session({
        id: `offline_${shop}`,
        shop,
        state: "",
        isOnline: false,
        scope: TEST_APP.SCOPES,
        accessToken: pair.accessToken,
        expires: new Date(Date.now() + pair.expiresIn),
        refreshToken: pair.refreshToken,
        refreshTokenExpires: new Date(Date.now() + pair.refreshTokenExpiresIn),
      }),
    );
  }

  async function storedSession(shop: string) {
    const { prisma } = await import("../../app/db.server.ts");
    return (await prisma().session.findUnique({ where: { id: `offline_${shop}` } }))!;
  }

  it("an Admin API call with an expired access token refreshes the pair, uses the new token and keeps the pair", async () => {
    await storeExpiringSession(EXPIRED, {
      accessToken: "shpat_expired",
      expiresIn: -MINUTE,
      refreshToken: "shprt_expired",
      refreshTokenExpiresIn: 80 * DAY,
    });
    app.admin.refreshTokens.add("shprt_expired");
    const refreshesBefore = app.admin.tokenRefreshes.length;

    const { owners } = await import("../../app/shopify/admin/owners.ts");
    await owners(await app.runtime().deps.adminApi(EXPIRED));

    const refreshes = app.admin.tokenRefreshes.slice(refreshesBefore);
    assert.deepEqual(refreshes, [{ shop: EXPIRED, refreshToken: "shprt_expired" }]);
    const call = app.admin.calls.findLast((candidate) => candidate.operationName === "Owners")!;
    assert.equal(call.accessToken, `shpat_refreshed_${refreshesBefore + 1}`);
    const session = await storedSession(EXPIRED);
    assert.equal(session.accessToken, `shpat_refreshed_${refreshesBefore + 1}`);
    assert.equal(session.refreshToken, `shprt_refreshed_${refreshesBefore + 1}`);
    assert.ok(Math.abs(session.expires!.getTime() - (Date.now() + 60 * MINUTE)) < MINUTE, "an hour's access token");
    assert.ok(Math.abs(session.refreshTokenExpires!.getTime() - (Date.now() + 90 * DAY)) < MINUTE, "90 days' refresh");
  });

  it("the periodic renewal refreshes a quiet shop's pair before its refresh token runs out, and only that", async () => {
    await storeExpiringSession(QUIET, {
      accessToken: "shpat_quiet",
      expiresIn: -70 * DAY,
      refreshToken: "shprt_quiet",
      refreshTokenExpiresIn: 20 * DAY,
    });
    await storeExpiringSession(BUSY, {
      accessToken: "shpat_busy",
      expiresIn: 50 * MINUTE,
      refreshToken: "shprt_busy",
      refreshTokenExpiresIn: 89 * DAY,
    });
    // Shopify no longer takes this one (revoked, or already used): the refresh is refused with invalid_grant.
    await storeExpiringSession(REFUSED, {
      accessToken: "shpat_refused",
      expiresIn: -70 * DAY,
      refreshToken: "shprt_refused",
      refreshTokenExpiresIn: 20 * DAY,
    });
    app.admin.refreshTokens.add("shprt_quiet").add("shprt_busy");
    const refreshesBefore = app.admin.tokenRefreshes.length;
    const { renewAgingOfflineTokens } = await import("../../app/shopify/offline-tokens.server.ts");

    assert.equal(await renewAgingOfflineTokens(app.runtime().deps), 1);
    assert.deepEqual(
      app.admin.tokenRefreshes
        .slice(refreshesBefore)
        .map((refresh) => refresh.refreshToken)
        .sort(),
      ["shprt_quiet", "shprt_refused"],
    );
    const quiet = await storedSession(QUIET);
    assert.match(quiet.accessToken, /^shpat_refreshed_\d+$/);
    assert.match(quiet.refreshToken!, /^shprt_refreshed_\d+$/);
    assert.ok(quiet.refreshTokenExpires!.getTime() > Date.now() + 89 * DAY, "90 days again");
    const busy = await storedSession(BUSY);
    assert.deepEqual([busy.accessToken, busy.refreshToken], ["shpat_busy", "shprt_busy"]);
    const refused = await storedSession(REFUSED);
    assert.deepEqual([refused.accessToken, refused.refreshToken], ["shpat_refused", "shprt_refused"], "unchanged");

    // The next scan leaves the renewed shop alone and tries the refused one again.
    const refreshesAfter = app.admin.tokenRefreshes.length;
    assert.equal(await renewAgingOfflineTokens(app.runtime().deps), 0);
    assert.deepEqual(
      app.admin.tokenRefreshes.slice(refreshesAfter).map((refresh) => refresh.refreshToken),
      ["shprt_refused"],
    );
  });
});
