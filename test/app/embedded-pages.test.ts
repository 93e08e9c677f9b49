// The dashboard's pages as the Shopify admin's iframe loads them, in real Chromium over the web app's real process
// (`npm start` over the build, with Shopify credentials): each page is a document load carrying the `id_token` App
// Bridge adds (a session token made as Shopify makes it) and the `embedded`, `shop` and `host` parameters. The shop is
// installed first through the app's real wiring against the fake Admin API. App Bridge's script comes from Shopify's
// CDN, which this machine cannot reach: the test cuts that request off, so the pages render without the admin's frame
// (the navigation menu lives in it). axe-core on every page; screenshots at 390 px and 1280 px under
// test-artifacts/dashboard/embedded-*.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { createTestDatabase, type TestDatabase } from "../support/databases.ts";
import { axeViolations, launchBrowser, type TestPage } from "../support/widget/browser.ts";
import { orderPayload, sessionToken } from "../support/shopify.ts";
import { startShopifyApp, type ShopifyAppHarness } from "../support/shopify-app.ts";
import { startWebApp, type WebAppProcess } from "../support/web-app.ts";

const ARTIFACTS = path.resolve(import.meta.dirname, "../../test-artifacts/dashboard");
const WIDTHS = [390, 1280];
const SHOP = "embedded-pages.myshopify.com";

describe("the dashboard in the Shopify admin, in Chromium (sqlite)", () => {
  let database: TestDatabase;
  let dataDir: string;
  let shopify: ShopifyAppHarness;
  let web: WebAppProcess;
  let browser: Browser;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-embedded-pages-"));
    shopify = await startShopifyApp({
      dialect: "sqlite",
      shops: [SHOP],
      existing: { databaseUrl: database.url, dataDir },
    });
    await shopify.install(SHOP);
    const installation = (await shopify.runtime().deps.installation(SHOP))!;
    // The tier of the fee a 40.00 order is quoted (1.20), as the cart's widget adds it.
    const tier = installation.tiers.find((candidate) => candidate.priceCents >= 120)!;
    const order = orderPayload({
      lines: [
        { productId: 111, price: "40.00" },
        { productId: installation.productId!, variantId: tier.variantId, price: (tier.priceCents / 100).toFixed(2) },
      ],
      attributes: { _protection: "accepted" },
    });
    assert.equal(await shopify.deliver({ topic: "orders/create", shop: SHOP, payload: order }), 200);
    await shopify.settled();
    // startShopifyApp put the app's Shopify credentials in this process's environment: the web app gets them too.
    [web, browser] = await Promise.all([
      startWebApp({
        ...process.env,
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        LOG_LEVEL: "info",
        EDGE_LIMITS: "off",
      }),
      launchBrowser(),
    ]);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await web?.stop();
    await shopify?.close();
    await database?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** A document load of an admin page as the admin's iframe makes it. */
  async function open(page: Page, pathname: string) {
    const host = Buffer.from(`admin.shopify.com/store/${SHOP.replace(".myshopify.com", "")}`).toString("base64url");
    const query = new URLSearchParams({ embedded: "1", shop: SHOP, host, id_token: sessionToken(SHOP) });
    const response = await page.goto(`${web.origin}${pathname}?${query}`);
    assert.equal(response?.status(), 200, `${pathname}: ${await response?.text()}`);
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
  }

  async function check(page: Page, name: string) {
    assert.deepEqual(await axeViolations({ page } as TestPage), [], `${name}: axe-core violations`);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: path.join(ARTIFACTS, `embedded-${name}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  it("renders the overview, purchases, keys, webhooks, program, Go live and Developers in the shop's test mode, with no axe-core violation", async () => {
    // A merchant's browser, not a headless one: authenticate.admin answers 410 to user agents it takes for bots.
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      userAgent: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${browser.version().split(".")[0]}.0.0.0 Safari/537.36`,
    });
    // App Bridge's script is on Shopify's CDN (unreachable here): cut off at once rather than waited for.
    await context.route("https://cdn.shopify.com/**", (route) => route.abort());
    const page = await context.newPage();
    page.on("pageerror", (error) => pageErrors.push(`${page.url()}: ${error.message}`));

    await open(page, "/app");
    await page.getByRole("heading", { name: "Overview" }).waitFor();
    assert.ok(await page.getByText("Test mode", { exact: true }).isVisible(), "the mode banner");
    assert.ok(await page.getByText("Protected orders").isVisible(), "the shop's part of the overview");
    await check(page, "overview");

    for (const [pathname, heading, name] of [
      ["/app/purchases", "Purchases", "purchases"],
      ["/app/developers/keys", "API keys", "keys"],
      ["/app/developers/webhooks", "Webhooks", "webhooks"],
      ["/app/program", "Program", "program"],
      ["/app/go-live", "Go live", "go-live"],
      ["/app/developers", "Developers", "developers"],
    ]) {
      await open(page, pathname);
      await page.getByRole("heading", { name: heading, exact: true }).waitFor();
      await check(page, name);
    }
    // Developers: the shop's merchant id and its program's id and terms, the API base on this app.
    await open(page, "/app/developers");
    assert.match(await page.innerText("[data-value=merchant-id]"), /^mer_/);
    assert.match(await page.innerText("[data-value=program-id]"), /^prog_/);
    assert.match(await page.innerText("[data-value=api-base]"), /^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    assert.ok(await page.getByText("3 % of the covered amount").isVisible());
    // The pair the app holds for the shop is marked on the keys page.
    await open(page, "/app/developers/keys");
    assert.equal(await page.getByText("Held by the Shopify app").count(), 2);
    // Go live shows the storefront step and the order-confirmation snippet.
    await open(page, "/app/go-live");
    assert.ok(await page.getByText("The storefront setup", { exact: false }).isVisible());
    assert.ok(await page.getByLabel("Liquid snippet").isVisible());
    assert.deepEqual(pageErrors, []);
    await context.close();
  });
});
