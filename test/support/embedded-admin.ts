// The Shopify admin's iframe as the embedded Chromium tests load it: the web app's real process over a Shopify app's
// database (startShopifyApp put the app's credentials in this process's environment: the web app gets them too), a
// merchant's browser (authenticate.admin answers 410 to user agents it takes for bots) with App Bridge's script cut
// off (it is on Shopify's CDN, unreachable here), each page a document load carrying the session token and the
// `embedded`, `shop` and `host` parameters; a page checked with axe-core and screenshotted at 390 and 1280 px, and
// no uncaught error on any page. installEmbeddedShop makes the shop such a suite runs on.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { launchBrowser } from "./widget/browser.ts";
import { checkPage } from "./page-checks.ts";
import { createTestDatabase, type TestDatabase } from "./databases.ts";
import { orderPayload, sessionToken } from "./shopify.ts";
import { startShopifyApp, type ShopifyAppHarness } from "./shopify-app.ts";
import { startWebApp, type WebAppProcess } from "./web-app.ts";

export interface EmbeddedAdmin {
  web: WebAppProcess;
  browser: Browser;
  /** A merchant's browser context, App Bridge's CDN cut off; its pages' uncaught errors go to pageErrors. */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  /**
   * newContext, every request the page makes after the document load carrying the session token as App Bridge adds it
   * (its script is cut off), so the page's forms post as they do in the admin.
   */
  newTokenContext(): Promise<BrowserContext>;
  /** A document load of an admin page as the admin's iframe makes it, once the page is hydrated. */
  open(page: Page, pathname: string): Promise<void>;
  /** axe-core 0 violations, no sideways scroll, screenshots at 390 and 1280 px, no page error so far. */
  check(page: Page, name: string): Promise<void>;
  /** "<url>: <message>" of every uncaught error on a page of newContext's contexts. */
  pageErrors: string[];
  close(): Promise<void>;
}

export async function startEmbeddedAdmin(options: {
  shop: string;
  databaseUrl: string;
  dataDir: string;
  /** Where screenshots go, named `<prefix><name>-<width>.png`. */
  artifacts: string;
  prefix: string;
}): Promise<EmbeddedAdmin> {
  const { shop, artifacts, prefix } = options;
  const [web, browser] = await Promise.all([
    startWebApp({
      ...process.env,
      DATABASE_URL: options.databaseUrl,
      DATA_DIR: options.dataDir,
      LOG_LEVEL: "info",
      EDGE_LIMITS: "off",
    }),
    launchBrowser(),
  ]);
  fs.mkdirSync(artifacts, { recursive: true });
  const pageErrors: string[] = [];
  async function newContext(contextOptions: BrowserContextOptions = {}) {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      userAgent: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${browser.version().split(".")[0]}.0.0.0 Safari/537.36`,
      ...contextOptions,
    });
    await context.route("https://cdn.shopify.com/**", (route) => route.abort());
    context.on("page", (page) => page.on("pageerror", (error) => pageErrors.push(`${page.url()}: ${error.message}`)));
    return context;
  }
  return {
    web,
    browser,
    pageErrors,
    newContext,
    async newTokenContext() {
      const context = await newContext();
      await context.route(`${web.origin}/**`, (route) =>
        route.request().resourceType() === "fetch"
          ? route.continue({ headers: { ...route.request().headers(), authorization: `Bearer ${sessionToken(shop)}` } })
          : route.continue(),
      );
      return context;
    },
    async open(page, pathname) {
      const host = Buffer.from(`admin.shopify.com/store/${shop.replace(".myshopify.com", "")}`).toString("base64url");
      const query = new URLSearchParams({ embedded: "1", shop, host, id_token: sessionToken(shop) });
      const response = await page.goto(`${web.origin}${pathname}?${query}`);
      assert.equal(response?.status(), 200, `${pathname}: ${await response?.text()}`);
      await page.waitForSelector("html[data-drawn]", { state: "attached" });
    },
    check: (page, name) => checkPage(page, `${prefix}${name}`, { dir: artifacts, pageErrors }),
    async close() {
      await browser.close();
      await web.stop();
    },
  };
}

/** An embedded-admin suite's shop: the Shopify app with the shop installed, over its own SQLite database and files. */
export interface EmbeddedShop {
  database: TestDatabase;
  shopify: ShopifyAppHarness;
  /** The admin over the shop's database and files (startEmbeddedAdmin), once the suite has seeded what it needs. */
  startAdmin(options: { artifacts: string; prefix: string }): Promise<EmbeddedAdmin>;
  /** Closes what was started: the admin, the app, the database, the files. */
  close(): Promise<void>;
}

export async function installEmbeddedShop(shop: string): Promise<EmbeddedShop> {
  const database = await createTestDatabase("sqlite");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `pp-${shop.split(".")[0]}-`));
  let shopify: ShopifyAppHarness | undefined;
  let admin: EmbeddedAdmin | undefined;
  const close = async () => {
    await admin?.close();
    await shopify?.close();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    shopify = await startShopifyApp({
      dialect: "sqlite",
      shops: [shop],
      existing: { databaseUrl: database.url, dataDir },
    });
    await shopify.install(shop);
  } catch (error) {
    await close();
    throw error;
  }
  return {
    database,
    shopify,
    async startAdmin(options) {
      admin = await startEmbeddedAdmin({ shop, databaseUrl: database.url, dataDir, ...options });
      return admin;
    },
    close,
  };
}

/**
 * A 40.00 order of the shop with the buyer's protection: the line of the fee's tier (1.20) in the cart, as the cart's
 * widget adds it, delivered as orders/create and run; resolves when the app has protected it.
 */
export async function deliverProtectedOrder(shopify: ShopifyAppHarness, shop: string, orderId?: number): Promise<void> {
  const installation = (await shopify.runtime().deps.installation(shop))!;
  const tier = installation.tiers.find((candidate) => candidate.priceCents >= 120)!;
  const order = orderPayload({
    id: orderId,
    lines: [
      { productId: 111, price: "40.00" },
      { productId: installation.productId!, variantId: tier.variantId, price: (tier.priceCents / 100).toFixed(2) },
    ],
    attributes: { _protection: "accepted" },
  });
  assert.equal(await shopify.deliver({ topic: "orders/create", shop, payload: order }), 200);
  await shopify.settled();
}
