// Needs your action over the process `npm run demo` starts (docs/dashboard.md "Needs your action"), in Chromium on the standalone
// dashboard: the demo merchant with approved claims its cart must pay (one overdue), a free-look fee to refund and a
// failing endpoint, not live → the overview lists each kind with its count, the overdue claim first and marked, the
// go-live steps, a link to where to act → the fee's link opens the purchase, whose confirmation refuses a reference
// too long (next to the field, nothing changed) and then records the refund (the fee refund is refunded, with the
// reference) → the overview no longer lists it; the Refunds page lists the fees to refund → the process's worker
// e-mails the owner a digest of the new items → the member unticks
// "E-mail me what needs action" (stored). axe-core 0 violations, no sideways scroll, screenshots at 390/1280 px in
// test-artifacts/needs-action/ (looked at).
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { simpleParser } from "mailparser";
import { demoEnvironment, startDemo, type DemoProcess } from "../support/demo-process.ts";
import { launchBrowser, openPage, type TestPage } from "../support/widget/browser.ts";
import { checkPage, pageDrawn } from "../support/page-checks.ts";
import { insertClaimRow } from "../support/claim-rows.ts";
import { waitFor } from "../support/wait.ts";
import { openDatabase } from "../../server/store/open.ts";
import type { Database } from "../../server/store/database.ts";
import { cancelInFreeLook } from "../../server/domain/portal.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";
import type { Services } from "../../server/domain/context.ts";

const SCREENSHOTS = path.resolve(import.meta.dirname, "../../test-artifacts/needs-action");
const DAY_MS = 24 * 60 * 60 * 1000;
const services: Services = {
  clock: Date.now,
  random: cryptoRandom,
  settings: { companyName: "Demo", portalUrl: "https://portal.example.test" },
};

