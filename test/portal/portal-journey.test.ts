// The buyer's journey through the portal as issue 27 finished it, in real Chromium over the web app's real process, on
// SQLite (the portal's PostgreSQL smoke is in portal-pages.test.ts): the look-up by the store's order number; the
// confirm's coverageUrl opening the look-up with the reference filled in; a claim waiting for the buyer at the top
// ("Action needed") and a claim e-mail's link (&claim=<n>) landing on it; an approved claim's payout line; amounts
// typed as people write them ("$129.99", "129,99"), money in the buyer's locale and times in their zone; a cancelled
// plan offering no claim; no internal id in any page's text; no request to another host from the portal's, the
// console's or the dashboard's pages; axe-core on every page and screenshots at 390 and 1280 px under
// test-artifacts/portal/.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { FULL_SUITE_DIALECTS } from "../support/page-suites.ts";
import { axeViolations, launchBrowser, type TestPage } from "../support/widget/browser.ts";
import { ownerSignInToken } from "../support/page-client.ts";
import { COMPANY_NAME, daysAgoUtc, MERCHANT_NAME, PNG_BYTES, startPortal, type PortalHarness } from "./support.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";
import type { Services } from "../../server/domain/context.ts";
import { approveClaim, requestInformation } from "../../server/domain/claim-decisions.ts";
import { payoutTerms } from "../../server/domain/payout-terms.ts";
import { ensureStaffAccount, issueSignInLink } from "../../server/domain/staff.ts";
import { pageDrawn, screenshotAtWidths } from "../support/page-checks.ts";
import { suitePages } from "../support/page-suites.ts";

const ARTIFACTS = path.resolve(import.meta.dirname, "../../test-artifacts/portal");
const STAFF = { kind: "staff", staffId: "stf_journey" } as const;
/** Internal ids never shown to a buyer: claims, quotes, plans, sessions, timeline entries, evidence. */
const INTERNAL_ID = /\b(clm|qt|plan|pss|cte|evd|mer)_[A-Za-z0-9]/;

let sequence = 0;
const newEmail = (label: string) => `journey-${label}-${process.pid}-${++sequence}@example.com`;

