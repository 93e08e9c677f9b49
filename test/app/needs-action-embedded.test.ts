// Needs your action in the Shopify admin (/app), in real Chromium over the web app's real process (as
// embedded-pages.test.ts loads the admin's iframe): a shop whose claim payout gave up (its pay_claim job dead), a claim
// payout still retrying (not listed: the app's to finish), a failing endpoint and the go-live steps of a shop not live;
// each with what to do and a link to the /app page where to do it; no e-mail choice (Shopify's staff are not members).
// axe-core 0 violations; screenshots at 390 and 1280 px under test-artifacts/needs-action/embedded-*.
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
import { insertClaimRow } from "../support/claim-rows.ts";
import { CLAIM_PAYOUT_JOB } from "../../server/store/shopify-claim-payouts.ts";
import { claimPayoutJobId } from "../../app/shopify/claim-payouts.server.ts";

const ARTIFACTS = path.resolve(import.meta.dirname, "../../test-artifacts/needs-action");
const WIDTHS = [390, 1280];
const SHOP = "needs-action.myshopify.com";

describe("needs your action in the Shopify admin, in Chromium (sqlite)", () => {
  let database: TestDatabase;
  let dataDir: string;
  let shopify: ShopifyAppHarness;
  let web: WebAppProcess;
  let browser: Browser;
  const pageErrors: string[] = [];

  /** A protected order of the shop (the fee's tier in the cart); resolves to its plan. */
  async function protectedOrder(orderId: number) {
    const installation = (await shopify.runtime().deps.installation(SHOP))!;
    const tier = installation.tiers.find((candidate) => candidate.priceCents >= 120)!;
    const order = orderPayload({
      id: orderId,
      lines: [
        { productId: 111, price: "40.00" },
        { productId: installation.productId!, variantId: tier.variantId, price: (tier.priceCents / 100).toFixed(2) },
      ],
      attributes: { _protection: "accepted" },
    });
    assert.equal(await shopify.deliver({ topic: "orders/create", shop: SHOP, payload: order }), 200);
    await shopify.settled();
    return (await database.db.get<{ id: string; merchant_id: string; reference_number: string }>(
      "SELECT id, merchant_id, reference_number FROM plans WHERE order_id = ?",
      [String(orderId)],
    ))!;
  }

  /** An approved claim the app could not pay: its job as left (`dead`: gave up; `pending`: retrying). */
  async function unpaidClaim(plan: { id: string; merchant_id: string }, job: "dead" | "pending") {
    const now = Date.now();
    return database.db.transaction(async (tx) => {
      const claimId = await insertClaimRow(
        tx,
        { merchantId: plan.merchant_id, mode: "test" },
        {
          planId: plan.id,
          status: "approved",
          decisionCode: "covered",
          decisionMessage: "Approved.",
          amountCents: 4_000,
          at: now,
        },
      );
      await tx.run("UPDATE claims SET remedy = 'refund', payout_error = ? WHERE id = ?", [
        "Refund failed: the payment gateway refused it",
        claimId,
      ]);
      await tx.run(
        `INSERT INTO shopify_jobs (id, shop, kind, subject, payload, status, attempts, run_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, '{}', ?, 5, ?, ?, ?)`,
        [claimPayoutJobId(claimId), SHOP, CLAIM_PAYOUT_JOB, claimId, job, now + 3_600_000, now, now],
      );
      return claimId;
    });
  }

  let gaveUp = "";
  let gaveUpReference = "";
  let retrying = "";

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-needs-action-embedded-"));
    shopify = await startShopifyApp({
      dialect: "sqlite",
      shops: [SHOP],
      existing: { databaseUrl: database.url, dataDir },
    });
    await shopify.install(SHOP);
    const first = await protectedOrder(820001);
    const second = await protectedOrder(820002);
    gaveUp = await unpaidClaim(first, "dead");
    gaveUpReference = first.reference_number;
    retrying = await unpaidClaim(second, "pending");
    const now = Date.now();
    await database.db.run(
      `INSERT INTO webhook_endpoints (id, merchant_id, mode, url, events, secret_sealed, status, failing_since, created_at, updated_at)
       VALUES ('we_embedded_failing', ?, 'test', 'https://hooks.example.com/shop', '["*"]', 'sealed', 'failing', ?, ?, ?)`,
      [first.merchant_id, now - 4 * 86_400_000, now, now],
    );
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
      assert.ok(
        (await page.evaluate(() => document.documentElement.scrollWidth)) <= width,
        `${name}: no sideways scroll at ${width} px`,
      );
      await page.screenshot({ path: path.join(ARTIFACTS, `embedded-${name}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  it("lists the payout that gave up (not the one retrying), the failing endpoint and the go-live steps, each linking into /app", async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      userAgent: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${browser.version().split(".")[0]}.0.0.0 Safari/537.36`,
    });
    await context.route("https://cdn.shopify.com/**", (route) => route.abort());
    const page = await context.newPage();
    page.on("pageerror", (error) => pageErrors.push(`${page.url()}: ${error.message}`));

    await open(page, "/app");
    await page.getByRole("heading", { name: "Needs your action" }).waitFor();
    const payouts = page.locator("section[aria-labelledby=needs-shopify_payout]");
    const text = await payouts.innerText();
    assert.match(text, /Shopify payouts and fee refunds that gave up\s+1/);
    assert.match(text, new RegExp(`Claim on ${gaveUpReference} \\(order 820001\\): refund`));
    assert.match(text, /the payment gateway refused it\)\. Pay it in the Shopify admin and tell the claims team\./);
    assert.equal(await payouts.locator(`a[href="/app/claims/${gaveUp}"]`).count(), 1);
    assert.equal(await page.locator(`a[href="/app/claims/${retrying}"]`).count(), 0, "still retrying: not listed");
    const endpoints = page.locator("section[aria-labelledby=needs-webhook_endpoint]");
    assert.equal(
      await endpoints.locator('a[href="/app/developers/webhooks/we_embedded_failing"]').innerText(),
      "https://hooks.example.com/shop",
    );
    assert.ok(await page.locator("section[aria-labelledby=needs-go_live] a[href='/app/go-live']").first().isVisible());
    assert.equal(await page.getByLabel("E-mail me what needs action").count(), 0, "no members in the admin");
    await check(page, "overview");
    assert.deepEqual(pageErrors, []);
    await context.close();
  });
});
