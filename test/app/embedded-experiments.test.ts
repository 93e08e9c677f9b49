// Offer experiments in the Shopify admin (/app/experiments), in real Chromium over the web app's real process, every
// request after the document load carrying the session token as App Bridge adds it: off by default, a refused
// variant changing nothing, an experiment started and rolled out (the program takes the variant's rate, the
// storefront's fee tiers are set up again) and the Analytics page listing it. axe-core 0; screenshots at 390 and
// 1280 px under test-artifacts/dashboard/embedded-experiments-*.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import type { TestDatabase } from "../support/databases.ts";
import { installEmbeddedShop, type EmbeddedAdmin, type EmbeddedShop } from "../support/embedded-admin.ts";

const ARTIFACTS = path.resolve(import.meta.dirname, "../../test-artifacts/dashboard");
const SHOP = "embedded-experiments.myshopify.com";

describe("offer experiments in the Shopify admin, in Chromium (sqlite)", () => {
  let shop: EmbeddedShop;
  let database: TestDatabase;
  let admin: EmbeddedAdmin;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    shop = await installEmbeddedShop(SHOP);
    ({ database } = shop);
    admin = await shop.startAdmin({ artifacts: ARTIFACTS, prefix: "embedded-experiments-" });
    context = await admin.newTokenContext();
    page = await context.newPage();
  }, 300_000);

  afterAll(async () => {
    await context?.close().catch(() => {});
    await shop?.close();
  });

  const merchantId = async () =>
    (await database.db.get<{ merchant_id: string }>("SELECT merchant_id FROM shop_installations WHERE shop = ?", [
      SHOP,
    ]))!.merchant_id;
  const experiments = async () =>
    database.db.all<{ state: string; rolled_out_variant: string | null }>(
      "SELECT state, rolled_out_variant FROM offer_experiments WHERE merchant_id = ? ORDER BY started_at",
      [await merchantId()],
    );
  const rateBps = async () =>
    (await database.db.get<{ rate_bps: number }>(
      "SELECT rate_bps FROM protection_programs WHERE merchant_id = ? AND mode = 'test'",
      [await merchantId()],
    ))!.rate_bps;

  it("starts nothing by itself, refuses a bad variant, starts one, rolls it out and lists it in Analytics", async () => {
    await admin.open(page, "/app/program");
    assert.ok(
      await page
        .getByRole("button", { name: "Offer experiments" })
        .or(page.getByRole("link", { name: "Offer experiments" }))
        .first()
        .isVisible(),
    );
    await admin.open(page, "/app/experiments");
    await page.getByRole("heading", { name: "Offer experiments", exact: true }).waitFor();
    await page.waitForSelector("h2:has-text('Start an experiment')");
    assert.deepEqual(await experiments(), []);
    await admin.check(page, "off");

    await page.fill("input[name=variant2Rate]", "0.5");
    await page.click("button:has-text('Start the experiment')");
    await page.waitForSelector("#variant2RateError:has-text('Choose a rate from 1.5 % to 4.5 %')");
    assert.deepEqual(await experiments(), []);

    await page.fill("input[name=variant2Rate]", "3.5");
    await page.click("button:has-text('Start the experiment')");
    await page.waitForSelector("text=The experiment is running: each cart gets one variant from now on.");
    assert.deepEqual(
      (await experiments()).map((each) => each.state),
      ["running"],
    );
    await admin.check(page, "running");

    await page.click("button:has-text('Roll out B')");
    await page.click("button:has-text('Yes, roll out B')");
    await page.waitForSelector("text=Variant B is rolled out: your program offers it from now on.");
    assert.equal(await rateBps(), 350);
    assert.deepEqual(
      (await experiments()).map((each) => [each.state, each.rolled_out_variant]),
      [["rolled_out", "B"]],
    );
    await admin.check(page, "rolled-out");

    await admin.open(page, "/app/analytics");
    await page.waitForSelector("h2:has-text('Offer experiments')");
    assert.ok(await page.isVisible("text=variant B rolled out"));
    await admin.check(page, "analytics");
    assert.deepEqual(admin.pageErrors, []);
  });
});
