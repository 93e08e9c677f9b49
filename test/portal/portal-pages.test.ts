// The buyer portal's pages (/portal/*) in real Chromium over the web app's real process, on SQLite and PostgreSQL:
// look up → coverage → file a claim with a PNG and a PDF → the claim → add information; cancel within 48 hours and
// see the fee refund; the welcome e-mail's coverage link; one sentence for a wrong e-mail and an unknown reference;
// the same flows with JavaScript switched off; CSRF and expired sessions refused; axe-core on every page; and
// screenshots at 390 px and 1280 px under test-artifacts/portal/ for a reviewer. On PostgreSQL, the first flow only
// without axe-core and screenshots (look up → claim with files → add information: the portal's smoke through the
// store; test/support/page-suites.ts).
import { beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { rowCounts } from "../support/databases.ts";
import { describeEachDatabase, pageSuiteTests } from "../support/page-suites.ts";
import { DENIAL_REASONS } from "../../server/domain/claim-decisions.ts";
import { recordOrderDelivered } from "../../server/domain/orders.ts";
import { axeViolations, launchBrowser, type TestPage } from "../support/widget/browser.ts";
import { screenshotAtWidths } from "../support/page-checks.ts";
import { suitePages } from "../support/page-suites.ts";
import {
  COMPANY_NAME,
  daysAgoUtc,
  MERCHANT_NAME,
  PDF_BYTES,
  PNG_BYTES,
  PORTAL_TABLES,
  startPortal,
  type PortalHarness,
} from "./support.ts";

const ARTIFACTS = path.resolve(import.meta.dirname, "../../test-artifacts/portal");
const DISCLOSURE = `This is not insurance. This is a contractual refund guarantee provided by ${COMPANY_NAME.replace(/\.$/, "")}.`;
const LOOKUP_FAILED = "We could not find protection for that e-mail address and reference or order number.";

let emailSequence = 0;
const newEmail = (label: string) => `buyer-${label}-${process.pid}-${++emailSequence}@example.com`;

describeEachDatabase("buyer portal pages (%s)", (dialect) => {
  // `it`: a test of the full suite, on SQLite only; `test`: the PostgreSQL smoke too (test/support/page-suites.ts).
  const { it, test } = pageSuiteTests(dialect);
  let portal: PortalHarness;
  let browser: Browser;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    [portal, browser] = await Promise.all([startPortal(dialect), launchBrowser()]);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });
  // Each test's pages close and their contexts serve the next test, reset.
  const openPage = suitePages(() => browser, pageErrors);

  const url = (pathname: string) => `${portal.app.origin}${pathname}`;
  const counts = () => rowCounts(portal.database.db, PORTAL_TABLES);

  const newPage = (options: { javaScriptEnabled?: boolean; width?: number } = {}) =>
    openPage({
      javaScriptEnabled: options.javaScriptEnabled ?? true,
      viewport: { width: options.width ?? 390, height: 844 },
    });

  async function lookUp(page: Page, email: string, referenceNumber: string) {
    await page.goto(url(`/portal?reference=${encodeURIComponent(referenceNumber)}`));
    assert.equal(await page.inputValue("#reference"), referenceNumber, "?reference= prefills the form");
    await page.fill("#email", email);
    await Promise.all([page.waitForURL(/\/portal\/plan$/), page.click("button[type=submit]:has-text('Continue')")]);
    // With JavaScript the URL changes as Remix renders the new page: wait for the page itself.
    await page.waitForSelector(".portal-merchant");
  }

  async function fileClaim(page: Page, input: { reason: string; occurredAt: string; description: string }) {
    await page.goto(url("/portal/claims/new"));
    await page.selectOption("#reason", input.reason);
    await page.fill("#occurredAt", input.occurredAt);
    await page.fill("#description", input.description);
    await page.setInputFiles("#evidence", [
      { name: "parcel.png", mimeType: "image/png", buffer: PNG_BYTES },
      { name: "receipt.pdf", mimeType: "application/pdf", buffer: PDF_BYTES },
    ]);
    await page.click("button:has-text('Send request')");
  }

  /** No script errors; on the SQLite run, axe-core and screenshots at both widths. */
  async function checkPage(page: Page, name: string) {
    assert.deepEqual(pageErrors, [], "no script errors in the portal's pages");
    // axe-core and the screenshots come from the SQLite run: the pages are the same on PostgreSQL, whose smoke is
    // there for the store, and checking them twice costs CI minutes.
    if (dialect !== "sqlite") return;
    assert.deepEqual(await axeViolations({ page } as TestPage), [], `${name}: axe-core violations`);
    await screenshotAtWidths(page, (width) => path.join(ARTIFACTS, `${dialect}-${name}-${width}.png`));
  }

  test("look up → coverage → file a claim with a PNG and a PDF → the claim → add information", async () => {
    const email = newEmail("claim");
    const reference = await portal.protect(email);
    await portal.backdate(reference, 3);
    const page = await newPage();
    await page.goto(url(`/portal?reference=${reference}`));
    await checkPage(page, "lookup");
    await lookUp(page, `  ${email.toUpperCase()} `, reference);

    const cookies = await page.context().cookies();
    const session = cookies.find((cookie) => cookie.name === "portal_session")!;
    assert.ok(session, "the session cookie is set");
    assert.equal(session.httpOnly, true);
    assert.equal(session.sameSite, "Lax");
    assert.equal(session.path, "/portal");
    assert.ok(session.expires > Date.now() / 1000 && session.expires <= Date.now() / 1000 + 30 * 60 + 5);
    const csrf = cookies.find((cookie) => cookie.name === "portal_csrf")!;
    assert.equal(csrf.sameSite, "Strict");
    assert.equal(csrf.httpOnly, true);

    const plan = await page.textContent("main");
    assert.match((await page.textContent("header"))!, new RegExp(MERCHANT_NAME));
    assert.match(plan!, new RegExp(reference));
    assert.match(plan!, /\$120\.00/);
    assert.ok(plan!.includes(DISCLOSURE), "the full two-sentence disclosure");
    assert.equal(await page.locator(".reasons li").count(), 12, "the 12 covered reasons");
    assert.match(plan!, /within 30 days/);
    assert.match(plan!, /48-hour window to cancel and get the fee back has ended/);
    assert.match(plan!, /You have not asked for a refund yet/);

    const before = await counts();
    await fileClaim(page, {
      reason: "damaged_in_transit",
      occurredAt: daysAgoUtc(1),
      description: "The mug arrived in three pieces.",
    });
    await page.waitForURL(/\/portal\/claims\/[^/?]+\?notice=filed$/);
    await page.waitForSelector(".notice");
    const detail = (await page.textContent("main"))!;
    assert.match(detail, /Your request was sent/);
    assert.match(detail, /Received/);
    assert.match(detail, /The mug arrived in three pieces\./);
    assert.match((await page.textContent("header"))!, new RegExp(MERCHANT_NAME));
    const after = await counts();
    assert.equal(after.claims, before.claims + 1);
    assert.equal(after.claim_evidence, before.claim_evidence + 2);
    await checkPage(page, "claim");

    // The files download through the portal with the session, as they were sent.
    const links = page.locator("a[href*='/evidence/']");
    assert.equal(await links.count(), 2);
    const downloads = await Promise.all(
      (await links.evaluateAll((anchors) => anchors.map((anchor) => (anchor as HTMLAnchorElement).href))).map((href) =>
        page.request.get(href),
      ),
    );
    const types = downloads.map((response) => response.headers()["content-type"]).sort();
    assert.deepEqual(types, ["application/pdf", "image/png"]);
    for (const response of downloads) {
      assert.equal(response.status(), 200);
      assert.match(response.headers()["content-disposition"] ?? "", /^attachment/);
      assert.equal(response.headers()["x-content-type-options"], "nosniff");
    }
    const pdf = downloads.find((response) => response.headers()["content-type"] === "application/pdf")!;
    assert.deepEqual(Buffer.from(await pdf.body()), PDF_BYTES);
    // Without the session the same link is no download.
    const anonymous = await fetch(downloads[0].url(), { redirect: "manual" });
    assert.equal(anonymous.status, 302);
    assert.match(anonymous.headers.get("location")!, /^\/portal\?notice=expired/);

    // Add information: a message and one more photo.
    await page.fill("#message", "Here is the box it came in.");
    await page.setInputFiles("#evidence", [{ name: "box.png", mimeType: "image/png", buffer: PNG_BYTES }]);
    await Promise.all([page.waitForURL(/\?notice=added$/), page.click("button:has-text('Send')")]);
    await page.waitForSelector(".notice");
    const updated = (await page.textContent("main"))!;
    assert.match(updated, /Your information was added/);
    assert.match(updated, /Here is the box it came in\./);
    assert.equal((await counts()).claim_evidence, before.claim_evidence + 3);

    // The coverage page lists the claim with its status.
    await page.goto(url("/portal/plan"));
    assert.match((await page.textContent(".claims"))!, /Damaged in transit|damaged/i);
    assert.match((await page.textContent(".claims"))!, /Received/);
    await checkPage(page, "plan-with-claim");
  });

  it("a refused claim is shown next to its field, keeps the typed values, and creates nothing", async () => {
    const email = newEmail("refused");
    const reference = await portal.protect(email);
    await portal.backdate(reference, 45);
    const page = await newPage();
    await lookUp(page, email, reference);

    // Missing fields: named next to each, linked from the summary.
    await page.goto(url("/portal/claims/new"));
    assert.equal(
      await page.textContent("#evidence-hint"),
      "For a damaged, defective or wrong item, add at least one photo that shows the problem. " +
        "Up to 5 files, 10 MB each: JPEG, PNG, WebP, HEIC or PDF. A request holds at most 20 files and 50 MB in all.",
      "the per-filing limits and the claim's quota, from GET /portal/reasons",
    );
    await page.click("button:has-text('Send request')");
    await page.waitForSelector(".error-summary");
    assert.equal(await page.locator(".error-summary a").count(), 3);
    assert.equal(await page.getAttribute("#description", "aria-invalid"), "true");
    await checkPage(page, "claim-new-errors");

    const before = await counts();
    await fileClaim(page, {
      reason: "lost_in_transit",
      occurredAt: daysAgoUtc(40),
      description: "It never came.",
    });
    await page.waitForSelector("#occurredAt-error");
    assert.match((await page.textContent("#occurredAt-error"))!, /within the last 30 days/);
    assert.equal(await page.inputValue("#description"), "It never came.");
    assert.equal(await page.inputValue("#reason"), "lost_in_transit");
    assert.deepEqual(await counts(), before, "a refused claim changes nothing");
  });

  it("cancel within 48 hours: an explicit confirmation, then cancelled with the fee refund pending", async () => {
    const email = newEmail("cancel");
    const reference = await portal.protect(email);
    const page = await newPage();
    await lookUp(page, email, reference);
    const plan = (await page.textContent("main"))!;
    assert.match(plan, /You can cancel this protection and get the fee back until/);
    assert.match((await page.textContent("#free-look-countdown"))!, /^(47|48) h \d\d min$/);
    await checkPage(page, "plan");

    await page.click("a:has-text('Cancel protection')");
    await page.waitForURL(/\/portal\/cancel$/);
    await checkPage(page, "cancel");
    const before = await counts();
    await page.click("button:has-text('Yes, cancel protection')");
    await page.waitForSelector("#confirm-error");
    assert.deepEqual(await counts(), before, "no confirmation, no cancellation");
    await checkPage(page, "cancel-error");

    await page.check("#confirm");
    await Promise.all([page.waitForURL(/\/portal\/plan\?notice=cancelled$/), page.click("button:has-text('Yes')")]);
    await page.waitForSelector(".notice");
    const cancelled = (await page.textContent("main"))!;
    assert.match(cancelled, /Your protection is cancelled/);
    assert.match(cancelled, /Cancelled/);
    assert.match(cancelled, /Refund status: pending/);
    const row = await portal.database.db.get<{ status: string }>(
      "SELECT status FROM plans WHERE reference_number = ?",
      [reference],
    );
    assert.equal(row!.status, "cancelled");
    assert.equal((await counts()).fee_refunds, before.fee_refunds + 1);
    await checkPage(page, "plan-cancelled");
  });

  it("within 48 hours a plan with a request is not cancellable, and the coverage page says why in plain words", async () => {
    const email = newEmail("has-claims");
    const reference = await portal.protect(email);
    const page = await newPage();
    await page.goto(url("/portal"));
    assert.match(
      (await page.textContent("main"))!,
      /form CLM-YYYY-XXXXXXXX/,
      "the look-up names the format buyers hold",
    );
    await lookUp(page, email, reference);
    await fileClaim(page, { reason: "lost_in_transit", occurredAt: daysAgoUtc(0), description: "Never arrived." });
    await page.waitForURL(/\/portal\/claims\/[^/?]+\?notice=filed$/);

    await page.goto(url("/portal/cancel"));
    await page.waitForURL(/\/portal\/plan$/);
    const plan = (await page.textContent("main"))!;
    assert.match(plan, /has a request that is open, approved or paid, so it can no longer be cancelled/);
    assert.doesNotMatch(plan, /window to cancel and get the fee back has ended/, "the 48 hours have not ended");
    assert.doesNotMatch(plan, /plan_has_claims/);
    assert.equal(await page.locator("a:has-text('Cancel protection')").count(), 0);
    await checkPage(page, "plan-has-claims");
  });

  it("a plan the store voided within 48 hours says so, not that the window to cancel ended", async () => {
    const email = newEmail("voided");
    const reference = await portal.protect(email);
    const voided = await fetch(url("/api/v1/offers/void"), {
      method: "POST",
      headers: {
        Authorization: `Bearer ${portal.merchant.secretKey}`,
        "Idempotency-Key": `void-${reference}`,
        "Content-Type": "application/json",
      },
      body: JSON.stringify({ referenceNumber: reference }),
    });
    assert.equal(voided.status, 200);
    const page = await newPage();
    await lookUp(page, email, reference);
    const plan = (await page.textContent("main"))!;
    assert.match(plan, /Voided by the store/);
    assert.match(plan, /The store voided this protection, so there is nothing to cancel\./);
    assert.doesNotMatch(plan, /window to cancel and get the fee back has ended/);
    await checkPage(page, "plan-voided");
  });

  it("a plan the store paid for offers no cancellation: the buyer paid nothing, and the coverage page says so", async () => {
    // docs/api.md "Who pays": the merchant pays, the buyer's fee is 0 and there is no free look for the buyer.
    const email = newEmail("merchant-paid");
    const setPayer = (payer: string) =>
      portal.database.db.run("UPDATE protection_programs SET payer = ? WHERE id = ?", [
        payer,
        portal.merchant.programId,
      ]);
    await setPayer("merchant");
    // Confirmed from the merchant's server: a page's key cannot quote a merchant-paid program.
    const reference = await portal.protect(email, { key: "secret" }).finally(() => setPayer("buyer"));
    const page = await newPage();
    await lookUp(page, email, reference);
    const plan = (await page.textContent("main"))!;
    assert.match(plan, /Protection fee\s*\$0\.00/);
    assert.match(
      plan,
      /paid for this protection, so you paid nothing for it and there is nothing to cancel or refund\./,
    );
    assert.equal(await page.locator("a:has-text('Cancel protection')").count(), 0);
    // The cancel page itself is not offered either: it sends the buyer back to the coverage page.
    await page.goto(url("/portal/cancel"));
    await page.waitForURL(/\/portal\/plan$/);
    await checkPage(page, "plan-merchant-paid");
  });

  it("an unknown page answers 404 in plain words, and hydrates (not the router's developer text)", async () => {
    const page = await newPage();
    const response = await page.goto(url("/portal/no-such-page"));
    assert.equal(response!.status(), 404);
    const main = (await page.textContent("main"))!;
    assert.match(main, /We could not find that page\./);
    assert.doesNotMatch(main, /No route matches/);
    await checkPage(page, "not-found");
  });

  it("a wrong e-mail gets the same sentence as an unknown reference, and no session", async () => {
    const email = newEmail("wrong");
    const reference = await portal.protect(email);
    const page = await newPage();
    const before = await counts();
    const attempt = async (tryEmail: string, tryReference: string) => {
      await page.goto(url("/portal"));
      await page.fill("#email", tryEmail);
      await page.fill("#reference", tryReference);
      await page.click("button:has-text('Continue')");
      await page.waitForSelector(".error-summary");
      return (await page.textContent(".error-summary"))!;
    };
    const wrongEmail = await attempt(newEmail("someone-else"), reference);
    const unknownReference = await attempt(email, "PP-NOSUCH99");
    assert.match(wrongEmail, new RegExp(LOOKUP_FAILED.replace(/\./g, "\\.")));
    assert.equal(wrongEmail, unknownReference);
    assert.equal(await page.inputValue("#reference"), "PP-NOSUCH99", "the form keeps what was typed");
    assert.ok(!(await page.context().cookies()).some((cookie) => cookie.name === "portal_session"));
    assert.deepEqual(await counts(), before);
    await checkPage(page, "lookup-error");
  });

  it("the welcome e-mail's coverage link signs the buyer in with its button; a bad link says so", async () => {
    const email = newEmail("link");
    const reference = await portal.protect(email);
    const link = await portal.coverageLink(reference);
    const page = await newPage();
    await page.goto(link.replace(/^https?:\/\/[^/]+/, portal.app.origin));
    // Opening the link signs nobody in: only the page's button does.
    assert.ok(!(await page.context().cookies()).some((cookie) => cookie.name === "portal_session"));
    await checkPage(page, "coverage-link");
    await Promise.all([page.waitForURL(/\/portal\/plan$/), page.click("button:has-text('Open my coverage')")]);
    await page.waitForSelector(".portal-merchant");
    assert.match((await page.textContent("main"))!, new RegExp(reference));

    const other = await newPage();
    await other.goto(url(`/portal/coverage/${reference}?token=not-the-token`));
    await Promise.all([other.waitForURL(/\/portal\?/), other.click("button:has-text('Open my coverage')")]);
    await other.waitForSelector(".notice");
    assert.match((await other.textContent("main"))!, /This link has expired or is not valid/);
    assert.equal(await other.inputValue("#reference"), reference);

    // The merchant's order e-mail links to the coverage page without a token: the look-up, reference filled in.
    await other.goto(url(`/portal/coverage/${reference}`));
    await other.waitForURL(/\/portal\?reference=/);
    assert.doesNotMatch((await other.textContent("main"))!, /This link has expired or is not valid/);
    assert.equal(await other.inputValue("#reference"), reference);
  });

  it("with JavaScript switched off: look up, file a claim with a file, cancel", async () => {
    const page = await newPage({ javaScriptEnabled: false });
    const email = newEmail("nojs");
    const reference = await portal.protect(email);
    await lookUp(page, email, reference);
    assert.match((await page.textContent("#free-look-countdown"))!, /h \d\d min$/, "the countdown is server-rendered");

    await page.goto(url("/portal/cancel"));
    await page.check("#confirm");
    await Promise.all([page.waitForURL(/notice=cancelled$/), page.click("button:has-text('Yes')")]);
    await page.waitForSelector(".notice");
    assert.match((await page.textContent("main"))!, /Refund status: pending/);

    const claimEmail = newEmail("nojs-claim");
    const claimReference = await portal.protect(claimEmail);
    await portal.backdate(claimReference, 3);
    await lookUp(page, claimEmail, claimReference);
    // A field error comes back in the page itself.
    await page.goto(url("/portal/claims/new"));
    await page.click("button:has-text('Send request')");
    await page.waitForSelector(".error-summary");
    await fileClaim(page, {
      reason: "missing_items",
      occurredAt: daysAgoUtc(2),
      description: "One plate was missing from the set.",
    });
    await page.waitForURL(/\/portal\/claims\/[^/?]+\?notice=filed$/);
    await page.waitForSelector(".notice");
    assert.equal(await page.locator("a[href*='/evidence/']").count(), 2);

    await Promise.all([page.waitForURL(/notice=signed-out$/), page.click("button:has-text('Sign out')")]);
    await page.waitForSelector(".notice");
    assert.match((await page.textContent("main"))!, /You are signed out/);
    await page.goto(url("/portal/plan"));
    await page.waitForURL(/notice=expired$/);
  });

  it("once the carrier recorded the delivery, the coverage page and the claim form say until when a parcel as it arrived can be claimed for", async () => {
    const email = newEmail("delivered");
    const reference = await portal.protect(email);
    await portal.backdate(reference, 12);
    const { external_id: orderId, merchant_id: merchantId } = (await portal.database.db.get<{
      external_id: string;
      merchant_id: string;
    }>(
      "SELECT o.external_id, o.merchant_id FROM orders o JOIN plans p ON p.id = o.plan_id WHERE p.reference_number = ?",
      [reference],
    ))!;
    // Delivered ten days ago, recorded on the order (a Shopify fulfilment's delivery: no shipment kept).
    const deliveredAt = Date.now() - 10 * 86_400_000;
    await portal.database.db.transaction((tx) =>
      recordOrderDelivered(tx, { merchantId, mode: "test" }, orderId, deliveredAt),
    );
    const page = await newPage();
    await lookUp(page, email, reference);
    const window = page.locator("#delivery-window");
    assert.match(
      (await window.textContent())!,
      /^The carrier delivered your order on .+\. For a parcel that arrived damaged, defective, wrong or incomplete, or was stolen after delivery, the 30 days count from the delivery: you can claim until .+\.$/,
    );
    assert.deepEqual(
      await window.locator("time").evaluateAll((times) => times.map((t) => t.getAttribute("datetime"))),
      [new Date(deliveredAt).toISOString(), new Date(deliveredAt + 30 * 86_400_000).toISOString()],
    );
    await checkPage(page, "plan-delivered");
    await page.goto(url("/portal/claims/new"));
    assert.match((await page.textContent("#delivery-window"))!, /you can claim until/);
    await checkPage(page, "claim-new-delivered");
  });

  it("the public rulebook: every reason with its description, the windows, the evidence limits and quotas, who pays an approved claim and when, the disclosure", async () => {
    const page = await newPage();
    const response = await page.goto(url("/portal/terms"));
    assert.equal(response!.status(), 200);
    const text = (await page.textContent("main"))!;
    assert.equal(await page.locator(".rulebook dt").count(), 12);
    assert.equal(await page.locator(".rulebook dd").count(), 12);
    assert.match(text, /within 48 hours/);
    // The free look returns what the buyer paid (docs/api.md "Who pays"): a split's part, nothing of a store-paid plan.
    assert.match(
      text,
      /get back what you paid for it, no questions asked\. Protection your store paid for cost you nothing, so there is no fee to cancel it for\./,
    );
    assert.match(text, /within 30 days/);
    assert.match(
      text,
      /\(stolen after delivery, damaged in transit, arrived defective, wrong item delivered, missing items\), what happened is its delivery/,
      "the reasons whose 30 days count from the delivery",
    );
    assert.match(text, /up to 5 files of at most 10 MB/);
    assert.match(
      text,
      /one request holds at most 20 files and 50 MB, all the requests of one purchase together 40 files and 100 MB, and one visit to this site \(one sign-in\) can add 20 files and 50 MB\./,
      "the evidence quotas",
    );
    assert.match(text, /every decision|Every decision/);
    assert.match(
      text,
      /automatically to the payment method you used .* within 1 business day of the approval\. On other stores the store refunds you directly, or sends the replacement, within 7 days of the approval\./,
      "who pays an approved claim and by when",
    );
    assert.ok(text.includes(DISCLOSURE));
    // Every published denial reason, with the sentence a denied buyer reads.
    assert.equal(await page.locator("[id^='denial-']").count(), DENIAL_REASONS.length);
    for (const reason of DENIAL_REASONS)
      assert.equal((await page.textContent(`#denial-${reason.code}`))?.trim(), reason.message, reason.code);
    await checkPage(page, "terms");
  });

  it("refuses a POST without the form's CSRF token (403) and an expired session goes back to the look-up", async () => {
    const page = await newPage();
    await page.goto(url("/portal"));
    const before = await counts();
    const forged = await page.request.post(url("/portal?index"), {
      form: { email: "x@example.com", reference: "PP-ANY", csrf: "not-the-cookie" },
      maxRedirects: 0,
    });
    assert.equal(forged.status(), 403);
    const noCookie = await fetch(url("/portal/sign-out"), {
      method: "POST",
      body: new URLSearchParams({ csrf: "x".repeat(43) }),
      redirect: "manual",
    });
    assert.equal(noCookie.status, 403);
    assert.deepEqual(await counts(), before);

    const stale = await fetch(url("/portal/plan"), {
      headers: { Cookie: `portal_session=${Buffer.from(JSON.stringify("pps_" + "A".repeat(43))).toString("base64")}` },
      redirect: "manual",
    });
    assert.equal(stale.status, 302);
    assert.equal(stale.headers.get("location"), "/portal?notice=expired");
    await page.goto(url("/portal?notice=expired"));
    assert.match((await page.textContent("main"))!, /Your session has ended/);
  });
});