describe("needs your action over `npm run demo` (Chromium, standalone)", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-needs-action-"));
  let demo: DemoProcess;
  let browser: Browser;
  let tab: TestPage;
  let db: Database;
  let secretKey = "";
  let programId = "";

  beforeAll(async () => {
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    // A digest round every second rather than every minute: the digest below is sent once the rows are in, not up to
    // a minute after the demo started.
    const env = demoEnvironment(dir, { DIGEST_POLL_MS: "1000" });
    [demo, browser] = await Promise.all([startDemo(env), launchBrowser()]);
    secretKey = demo.output.match(/mch_test_[0-9A-Za-z]{32}/)![0];
    programId = demo.output.match(/prog_[0-9A-Za-z_]+/)![0];
    db = openDatabase(`file:${dir}/demo.sqlite`);
    tab = await openPage(browser);
  }, 300_000);
  afterAll(async () => {
    await tab?.close().catch(() => undefined);
    await browser?.close();
    await db?.close();
    demo?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A protected order of the demo merchant, through the API as its server makes one. */
  async function protect() {
    const call = async (pathname: string, body: unknown) => {
      const response = await fetch(`${demo.origin}/api/v1${pathname}`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${secretKey}`,
          "Content-Type": "application/json",
          "Idempotency-Key": randomUUID(),
        },
        body: JSON.stringify(body),
      });
      assert.equal(response.status, 200, await response.clone().text());
      return response.json();
    };
    const quote = await call("/headless/quote", {
      order_amount_cents: 8_000,
      order_id: `order-${randomUUID().slice(0, 8)}`,
      protection_program_id: programId,
      currency: "USD",
      customer_email: "buyer@example.com",
    });
    const plan = await call("/headless/confirm", { quote_id: quote.quote_id });
    const row = (await db.get<{ merchant_id: string }>("SELECT merchant_id FROM plans WHERE id = ?", [plan.plan_id]))!;
    return { planId: plan.plan_id as string, reference: plan.reference_number as string, merchantId: row.merchant_id };
  }

  const check = (page: Page, name: string) => checkPage(page, name, { dir: SCREENSHOTS, pageErrors: tab.pageErrors });

  const card = (page: Page) => page.locator("section[aria-labelledby=needs-action]");
  const feeRefundRow = (planId: string) =>
    db.get<{ status: string; reference: string | null }>(
      "SELECT status, reference FROM fee_refunds WHERE plan_id = ?",
      [planId],
    );

  it("lists each kind with what to do and where; the fee refund is confirmed on its purchase, bad input changing nothing", async () => {
    const { page } = tab;
    const now = Date.now();
    const recent = await protect();
    const old = await protect();
    const cancelled = await protect();
    const owner = { merchantId: recent.merchantId, mode: "test" as const };
    const approved = (planId: string, at: number) =>
      insertClaimRow(db, owner, {
        planId,
        status: "approved",
        decisionCode: "covered",
        decisionMessage: "Approved.",
        amountCents: 4_200,
        at,
      });
    // The overdue claim first: a round between two of these rows sends the digest with what is in by then (the next
    // waits 4 hours), and the digest asserted below names the overdue claim.
    await approved(old.planId, now - 9 * DAY_MS);
    await approved(recent.planId, now - DAY_MS);
    // The buyer cancels in the free look, as the portal does it: the fee is owed back.
    await db.transaction((tx) =>
      cancelInFreeLook(
        tx,
        services,
        { kind: "portal", ...owner, planId: cancelled.planId, referenceNumber: cancelled.reference, sessionId: "e2e" },
        cancelled.reference,
      ),
    );
    await db.run(
      `INSERT INTO webhook_endpoints (id, merchant_id, mode, url, events, secret_sealed, status, failing_since, created_at, updated_at)
       VALUES ('we_needs_action', ?, 'test', 'https://hooks.example.com/protection', '["*"]', 'sealed', 'failing', ?, ?, ?)`,
      [owner.merchantId, now - 4 * DAY_MS, now - 4 * DAY_MS, now],
    );

    const link = demo.output.match(/Dashboard: +(http:\/\/\S+\/dashboard\/sign-in\/[\w-]{43})/)![1];
    await page.goto(link);
    await Promise.all([page.waitForURL(`${demo.origin}/dashboard`), page.click("button:has-text('Sign in')")]);
    await pageDrawn(page);
    const text = await card(page).innerText();
    for (const heading of [
      "Approved claims to refund or replace\n2",
      "Protection fees to refund (cancelled in the free look)\n1",
      "Failing webhook endpoints\n1",
      "Go-live steps left",
    ])
      assert.ok(text.includes(heading), `${heading} in:\n${text}`);
    // The overdue claim first, marked; the other with its due date.
    const claims = card(page).locator("section[aria-labelledby=needs-claim_payout] li");
    assert.match(
      await claims.nth(0).innerText(),
      new RegExp(`Claim 1 on ${old.reference}: refund \\$42\\.00\\s+(Critical\\s+)?Overdue`),
    );
    assert.match(await claims.nth(1).innerText(), /Refund the buyer by \d{1,2} [A-Z][a-z]{2} \d{4}, then confirm it/);
    assert.doesNotMatch(text, /\b(clm|plan|qt)_/);
    assert.equal(await page.getByLabel("E-mail me what needs action").isChecked(), true, "owners get the e-mails");
    await check(page, "overview");

    // The fee's link opens its purchase, with the confirmation.
    await Promise.all([
      page.waitForURL(`${demo.origin}/dashboard/purchases/${cancelled.planId}`),
      page.click(`a:has-text('${cancelled.reference}')`),
    ]);
    await pageDrawn(page);
    await page.waitForSelector("h2:text-is('Protection fee to refund')");
    await check(page, "purchase-fee-refund");
    await page.getByLabel("Your reference (optional)").fill("r".repeat(201));
    await page.click("button:has-text('I refunded the fee: confirm')");
    await page.waitForSelector("text=At most 200 characters.");
    assert.deepEqual(await feeRefundRow(cancelled.planId), { status: "pending", reference: null }, "nothing changed");
    await check(page, "purchase-fee-refund-refused");
    await page.getByLabel("Your reference (optional)").fill("re_3MtwBwLkdIwHu7ix");
    await page.click("button:has-text('I refunded the fee: confirm')");
    await page.waitForSelector(`text=Recorded: the fee of ${cancelled.reference} is refunded.`);
    assert.deepEqual(await feeRefundRow(cancelled.planId), { status: "refunded", reference: "re_3MtwBwLkdIwHu7ix" });
    // The purchase as the server reads it again: refunded, with the reference.
    await page.locator("dd:text-is('re_3MtwBwLkdIwHu7ix')").waitFor();
    assert.equal(await page.locator("h2:text-is('Protection fee refund')").count(), 1);
    assert.equal(await page.getByLabel("Your reference (optional)").count(), 0, "nothing left to confirm");
    await check(page, "purchase-fee-refunded");

    // The overview no longer lists it; the Refunds page has none left to refund.
    await page.goto(`${demo.origin}/dashboard`);
    await pageDrawn(page);
    assert.doesNotMatch(await card(page).innerText(), /Protection fees to refund/);
    await page.goto(`${demo.origin}/dashboard/refunds`);
    await pageDrawn(page);
    assert.ok(await page.getByRole("heading", { name: "Protection fees to refund (0)" }).isVisible());
    await check(page, "refunds");

    // The process's digest worker e-mails the owner what is new (the file transport's .eml).
    const mailDir = path.join(dir, "mail");
    const digest = await waitFor(
      async () => {
        for (const name of fs.existsSync(mailDir) ? fs.readdirSync(mailDir) : []) {
          const mail = await simpleParser(fs.readFileSync(path.join(mailDir, name)));
          if (mail.subject === "What needs you on the Purchase Protection dashboard") return mail;
        }
        return undefined;
      },
      { timeoutMs: 150_000, intervalMs: 250, what: "the digest e-mail" },
    );
    assert.match(digest.text ?? "", new RegExp(`Claim 1 on ${old.reference}: refund \\$42\\.00 by .* \\(overdue\\)`));
    assert.match(digest.text ?? "", new RegExp(`${demo.origin}/dashboard`));
    assert.doesNotMatch(digest.text ?? "", /\b(clm|plan|qt)_|hooks\.example\.com/);

    // The member turns the e-mails off.
    await page.goto(`${demo.origin}/dashboard`);
    await pageDrawn(page);
    await page.getByLabel("E-mail me what needs action").uncheck();
    await Promise.all([
      page.waitForResponse((response) => response.url().includes("/dashboard/action-emails")),
      page.click("button:has-text('Save')"),
    ]);
    await page.reload();
    await pageDrawn(page);
    assert.equal(await page.getByLabel("E-mail me what needs action").isChecked(), false);
    const ownerEmail = demo.output.match(/signs in (\S+), the demo merchant's owner/)![1];
    const member = await db.get<{ action_emails: number | null }>(
      "SELECT action_emails FROM merchant_members WHERE merchant_id = ? AND email = ?",
      [owner.merchantId, ownerEmail],
    );
    assert.equal(Number(member?.action_emails), 0);

    // A POST with any other value is refused and changes nothing; one without the page's CSRF value too.
    const refused = await page.evaluate(async () => {
      const form = document.querySelector<HTMLFormElement>("form[action='/dashboard/action-emails']")!;
      const post = (fields: Record<string, string>) =>
        fetch("/dashboard/action-emails", { method: "POST", body: new URLSearchParams(fields), redirect: "manual" });
      const csrf = (form.elements.namedItem("csrf") as HTMLInputElement).value;
      const bad = await post({ csrf, actionEmails: "maybe" });
      const forged = await post({ actionEmails: "on" });
      return { bad: [bad.status, await bad.text()], forged: forged.status };
    });
    assert.equal(refused.bad[0], 400);
    assert.match(String(refused.bad[1]), /Choose whether to get the e-mails\./);
    assert.equal(refused.forged, 403);
    const unchanged = await db.get<{ action_emails: number | null }>(
      "SELECT action_emails FROM merchant_members WHERE merchant_id = ? AND email = ?",
      [owner.merchantId, ownerEmail],
    );
    assert.equal(Number(unchanged?.action_emails), 0, "nothing changed");
  });
});
