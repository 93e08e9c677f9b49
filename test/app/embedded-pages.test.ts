// The dashboard's pages as the Shopify admin's iframe loads them, in real Chromium over the web app's real process
// (`npm start` over the build, with Shopify credentials): each page is a document load carrying the `id_token` App
// Bridge adds (a session token made as Shopify makes it) and the `embedded`, `shop` and `host` parameters. The shop is
// installed first through the app's real wiring against the fake Admin API. App Bridge's script comes from Shopify's
// CDN, which this machine cannot reach: the test cuts that request off, so the pages render without the admin's frame
// (the navigation menu lives in it). axe-core on every page; screenshots at 390 px and 1280 px under
// test-artifacts/dashboard/embedded-*.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import path from "node:path";
import { text } from "node:stream/consumers";
import { sessionToken } from "../support/shopify.ts";
import type { ShopifyAppHarness } from "../support/shopify-app.ts";
import {
  deliverProtectedOrder,
  installEmbeddedShop,
  type EmbeddedAdmin,
  type EmbeddedShop,
} from "../support/embedded-admin.ts";

const ARTIFACTS = path.resolve(import.meta.dirname, "../../test-artifacts/dashboard");
const SHOP = "embedded-pages.myshopify.com";

describe("the dashboard in the Shopify admin, in Chromium (sqlite)", () => {
  let shop: EmbeddedShop;
  let shopify: ShopifyAppHarness;
  let admin: EmbeddedAdmin;

  beforeAll(async () => {
    shop = await installEmbeddedShop(SHOP);
    ({ shopify } = shop);
    await deliverProtectedOrder(shopify, SHOP);
    admin = await shop.startAdmin({ artifacts: ARTIFACTS, prefix: "embedded-" });
  }, 300_000);

  afterAll(() => shop?.close());

  it("renders the overview, analytics, purchases, keys, webhooks, program, Go live and Developers in the shop's test mode, with no axe-core violation", async () => {
    // A merchant's browser, not a headless one: authenticate.admin answers 410 to user agents it takes for bots.
    const context = await admin.newContext();
    const page = await context.newPage();

    await admin.open(page, "/app");
    await page.getByRole("heading", { name: "Overview" }).waitFor();
    assert.ok(await page.getByText("Test mode", { exact: true }).isVisible(), "the mode banner");
    assert.ok(await page.getByText("Protected orders").isVisible(), "the shop's part of the overview");
    assert.ok(await page.getByRole("heading", { name: "Claim decisions" }).isVisible(), "the claims' decision figures");
    await admin.check(page, "overview");

    for (const [pathname, heading, name] of [
      ["/app/purchases", "Purchases", "purchases"],
      ["/app/developers/keys", "API keys", "keys"],
      ["/app/developers/webhooks", "Webhooks", "webhooks"],
      ["/app/program", "Program", "program"],
      ["/app/go-live", "Go live", "go-live"],
      ["/app/developers", "Developers", "developers"],
    ]) {
      await admin.open(page, pathname);
      await page.getByRole("heading", { name: heading, exact: true }).waitFor();
      await admin.check(page, name);
    }
    // Analytics: the shop's protected order in the last 30 days' tiles, and the CSV link the admin fetches.
    await admin.open(page, "/app/analytics");
    await page.getByRole("heading", { name: "Analytics", exact: true }).waitFor();
    assert.match(
      await page.locator('h3:text-is("Offers shown")').locator("xpath=..").innerText(),
      /Offers shown\s+1\s/,
    );
    await admin.check(page, "analytics");
    // In the admin, App Bridge's fetch adds the session token to the page's own requests; its script is cut off here.
    await context.route("**/app/analytics.csv*", (route) =>
      route.continue({ headers: { ...route.request().headers(), authorization: `Bearer ${sessionToken(SHOP)}` } }),
    );
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download the series (CSV)" }).click(),
    ]);
    const [header, ...days] = (await text(await download.createReadStream())).trimEnd().split("\r\n");
    assert.match(header, /^period_start,currency,offers_shown,confirmed,/);
    assert.equal(days.length, 30, "one row per day of the last 30 days");
    assert.equal(
      days.reduce((sum, row) => sum + Number(row.split(",")[3]), 0),
      1,
    );
    // Developers: the shop's merchant id and its program's id and terms, the API base on this app.
    await admin.open(page, "/app/developers");
    assert.match(await page.innerText("[data-value=merchant-id]"), /^mer_/);
    assert.match(await page.innerText("[data-value=program-id]"), /^prog_/);
    assert.match(await page.innerText("[data-value=api-base]"), /^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    assert.ok(await page.getByText("3 % of the covered amount").isVisible());
    // The pair the app holds for the shop is marked on the keys page.
    await admin.open(page, "/app/developers/keys");
    assert.equal(await page.getByText("Held by the Shopify app").count(), 2);
    // Go live shows the storefront step and the order-confirmation snippet.
    await admin.open(page, "/app/go-live");
    assert.ok(await page.getByText("The storefront setup", { exact: false }).isVisible());
    assert.ok(await page.getByLabel("Liquid snippet").isVisible());
    assert.deepEqual(admin.pageErrors, []);
    await context.close();
  });
});
