// Needs your action in the Shopify admin (/app), in real Chromium over the web app's real process (as
// embedded-pages.test.ts loads the admin's iframe): a shop whose claim payout gave up (its pay_claim job dead), a claim
// payout still retrying (not listed: the app's to finish), a failing endpoint and the go-live steps of a shop not live;
// each with what to do and a link to the /app page where to do it; no e-mail choice (Shopify's staff are not members).
// axe-core 0 violations; screenshots at 390 and 1280 px under test-artifacts/needs-action/embedded-*.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import path from "node:path";
import type { TestDatabase } from "../support/databases.ts";
import type { ShopifyAppHarness } from "../support/shopify-app.ts";
import {
  deliverProtectedOrder,
  installEmbeddedShop,
  type EmbeddedAdmin,
  type EmbeddedShop,
} from "../support/embedded-admin.ts";
import { insertClaimRow } from "../support/claim-rows.ts";
import { CLAIM_PAYOUT_JOB, claimPayoutJobId } from "../../app/shopify/claim-payouts.server.ts";

const ARTIFACTS = path.resolve(import.meta.dirname, "../../test-artifacts/needs-action");
const SHOP = "needs-action.myshopify.com";

describe("needs your action in the Shopify admin, in Chromium (sqlite)", () => {
  let shop: EmbeddedShop;
  let database: TestDatabase;
  let shopify: ShopifyAppHarness;
  let admin: EmbeddedAdmin;

  /** A protected order of the shop (the fee's tier in the cart); resolves to its plan. */
  async function protectedOrder(orderId: number) {
    await deliverProtectedOrder(shopify, SHOP, orderId);
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
      await tx.run(
        "UPDATE claims SET remedy = 'refund', payout_error = ?, payout_state = ?, payout_attempts = 5 WHERE id = ?",
        ["Refund failed: the payment gateway refused it", job, claimId],
      );
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
    shop = await installEmbeddedShop(SHOP);
    ({ database, shopify } = shop);
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
    admin = await shop.startAdmin({ artifacts: ARTIFACTS, prefix: "embedded-" });
  }, 300_000);

  afterAll(() => shop?.close());

  it("lists the payout that gave up (not the one retrying), the failing endpoint and the go-live steps, each linking into /app", async () => {
    const context = await admin.newContext();
    const page = await context.newPage();

    await admin.open(page, "/app");
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
    await admin.check(page, "overview");
    assert.deepEqual(admin.pageErrors, []);
    await context.close();
  });
});
