// Money at a glance over the process `npm run demo` starts (docs/api.md "The running balance"), as a newcomer walks it in
// Chromium: the dashboard sign-in link the demo prints → the overview's running balance (what is owed which way,
// when the statement closes, the share rate) → Settlements: the same balance on top, the demo's closed statements
// below → a statement's CSV downloads with one row per entry. axe-core 0 violations on each page; screenshots at
// 390 and 1280 px in test-artifacts/money/ (looked at).
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { demoEnvironment, startDemo, type DemoProcess } from "../support/demo-process.ts";
import { launchBrowser, openPage, type TestPage } from "../support/widget/browser.ts";
import { checkPage, pageDrawn } from "../support/page-checks.ts";
import { formatBps, formatMoney } from "../../app/components/dashboard/format.ts";
import { applyBps } from "../../server/domain/money.ts";
import { DEFAULT_PROGRAM } from "../../server/domain/programs.ts";

const SCREENSHOTS = path.resolve(import.meta.dirname, "../../test-artifacts/money");

interface Statement {
  id: string;
  periodStart: string;
  periodEnd: string;
  netCents: number;
  closingBalanceCents: number;
  entryCount: number;
}

describe("money at a glance over `npm run demo` (Chromium)", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-money-"));
  let demo: DemoProcess;
  let browser: Browser;
  let tab: TestPage;
  let secretKey = "";

  beforeAll(async () => {
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    [demo, browser] = await Promise.all([startDemo(demoEnvironment(dir)), launchBrowser()]);
    secretKey = demo.output.match(/mch_test_[0-9A-Za-z]{32}/)![0];
    tab = await openPage(browser);
  }, 300_000);
  afterAll(async () => {
    await tab?.close().catch(() => undefined);
    await browser?.close();
    demo?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const api = async <T>(pathname: string): Promise<T> => {
    const response = await fetch(`${demo.origin}/api/v1${pathname}`, {
      headers: { Authorization: `Bearer ${secretKey}` },
    });
    assert.equal(response.status, 200, pathname);
    return (await response.json()) as T;
  };

  const check = (page: Page, name: string) => checkPage(page, name, { dir: SCREENSHOTS, pageErrors: tab.pageErrors });

  /** The balance card's line `label` → its amount, as the page shows it. */
  const lineOf = (page: Page, label: string) =>
    page.locator(`table[aria-label^="Running balance, USD"] tr:has(th:text-is("${label}")) td`).first().innerText();

  it("the printed link signs in; the overview's card says what is owed which way and when it closes", async () => {
    const { page } = tab;
    const link = demo.output.match(/Dashboard: +(http:\/\/\S+\/dashboard\/sign-in\/[\w-]{43})/)?.[1];
    assert.ok(link, "the demo prints the dashboard's sign-in link");
    await page.goto(link);
    await Promise.all([page.waitForURL(`${demo.origin}/dashboard`), page.click("button:has-text('Sign in')")]);
    await pageDrawn(page);

    const statements = (await api<{ data: Statement[] }>("/settlements")).data;
    assert.equal(statements.length, 2, "the demo seeded two closed statements");
    const [sample] = (await api<{ data: { feeCents: number }[] }>("/purchases?order_id=demo-order-1001")).data;
    // The sample order is this week's: its fee collected for us, its share earned, on top of the last closing.
    const share = applyBps(sample.feeCents, DEFAULT_PROGRAM.merchantShareBps);
    const balance = statements[0].closingBalanceCents - sample.feeCents + share;

    await page.waitForSelector("h2:has-text('Running balance, USD')");
    const card = await page.locator("h2:has-text('Running balance, USD')").locator("..").innerText();
    const owed = formatMoney(Math.abs(balance), "USD");
    assert.match(
      card,
      new RegExp(
        balance < 0 ? `You owe Purchase Protection Inc\\. \\${owed}` : `Purchase Protection Inc\\. owes you \\${owed}`,
      ),
    );
    assert.match(card, /This weekly statement closes Monday \d{1,2} [A-Z][a-z]{2} \d{4} at 00:15 UTC/);
    assert.equal(
      await lineOf(page, "Fees you collected for Purchase Protection Inc."),
      formatMoney(-sample.feeCents, "USD"),
    );
    assert.equal(
      await lineOf(page, `Your share of those fees (your share: ${formatBps(DEFAULT_PROGRAM.merchantShareBps)})`),
      `+${formatMoney(share, "USD")}`,
    );
    assert.equal(
      await lineOf(page, "Carried from the last statement"),
      `${statements[0].closingBalanceCents > 0 ? "+" : ""}${formatMoney(statements[0].closingBalanceCents, "USD")}`,
    );
    assert.equal(await lineOf(page, "Claims reimbursed to you"), "$0.00");
    assert.doesNotMatch(card, /minor units|\b(clm|plan|qt)_/);
    await check(page, "overview");

    await Promise.all([
      page.waitForURL(`${demo.origin}/dashboard/settlements`),
      page.click("a:has-text('Statements and their entries (CSV)')"),
    ]);
    await pageDrawn(page);
    await page.waitForSelector("h1:has-text('Settlements')");
    assert.match(
      await page.locator("h2:has-text('Running balance, USD')").locator("..").innerText(),
      new RegExp(`\\${owed}`),
      "the same balance on top of Settlements",
    );
    await check(page, "settlements");
  });

  it("a closed statement opens on its page (lines, entries) and its CSV downloads: one row per entry, summing to its net", async () => {
    const { page } = tab;
    const [newest] = (await api<{ data: Statement[] }>("/settlements")).data;
    await Promise.all([
      page.waitForURL(`${demo.origin}/dashboard/settlements/${newest.id}`),
      page.click(`a[href$="/settlements/${newest.id}"]`),
    ]);
    await pageDrawn(page);
    const owed = formatMoney(Math.abs(newest.closingBalanceCents), "USD");
    await page.waitForSelector(`h2:has-text("At its close")`);
    assert.match(
      await page.locator("h2:has-text('At its close')").innerText(),
      new RegExp(
        newest.closingBalanceCents < 0
          ? `At its close you owed Purchase Protection Inc\\. \\${owed}`
          : `At its close Purchase Protection Inc\\. owed you \\${owed}`,
      ),
    );
    const entries = page.locator('[role=region][aria-label="The statement\'s entries"] tbody tr');
    assert.equal(await entries.count(), newest.entryCount);
    assert.match(
      await page.locator('[role=region][aria-label="The statement\'s entries"]').innerText(),
      /Claim reimbursed to you/,
    );
    await check(page, "statement");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.click(`a:has-text('Download its ${newest.entryCount} entries (CSV)')`),
    ]);
    assert.ok(download.suggestedFilename().endsWith(`${newest.id}.csv`), download.suggestedFilename());
    const file = path.join(dir, "statement.csv");
    await download.saveAs(file);
    const [header, ...rows] = fs.readFileSync(file, "utf8").trimEnd().split("\r\n");
    assert.equal(header, "entry_id,created_at,kind,amount_cents,currency,source_id,plan_id,note");
    assert.equal(rows.length, newest.entryCount);
    const cells = rows.map((row) => row.split(","));
    assert.deepEqual(
      cells.map((row) => row[2]).sort(),
      ["claim_reimbursement", "fee_collected", "merchant_fee_share", "merchant_refund_credit"],
      "last week's order, refund report and paid claim",
    );
    assert.equal(
      cells.reduce((sum, row) => sum + Number(row[3]), 0),
      newest.netCents,
    );
    for (const row of cells) assert.ok(row[1] >= newest.periodStart && row[1] < newest.periodEnd, "in its week");
  });
});