describe.each(FULL_SUITE_DIALECTS)("the buyer's journey in the portal (%s)", (dialect) => {
  let portal: PortalHarness;
  let browser: Browser;
  let services: Services;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    [portal, browser] = await Promise.all([startPortal(dialect), launchBrowser()]);
    services = {
      clock: Date.now,
      random: cryptoRandom,
      settings: { companyName: COMPANY_NAME, portalUrl: "https://portal.example.test" },
    };
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });
  // Each test's pages close and their contexts serve the next test, reset.
  const openPage = suitePages(() => browser, pageErrors);

  const url = (pathname: string) => `${portal.app.origin}${pathname}`;
  const actor = () => ({ merchantId: portal.merchant.merchantId, mode: "test" as const });

  /** A page recording every request it makes (its URL), in a context of the buyer's locale and time zone. */
  async function newPage(options: { locale?: string; timezoneId?: string } = {}) {
    const page = await openPage({
      viewport: { width: 390, height: 844 },
      locale: options.locale ?? "en-US",
      timezoneId: options.timezoneId ?? "UTC",
    });
    const requests: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    return { page, requests };
  }

  async function checkPage(page: Page, name: string) {
    await pageDrawn(page);
    assert.deepEqual(pageErrors, [], "no script errors");
    assert.deepEqual(await axeViolations({ page } as TestPage), [], `${name}: axe-core violations`);
    const text = (await page.textContent("body"))!;
    assert.doesNotMatch(text, INTERNAL_ID, `${name}: no internal id in the page's text`);
    assert.ok(text.split("What is covered").length <= 2, `${name}: "What is covered" at most once`);
    if (dialect === "sqlite")
      await screenshotAtWidths(page, (width) => path.join(ARTIFACTS, `${dialect}-journey-${name}-${width}.png`));
  }

  /** The look-up, by what the buyer holds: the reference number or the store's order number. */
  async function lookUp(page: Page, email: string, referenceOrOrder: string) {
    await page.goto(url("/portal"));
    await page.fill("#email", email);
    await page.fill("#reference", referenceOrOrder);
    await Promise.all([page.waitForURL(/\/portal\/plan$/), page.click("button:has-text('Continue')")]);
    await page.waitForSelector(".portal-merchant");
  }

  async function fileClaim(page: Page, input: { reason: string; amount: string; description: string }) {
    await page.goto(url("/portal/claims/new"));
    await pageDrawn(page);
    await page.selectOption("#reason", input.reason);
    await page.fill("#occurredAt", daysAgoUtc(1));
    await page.fill("#description", input.description);
    await page.fill("#amount", input.amount);
    await page.setInputFiles("#evidence", [{ name: "photo.png", mimeType: "image/png", buffer: PNG_BYTES }]);
    await Promise.all([
      page.waitForURL(/\/portal\/claims\/\d+\?notice=filed$/),
      page.click("button:has-text('Send request')"),
    ]);
    await page.waitForSelector(".notice");
    return Number(/\/portal\/claims\/(\d+)/.exec(page.url())![1]);
  }

  const claimIdOf = async (reference: string, number: number) =>
    (await portal.database.db.get<{ id: string }>(
      "SELECT c.id FROM claims c JOIN plans p ON p.id = c.plan_id WHERE p.reference_number = ? AND c.number = ?",
      [reference, number],
    ))!.id;

  it("looks up by the store's order number, and shows the order by its name", async () => {
    const email = newEmail("order");
    const reference = await portal.protect(email);
    const orderName = `#${1000 + sequence}`;
    await portal.database.db.run("UPDATE plans SET order_name = ? WHERE reference_number = ?", [orderName, reference]);
    const { page } = await newPage();
    await page.goto(url("/portal"));
    const hint = (await page.textContent("#reference-hint"))!;
    assert.match(hint, /CLM-YYYY-XXXXXXXX/, "the hint names the real format");
    assert.doesNotMatch(hint, /PP-/);
    assert.equal((await page.textContent("label[for=reference]"))!.trim(), "Reference number or order number");
    await checkPage(page, "lookup");

    await lookUp(page, email.toUpperCase(), ` ${orderName.slice(1)} `);
    const summary = (await page.textContent("#summary-title + .facts"))!;
    assert.match(summary, new RegExp(`Order${orderName}`), "the store's order name, not its id");
    assert.match(summary, new RegExp(reference));
    await checkPage(page, "plan-by-order");
  });

  it("the confirm's coverageUrl opens the look-up with the reference filled in: the buyer types only the e-mail", async () => {
    const email = newEmail("coverage-url");
    const reference = await portal.protect(email);
    const { page } = await newPage();
    await page.goto(url(`/portal/coverage/${reference}`));
    await page.waitForURL(/\/portal\?reference=/);
    await pageDrawn(page);
    assert.equal(await page.inputValue("#reference"), reference);
    assert.equal(await page.evaluate(() => document.activeElement?.id), "email", "the e-mail field has the focus");
    await page.keyboard.type(email);
    await Promise.all([page.waitForURL(/\/portal\/plan$/), page.keyboard.press("Enter")]);
    await page.waitForSelector(".portal-merchant");
    assert.match((await page.textContent("main"))!, new RegExp(reference));
  });

  it("amounts typed as people write them; a question waiting sits at the top and a claim e-mail's link lands on it; an approval says what, who and when", async () => {
    const email = newEmail("claims");
    const reference = await portal.protect(email, { amountCents: 50_000 });
    await portal.backdate(reference, 3);
    // A buyer in New York whose browser writes English as in Germany: money their way, times in their zone.
    const { page } = await newPage({ locale: "en-DE", timezoneId: "America/New_York" });
    await lookUp(page, email, reference);

    const first = await fileClaim(page, {
      reason: "damaged_in_transit",
      amount: "$129.99",
      description: "The bowl arrived cracked.",
    });
    assert.equal(first, 1);
    const detail = (await page.textContent("main"))!;
    assert.match(detail, new RegExp(`Claim 1 on ${reference}`));
    assert.match(detail, /US\$129\.99/, "the amount in the buyer's locale");
    await pageDrawn(page);
    const filedAt = (await page.textContent(".facts time"))!;
    assert.match(filedAt, /GMT-5|EST/, `the filing time in the buyer's zone: ${filedAt}`);
    assert.doesNotMatch(filedAt, /UTC/);
    await checkPage(page, "claim-filed");

    const second = await fileClaim(page, {
      reason: "wrong_item_delivered",
      amount: "129,99",
      description: "A blue bowl came instead of the green one.",
    });
    assert.equal(second, 2);
    const amounts = await portal.database.db.all<{ number: number; amount_cents: number }>(
      "SELECT c.number, c.amount_cents FROM claims c JOIN plans p ON p.id = c.plan_id WHERE p.reference_number = ? ORDER BY c.number",
      [reference],
    );
    assert.deepEqual(
      amounts.map((row) => [Number(row.number), Number(row.amount_cents)]),
      [
        [1, 12_999],
        [2, 12_999],
      ],
    );

    // The claims team asks about claim 2 and approves claim 1.
    const question = "Could you send a photo of the label on the box?";
    const secondId = await claimIdOf(reference, 2);
    await portal.database.db.transaction((tx) =>
      requestInformation(tx, services, actor(), secondId, STAFF, { message: question }),
    );
    const approvedAt = Date.now();
    await portal.database.db.transaction(async (tx) =>
      approveClaim(tx, services, actor(), await claimIdOf(reference, 1), STAFF, {}),
    );

    await page.goto(url("/portal/plan"));
    await pageDrawn(page);
    // "Action needed" is the first thing under the title, with the question and a way to answer it.
    const firstCard = page.locator("main section.card").first();
    assert.equal((await firstCard.locator("h2").textContent())!.trim(), "Action needed");
    assert.match((await firstCard.textContent())!, new RegExp(`Claim 2 on ${reference}`));
    assert.match((await firstCard.textContent())!, new RegExp(question.replace(/\?/, "\\?")));
    // The approved claim says how much, the remedy, who pays and by when (the rule the e-mails say).
    const claims = (await page.textContent("#claims-title + ul"))!;
    assert.match(claims, /Approved: a refund of US\$129\.99\./);
    const terms = payoutTerms("merchant", approvedAt, "refund").sentence(MERCHANT_NAME);
    assert.ok(claims.includes(terms.slice(0, terms.indexOf(" by "))), `who pays: ${claims}`);
    assert.match(claims, /by \d{1,2} \w{3} \d{4} \(within 7 days of the approval\)/);
    await checkPage(page, "plan-action-needed");

    // The claim e-mail's link (coverage link + &claim=2) lands on the claim, its question first.
    const link = await portal.coverageLink(reference);
    const { page: fromEmail } = await newPage();
    await fromEmail.goto(`${link.replace(/^https?:\/\/[^/]+/, portal.app.origin)}&claim=${second}`);
    await Promise.all([
      fromEmail.waitForURL(new RegExp(`/portal/claims/${second}$`)),
      fromEmail.click("button:has-text('Open my coverage')"),
    ]);
    await fromEmail.waitForSelector("#action");
    assert.equal(await fromEmail.locator("main section.card").first().getAttribute("id"), "action");
    assert.match((await fromEmail.textContent("#action"))!, new RegExp(question.replace(/\?/, "\\?")));
    await checkPage(fromEmail, "claim-action-needed");
    await fromEmail.fill("#message", "Here is the label.");
    await Promise.all([fromEmail.waitForURL(/\?notice=added$/), fromEmail.click("#action button:has-text('Send')")]);
    await fromEmail.waitForSelector(".notice");
    assert.equal(await fromEmail.locator("#action").count(), 0, "answered: nothing waits any more");
    await fromEmail.goto(url("/portal/plan"));
    assert.equal(await fromEmail.locator("#action-needed").count(), 0);
  });

  it("a cancelled plan offers no new claim and nothing still available to claim", async () => {
    const email = newEmail("cancelled");
    const reference = await portal.protect(email);
    const { page } = await newPage();
    await lookUp(page, email, reference);
    assert.equal(await page.locator("a:has-text('Report a problem')").count(), 1, "an active plan offers one");
    await page.goto(url("/portal/cancel"));
    await page.check("#confirm");
    await Promise.all([page.waitForURL(/notice=cancelled$/), page.click("button:has-text('Yes')")]);
    await page.waitForSelector(".notice");
    const plan = (await page.textContent("main"))!;
    assert.equal(await page.locator("a:has-text('Report a problem')").count(), 0);
    assert.doesNotMatch(plan, /Still available to claim/);
    assert.match(plan, /no new requests can be filed/);
    assert.doesNotMatch(plan, /You can ask for a refund/, "an ended plan does not invite a claim");
    await page.goto(url("/portal/claims/new"));
    await page.waitForURL(/\/portal\/plan$/);
    await checkPage(page, "plan-cancelled-no-claim");
  });

  it("the portal's, the console's and the dashboard's pages request nothing from another host", async () => {
    const email = newEmail("origin");
    const reference = await portal.protect(email);
    const { page, requests } = await newPage();
    const visit = async (pathname: string) => {
      await page.goto(url(pathname));
      await pageDrawn(page);
    };
    await visit("/portal");
    await lookUp(page, email, reference);
    await pageDrawn(page);
    await visit("/portal/claims/new");
    await visit("/portal/terms");
    const rulebook = (await page.textContent("body"))!;
    assert.equal(rulebook.split("What is covered").length, 2, "the rulebook's title, once");
    assert.match(rulebook, /For a damaged, defective or wrong item, add at least one photo/);
    await visit("/ops/sign-in");
    const staff = await portal.database.db.transaction((tx) =>
      ensureStaffAccount(tx, services, { email: newEmail("staff"), role: "admin" }, "test"),
    );
    const staffLink = await portal.database.db.transaction((tx) => issueSignInLink(tx, services, staff));
    await visit(`/ops/sign-in/${staffLink.token}`);
    await Promise.all([page.waitForURL(url("/ops")), page.click("button:has-text('Sign in')")]);
    await pageDrawn(page);
    await visit("/dashboard/sign-in");
    const token = await ownerSignInToken(portal.database.db, services, portal.merchant.merchantId, newEmail("owner"));
    await visit(`/dashboard/sign-in/${token}`);
    await Promise.all([page.waitForURL(url("/dashboard")), page.click("button:has-text('Sign in')")]);
    await page.waitForSelector("h1:has-text('Overview')");
    await pageDrawn(page);
    await visit("/dashboard/claims");
    const elsewhere = requests.filter((request) => new URL(request).origin !== portal.app.origin);
    assert.ok(requests.length > 20, `the pages were loaded (${requests.length} requests)`);
    assert.deepEqual(elsewhere, [], "no request to another host");
  });
});
