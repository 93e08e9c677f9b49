// The app's usage charges as the Shopify admin's iframe shows them, in real Chromium over the web app's real process
// (test/support/embedded-admin.ts): a charge waiting for a higher cap (the overview's banner and its button), a
// statement's Shopify charge, and live protection paused by a cancelled subscription. The statements are closed and
// charged by this process's job queue against the fake Admin API before the web app starts. axe-core on every page;
// screenshots at 390 px and 1280 px under test-artifacts/dashboard/embedded-billing-*.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import path from "node:path";
import type { TestDatabase } from "../support/databases.ts";
import type { ShopifyAppHarness } from "../support/shopify-app.ts";
import { installEmbeddedShop, type EmbeddedAdmin, type EmbeddedShop } from "../support/embedded-admin.ts";
import { appSubscriptionsUpdatePayload, closeLiveWeek, makeShopLive, WEEK_MS } from "../support/shopify-billing.ts";
import { periodContaining } from "../../server/domain/settlements.ts";

const ARTIFACTS = path.resolve(import.meta.dirname, "../../test-artifacts/dashboard");
const SHOP = "embedded-billing.myshopify.com";

describe("the app's usage charges in the Shopify admin, in Chromium (sqlite)", () => {
  let shop: EmbeddedShop;
  let database: TestDatabase;
  let shopify: ShopifyAppHarness;
  let admin: EmbeddedAdmin;
  let charged: string;

  beforeAll(async () => {
    shop = await installEmbeddedShop(SHOP);
    ({ database, shopify } = shop);
    const { deps } = shopify.runtime();
    const [subscription] = shopify.admin.billing.subscriptions;
    const approved = shopify.admin.billing.approve(subscription.confirmationUrl);
    await shopify.deliver({
      topic: "app_subscriptions/update",
      shop: SHOP,
      payload: appSubscriptionsUpdatePayload(approved),
    });
    await shopify.settled();
    const { merchant_id: merchantId } = (await database.db.get<{ merchant_id: string }>(
      "SELECT merchant_id FROM shop_installations WHERE shop = ?",
      [SHOP],
    ))!;
    await makeShopLive(database.db, deps.services, SHOP, merchantId);
    const { chargeClosedStatements } = await import("../../app/shopify/billing.server.ts");
    const firstWeek = periodContaining("weekly", Date.now()).end;
    // 400.00 charged; then 800.00, which would pass the 1,000.00 cap: it waits.
    for (const [week, amountsCents] of [[-40_000], [-80_000]].entries()) {
      const statementId = await closeLiveWeek(database.db, deps.services, {
        merchantId,
        weekStart: firstWeek + week * WEEK_MS,
        amountsCents,
      });
      charged ??= statementId;
      await chargeClosedStatements(deps);
      await shopify.settled();
    }
    admin = await shop.startAdmin({ artifacts: ARTIFACTS, prefix: "embedded-billing-" });
  }, 300_000);

  afterAll(() => shop?.close());

  it("shows a charge waiting for a higher cap, a statement's Shopify charge, and live protection paused, with no axe-core violation", async () => {
    const context = await admin.newContext();
    const page = await context.newPage();

    await admin.open(page, "/app");
    await page.getByText("A charge is waiting: it would pass your usage cap").waitFor();
    assert.ok(await page.getByRole("button", { name: "Raise the cap" }).isVisible());
    await admin.check(page, "cap");

    await admin.open(page, `/app/settlements/${charged}`);
    await page.getByRole("heading", { name: "Shopify charge" }).waitFor();
    assert.ok(await page.getByText("Charged", { exact: true }).isVisible());
    assert.ok(await page.getByText(/^gid:\/\/shopify\/AppUsageRecord\//).isVisible());
    await admin.check(page, "statement");

    const current = shopify.admin.billing.subscriptions.find((subscription) => subscription.status === "ACTIVE")!;
    const cancelled = shopify.admin.billing.setStatus(current.id, "CANCELLED");
    await shopify.deliver({
      topic: "app_subscriptions/update",
      shop: SHOP,
      payload: appSubscriptionsUpdatePayload(cancelled),
    });
    await shopify.settled();
    await admin.open(page, "/app");
    await page.getByText("Live protection is paused: your subscription is cancelled").waitFor();
    assert.ok(await page.getByRole("button", { name: "Set up usage charges again" }).isVisible());
    await admin.check(page, "paused");
    assert.deepEqual(admin.pageErrors, []);
    await context.close();
  });
});
