// The merchant's forms inside the Shopify admin (/app), in real Chromium over the web app's real process: the page is
// a document load carrying App Bridge's id_token, and every request the page makes after it carries the session token
// as App Bridge adds it (Authorization: Bearer), so the forms post as they do in the admin. The program's amounts are
// typed as money ("$129.99" saves 12999), the claim rules are a form, who pays for protection is a choice (a split
// with the buyer's share), revoking a key asks first, and going live asks
// first and the mode banner says the shop is live right away, without a reload. axe-core 0; screenshots at 390 and
// 1280 px under test-artifacts/dashboard/embedded-forms-*.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import type { TestDatabase } from "../support/databases.ts";
import type { ShopifyAppHarness } from "../support/shopify-app.ts";
import { installEmbeddedShop, type EmbeddedAdmin, type EmbeddedShop } from "../support/embedded-admin.ts";
import { appSubscriptionsUpdatePayload } from "../support/shopify-billing.ts";
import { DEFAULT_AUTO_APPROVE_MAX_CENTS } from "../../server/domain/programs.ts";

const ARTIFACTS = path.resolve(import.meta.dirname, "../../test-artifacts/dashboard");
const SHOP = "embedded-forms.myshopify.com";

describe("the merchant's forms in the Shopify admin, in Chromium (sqlite)", () => {
  let shop: EmbeddedShop;
  let database: TestDatabase;
  let shopify: ShopifyAppHarness;
  let admin: EmbeddedAdmin;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    shop = await installEmbeddedShop(SHOP);
    ({ database, shopify } = shop);
    admin = await shop.startAdmin({ artifacts: ARTIFACTS, prefix: "embedded-forms-" });
    // What App Bridge does for the page's own requests (its script is cut off): the session token on each.
    context = await admin.newTokenContext();
    page = await context.newPage();
  }, 300_000);

  afterAll(async () => {
    await context?.close().catch(() => {});
    await shop?.close();
  });

  const db = () => database.db;
  const merchantId = async () =>
    (await db().get<{ merchant_id: string }>("SELECT merchant_id FROM shop_installations WHERE shop = ?", [SHOP]))!
      .merchant_id;

  const open = (pathname: string) => admin.open(page, pathname);

  const check = (name: string) => admin.check(page, name);

  it("saves the program's amounts typed as money and its claim rules from the form", async () => {
    await open("/app/program");
    await page.getByRole("heading", { name: "Program", exact: true }).waitFor();
    assert.equal(await page.locator("text=minor units").count(), 0);
    await page.fill("input[name=maxCovered-USD]", "$129.99");
    await page.fill("input[name=minFee-JPY]", "¥180");
    await page.check("input[name=autoApprove]");
    await page.fill("input[name=autoApproveMax-USD]", "$25");
    await page.check("input[name=autoApproveReasons][value=missing_items]");
    await page.click("button:has-text('Save the terms')");
    await page.waitForSelector("text=Saved: offers quoted from now on use these terms.");
    const saved = (await db().get<{ currency_limits: string; claim_rules: string }>(
      "SELECT currency_limits, claim_rules FROM protection_programs WHERE merchant_id = ? AND mode = 'test'",
      [await merchantId()],
    ))!;
    const limits = JSON.parse(saved.currency_limits);
    assert.equal(limits.USD.maxCoveredCents, 12_999);
    assert.equal(limits.JPY.minFeeCents, 180, "yen typed whole, saved as yen");
    assert.deepEqual(JSON.parse(saved.claim_rules), {
      // Each other currency keeps the amount it was offered: about $50 in its own money.
      autoApprove: {
        maxAmountCentsByCurrency: { ...DEFAULT_AUTO_APPROVE_MAX_CENTS, USD: 2_500 },
        reasons: ["missing_items"],
        maxRiskLevel: "elevated",
      },
      replacementAllowed: false,
    });
    await open("/app/program");
    assert.equal(await page.inputValue("input[name=maxCovered-USD]"), "$129.99");
    assert.equal(await page.inputValue("input[name=minFee-JPY]"), "¥180");
    assert.ok(await page.isChecked("input[name=autoApproveReasons][value=missing_items]"));
    await check("program");
  });

  it("saves who pays for protection: a split with the buyer's share, refused at its field when out of range", async () => {
    await open("/app/program");
    await page.getByRole("heading", { name: "Program", exact: true }).waitFor();
    const payer = async () =>
      (await db().get<{ payer: string; buyer_share_bps: number | null }>(
        "SELECT payer, buyer_share_bps FROM protection_programs WHERE merchant_id = ? AND mode = 'test'",
        [await merchantId()],
      ))!;
    assert.deepEqual({ ...(await payer()) }, { payer: "buyer", buyer_share_bps: null });
    // The merchant too on Shopify (docs/shopify.md "Who pays on Shopify": its orders path protects every order of a
    // merchant-paid program), with the EU and UK advice to pay for protection itself.
    assert.deepEqual(
      await page
        .locator("input[name=payer]")
        .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value)),
      ["buyer", "merchant", "split"],
    );
    await page.waitForSelector(
      "text=the seller carries transit risk until delivery: consider paying for protection yourself",
    );
    await page.waitForSelector("text=Every order is protected and buyers see a notice that your store protects it");
    await page.click("label:has-text('You, the merchant (every order protected, no checkbox)')");
    await page.click("button:has-text('Save the terms')");
    await page.waitForSelector("text=Saved: offers quoted from now on use these terms.");
    assert.deepEqual({ ...(await payer()) }, { payer: "merchant", buyer_share_bps: null });
    await open("/app/program");
    await page.getByRole("heading", { name: "Program", exact: true }).waitFor();
    assert.ok(await page.isChecked("input[name=payer][value=merchant]"));
    await check("program-merchant");
    // Polaris draws its own radio over the input: a person clicks the label.
    await page.click("label:has-text('Split (the buyer pays a share)')");
    await page.fill("input[name=buyerSharePercent]", "0");
    await page.click("button:has-text('Save the terms')");
    await page.waitForSelector("#buyerSharePercentError:has-text('at least 0.01 %')");
    assert.deepEqual({ ...(await payer()) }, { payer: "merchant", buyer_share_bps: null });
    await page.fill("input[name=buyerSharePercent]", "25");
    await page.click("button:has-text('Save the terms')");
    await page.waitForSelector("text=Saved: offers quoted from now on use these terms.");
    assert.deepEqual({ ...(await payer()) }, { payer: "split", buyer_share_bps: 2_500 });
    await open("/app/program");
    assert.ok(await page.isChecked("input[name=payer][value=split]"));
    assert.equal(await page.inputValue("input[name=buyerSharePercent]"), "25");
    await check("program-split");
  });

  it("revokes a key only from the confirmation step; goes live only from its step, and the banner says live at once", async () => {
    await open("/app/developers/keys");
    await page.fill("input[name=label]", "Warehouse sync");
    await page.selectOption("select[name=kind]", "restricted");
    await page.click("button:has-text('Mint the key')");
    await page.waitForSelector("label:has-text('New key Warehouse sync (rk_test_')");
    const row = page.locator("tr", { hasText: "Warehouse sync" });
    await row.getByRole("button", { name: /^Revoke now: Warehouse sync/ }).click();
    await row.getByRole("button", { name: "Yes, revoke it" }).waitFor();
    await check("keys-confirm-revoke");
    await row.getByRole("button", { name: "Yes, revoke it" }).click();
    await page.waitForSelector("text=is revoked");

    // Live protection is charged through Shopify: the merchant approved the app's usage subscription first.
    const pending = (await db().get<{ confirmation_url: string }>(
      "SELECT confirmation_url FROM shopify_subscriptions WHERE shop = ?",
      [SHOP],
    ))!;
    const approved = shopify.admin.billing.approve(pending.confirmation_url);
    assert.equal(
      await shopify.deliver({
        topic: "app_subscriptions/update",
        shop: SHOP,
        payload: appSubscriptionsUpdatePayload(approved),
      }),
      200,
    );
    await shopify.settled();

    await open("/app/go-live");
    assert.ok(await page.getByText("Test mode", { exact: true }).isVisible());
    await page.check("input[name=confirmationEmail]");
    await page.getByRole("button", { name: "Go live", exact: true }).click();
    await page.waitForSelector("text=This cannot be undone.");
    await check("go-live-confirm");
    await page.getByRole("button", { name: "Yes, go live" }).click();
    await page.waitForSelector("text=The shop is live: its orders get real protection plans from now on.");
    // The same page view: the banner follows the shop's mode without a reload.
    await page.getByText("Live mode", { exact: true }).waitFor();
    assert.equal(await page.getByText("Test mode", { exact: true }).count(), 0);
    const { mode } = (await db().get<{ mode: string }>("SELECT mode FROM shop_installations WHERE shop = ?", [SHOP]))!;
    assert.equal(mode, "live");
    await check("go-live-done");
  });
});
