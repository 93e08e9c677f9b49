// Money at a glance in the Shopify admin (/app), in real Chromium over the web app's real process, as
// test/app/embedded-pages.test.ts loads the admin's pages (a session token made as Shopify makes it; App Bridge's CDN
// cut off): a shop's protected order this week, a reimbursed claim in an earlier week closed on a statement. The
// overview's running balance and the Settlements page (the balance on top, the closed statement below, its CSV
// downloaded through the embedded shell's fetch). axe-core 0 violations; screenshots at 390 and 1280 px under
// test-artifacts/money/embedded-* (looked at).
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import path from "node:path";
import { text } from "node:stream/consumers";
import type { TestDatabase } from "../support/databases.ts";
import { sessionToken } from "../support/shopify.ts";
import type { ShopifyAppHarness } from "../support/shopify-app.ts";
import {
  deliverProtectedOrder,
  installEmbeddedShop,
  type EmbeddedAdmin,
  type EmbeddedShop,
} from "../support/embedded-admin.ts";
import { appendLedgerEntry } from "../../server/domain/ledger.ts";
import {
  closeEndedPeriods,
  listSettlements,
  periodContaining,
  runningBalances,
} from "../../server/domain/settlements.ts";
import { formatMoney } from "../../app/components/dashboard/format.ts";

const ARTIFACTS = path.resolve(import.meta.dirname, "../../test-artifacts/money");
const SHOP = "embedded-money.myshopify.com";

describe("money at a glance in the Shopify admin, in Chromium (sqlite)", () => {
  let shop: EmbeddedShop;
  let database: TestDatabase;
  let shopify: ShopifyAppHarness;
  let admin: EmbeddedAdmin;
  let owner: { merchantId: string; mode: "test" | "live" };

  beforeAll(async () => {
    shop = await installEmbeddedShop(SHOP);
    ({ database, shopify } = shop);
    const installation = (await shopify.runtime().deps.installation(SHOP))!;
    owner = { merchantId: installation.merchantId, mode: installation.mode };
    // A claim reimbursed two weeks ago, closed on its statement as the worker closes it.
    const { protectionRuntime } = await import("../../app/protection-api.server.ts");
    const services = protectionRuntime().services;
    const twoWeeksAgo = periodContaining("weekly", Date.now()).start - 10 * 24 * 60 * 60 * 1000;
    await database.db.transaction((tx) =>
      appendLedgerEntry(tx, { ...services, clock: () => twoWeeksAgo }, owner, {
        kind: "claim_reimbursement",
        amountCents: 4_250,
        currency: "USD",
        sourceId: "clm_embedded_money",
      }),
    );
    assert.ok((await closeEndedPeriods(database.db, services)) >= 1);
    await deliverProtectedOrder(shopify, SHOP);
    admin = await shop.startAdmin({ artifacts: ARTIFACTS, prefix: "embedded-" });
  }, 300_000);

  afterAll(() => shop?.close());

  it("the overview and Settlements show the running balance; the closed statement's CSV downloads", async () => {
    const context = await admin.newContext({
      acceptDownloads: true,
    });
    const page = await context.newPage();

    const [balance] = await runningBalances(database.db, owner, Date.now());
    assert.equal(balance.openingBalanceCents, 4_250, "the reimbursed claim, carried");
    assert.ok(balance.entryCount >= 2, "this week's order: its fee and share");
    const owed = formatMoney(Math.abs(balance.balanceCents), "USD");
    const sentence =
      balance.balanceCents < 0
        ? `You owe Purchase Protection Inc. ${owed}`
        : `Purchase Protection Inc. owes you ${owed}`;

    await admin.open(page, "/app");
    await page.getByRole("heading", { name: "Running balance, USD", exact: false }).waitFor();
    assert.ok(await page.getByText(sentence, { exact: true }).isVisible(), sentence);
    assert.ok(await page.getByText(/This weekly statement closes Monday .* at 00:15 UTC/).isVisible());
    await admin.check(page, "overview");

    await admin.open(page, "/app/settlements");
    await page.getByRole("heading", { name: "Settlements", exact: true }).waitFor();
    assert.ok(await page.getByText(sentence, { exact: true }).isVisible(), "the same balance on top");
    await admin.check(page, "settlements");
    // The claim's week and the empty week after it (periods chain without gaps), newest first.
    const statements = (await listSettlements(database.db, owner, { limit: 10 })).data;
    assert.deepEqual(
      statements.map((statement) => statement.entryCount),
      [0, 1],
    );
    // In the admin, App Bridge's fetch adds the session token to the page's own requests; its script is cut off here.
    await context.route("**/app/settlements/*/entries.csv", (route) =>
      route.continue({ headers: { ...route.request().headers(), authorization: `Bearer ${sessionToken(SHOP)}` } }),
    );
    // The claim's week opens on its page, whose button downloads the CSV.
    await admin.open(page, `/app/settlements/${statements[1].id}`);
    await page.getByRole("heading", { name: "At its close Purchase Protection Inc. owed you $42.50" }).waitFor();
    assert.ok(await page.getByText("Claim reimbursed to you", { exact: true }).isVisible());
    await admin.check(page, "statement");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download its 1 entries (CSV)" }).click(),
    ]);
    // The run's shared browser is remote to this process: the download is read as a stream, not from its path.
    const [header, ...rows] = (await text(await download.createReadStream())).trimEnd().split("\r\n");
    assert.equal(header, "entry_id,created_at,kind,amount_cents,currency,source_id,plan_id,note");
    assert.deepEqual(
      rows.map((row) => row.split(",").slice(2, 6)),
      [["claim_reimbursement", "4250", "USD", "clm_embedded_money"]],
    );
    assert.deepEqual(admin.pageErrors, []);
    await context.close();
  });
});
