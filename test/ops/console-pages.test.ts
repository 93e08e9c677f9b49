// The claims team's console (/ops/*) in real Chromium over the web app's real process (`npm start` over the build), on
// SQLite and PostgreSQL: ask for a sign-in link → read the .eml → sign in → the queue → a claim → ask for information
// → approve, with the claim's status and the audit rows checked in the database; a reviewer kept out of the admin
// pages; a disabled account's session ending at once, and the account reactivated; refused input answered next to its
// field and changing nothing; POSTs from another origin refused; an admin recording a payment made in the Shopify
// admin once the app's payout gave up (not a reviewer, not while the payout job may still pay); no key material on any
// page; axe-core on every page; screenshots at 390 px and 1280 px under test-artifacts/ops/. On PostgreSQL, the first
// flow only, without axe-core and screenshots (sign in → queue → claim → ask → approve: the console's smoke through
// the store; test/support/page-suites.ts).
import { beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { simpleParser } from "mailparser";
import type { Browser, Page } from "playwright-core";
import { rowCounts } from "../support/databases.ts";
import { describeEachDatabase, pageSuiteTests } from "../support/page-suites.ts";
import { axeViolations, launchBrowser, type TestPage } from "../support/widget/browser.ts";
import { waitFor } from "../support/wait.ts";
import { screenshotAtWidths } from "../support/page-checks.ts";
import { signInConsolePage } from "../support/page-client.ts";
import { suitePages } from "../support/page-suites.ts";
import { COMPANY_NAME, PNG_BYTES, startPortal, type PortalHarness } from "../portal/support.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";
import type { Services } from "../../server/domain/context.ts";
import { fileClaim, prepareEvidence } from "../../server/domain/claims.ts";
import { findPlanByReference } from "../../server/store/plans.ts";
import { defaultEvidenceDirectory, filesystemEvidenceStore } from "../../server/evidence/index.ts";
import { ensureStaffAccount, issueSignInLink } from "../../server/domain/staff.ts";
import { approveClaim, recordClaimPayoutStep } from "../../server/domain/claim-decisions.ts";
import { voidPlan } from "../../server/domain/plans.ts";
import { getOpsClaim } from "../../server/domain/ops-claims.ts";
import { reportShipment, reportShipmentEvent } from "../../server/domain/shipments.ts";
import { CLAIM_PAYOUT_JOB } from "../../app/shopify/claim-payouts.server.ts";
import { insertShopifyJob, recordShopifyJobFailure } from "../../app/shopify/store/jobs.ts";

const ARTIFACTS = path.resolve(import.meta.dirname, "../../test-artifacts/ops");
const TABLES = [
  "claims",
  "claim_timeline",
  "events",
  "email_messages",
  "staff_accounts",
  "staff_sessions",
  "staff_audit_log",
];
const SENT = "If this address belongs to a staff account, a sign-in link is on its way.";

let sequence = 0;
const newAddress = (label: string) => `${label}-${process.pid}-${++sequence}@claims.example.com`;

describeEachDatabase("claims console pages (%s)", (dialect) => {
  // `it`: a test of the full suite, on SQLite only; `test`: the PostgreSQL smoke too (test/support/page-suites.ts).
  const { it, test } = pageSuiteTests(dialect);
  let portal: PortalHarness;
  let browser: Browser;
  let services: Services;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    [portal, browser] = await Promise.all([startPortal(dialect), launchBrowser()]);
    // The web app's evidence folder, so that a claim filed here has its files where the app reads them.
    services = {
      clock: Date.now,
      random: cryptoRandom,
      settings: { companyName: COMPANY_NAME, portalUrl: "https://portal.example.test" },
      evidence: filesystemEvidenceStore(defaultEvidenceDirectory(portal.dataDir)),
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
  const counts = () => rowCounts(portal.database.db, TABLES);
  const db = () => portal.database.db;

  const newPage = (width = 1280) => openPage({ viewport: { width, height: 900 } });

  /** A protected order with a claim filed by its buyer, with a PNG; resolves with the claim id. */
  async function claimWithPhoto(description = "The vase arrived in pieces.") {
    const email = newAddress("buyer");
    const reference = await portal.protect(email);
    const plan = (await findPlanByReference(
      db(),
      { merchantId: portal.merchant.merchantId, mode: "test" },
      reference,
    ))!;
    const evidence = await prepareEvidence(services, [
      { field: "evidence", index: 0, fileName: "vase.png", bytes: PNG_BYTES },
    ]);
    const claim = await db().transaction((tx) =>
      fileClaim(
        tx,
        services,
        { merchantId: portal.merchant.merchantId, mode: "test", planId: plan.id, sessionId: "pss_console_test" },
        { referenceNumber: reference, reason: "damaged_in_transit", occurredAt: Date.now(), description },
        evidence,
      ),
    );
    return claim.id;
  }

  /** An account made as `npm run ops:invite` makes one. */
  const account = (role: "reviewer" | "admin", email = newAddress(role)) =>
    db().transaction((tx) => ensureStaffAccount(tx, services, { email, role }, "test"));

  /** Signs the page in with a sign-in link (issued as ops:invite issues one) and opens the queue. */
  async function signIn(page: Page, staff: { id: string; email: string }) {
    const link = await db().transaction((tx) => issueSignInLink(tx, services, staff));
    await signInConsolePage(page, portal.app.origin, link.token);
  }

  /** No script errors, no key material; on the SQLite run, axe-core and screenshots at both widths. */
  async function checkPage(page: Page, name: string) {
    assert.deepEqual(pageErrors, [], "no script errors in the console's pages");
    const html = await page.content();
    for (const secret of [
      portal.merchant.secretKey,
      portal.merchant.publishableKey,
      "mch_test_",
      "mch_live_",
      "wk_test_",
    ])
      assert.equal(html.includes(secret), false, `${name}: no key material (${secret.slice(0, 8)}…)`);
    // axe-core and the screenshots come from the SQLite run: the pages are the same on PostgreSQL, whose smoke is
    // there for the store, and checking them twice costs CI minutes.
    if (dialect !== "sqlite") return;
    assert.deepEqual(await axeViolations({ page } as TestPage), [], `${name}: axe-core violations`);
    await screenshotAtWidths(page, (width) => path.join(ARTIFACTS, `${dialect}-${name}-${width}.png`));
  }

  /** The sign-in e-mail sent to `email`: its link. */
  async function mailedLink(email: string): Promise<string> {
    const mailDir = path.join(portal.dataDir, "mail");
    return waitFor(
      async () => {
        if (!fs.existsSync(mailDir)) return undefined;
        for (const file of fs.readdirSync(mailDir)) {
          const mail = await simpleParser(fs.readFileSync(path.join(mailDir, file)));
          if (mail.to && !Array.isArray(mail.to) && mail.to.text === email)
            return mail.text?.match(/https?:\/\/\S+\/ops\/sign-in\/[\w-]{43}/)?.[0];
        }
        return undefined;
      },
      { timeoutMs: 15_000, intervalMs: 100, what: `the sign-in e-mail to ${email}` },
    );
  }

  const claimStatus = async (claimId: string) =>
    (await db().get<{ status: string }>("SELECT status FROM claims WHERE id = ?", [claimId]))!.status;

  /** The claim's order shipped by DHL and scanned in transit then delivered (reported in the reverse order). */
  async function shipAndDeliver(claimId: string) {
    const actor = { merchantId: portal.merchant.merchantId, mode: "test" as const };
    const orderId = (await getOpsClaim(db(), services, claimId)).order!.id;
    const shipment = await db().transaction((tx) =>
      reportShipment(tx, services, actor, orderId, { carrier: "DHL", trackingNumber: "JD014600006281" }),
    );
    const now = Date.now();
    for (const scan of [
      { status: "delivered" as const, occurredAt: now - 60_000, location: "Lyon", message: "Left at the front door" },
      { status: "in_transit" as const, occurredAt: now - 86_400_000, location: "Paris hub" },
    ])
      await db().transaction((tx) => reportShipmentEvent(tx, services, actor, shipment.id, scan));
  }

  test("link by e-mail → sign in → queue → claim → ask for information → approve; the audit log has each step", async () => {
    const claimId = await claimWithPhoto();
    await shipAndDeliver(claimId);
    const admin = await account("admin");
    const page = await newPage();

    await page.goto(url("/ops"));
    await page.waitForURL(url("/ops/sign-in"));
    await checkPage(page, "sign-in");
    await page.fill("#email", `  ${admin.email.toUpperCase()} `);
    await Promise.all([page.waitForURL(/notice=sent/), page.click("button:has-text('E-mail me a sign-in link')")]);
    await page.waitForSelector(".notice");
    assert.match((await page.textContent("main"))!, new RegExp(SENT));

    const link = await mailedLink(admin.email);
    assert.ok(link.startsWith(portal.app.origin), `the link points at the configured console: ${link}`);
    // Fetching the link (a mail scanner, a preview) spends nothing: it only shows the button.
    for (let i = 0; i < 2; i++) assert.equal((await fetch(link)).status, 200);
    await page.goto(link);
    await checkPage(page, "sign-in-link");
    const headers = (await page.request.get(link)).headers();
    assert.equal(headers["x-frame-options"], "DENY");
    assert.equal(headers["cache-control"], "no-store");
    assert.equal(headers["referrer-policy"], "same-origin");
    await Promise.all([page.waitForURL(url("/ops")), page.click("button:has-text('Sign in')")]);

    const cookie = (await page.context().cookies()).find((candidate) => candidate.name === "ops_session")!;
    assert.ok(cookie, "the session cookie is set");
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, "Strict");
    assert.equal(cookie.path, "/ops");
    assert.ok(cookie.expires > Date.now() / 1000 + 11.9 * 3600 && cookie.expires <= Date.now() / 1000 + 12 * 3600 + 5);

    // The link is spent: a second use shows the sentence, not a session.
    const second = await newPage();
    await second.goto(link);
    assert.match((await second.textContent("main"))!, /expired or has already been used/);
    await checkPage(second, "sign-in-link-spent");

    // The queue lists the claim with its age and merchant.
    const row = page.locator("tr", { has: page.locator(`a:has-text('${claimId}')`) });
    assert.match((await row.textContent())!, /Harbour Lane Ceramics/);
    assert.match((await row.textContent())!, /\d+ min/);
    assert.match(
      (await page.textContent("section[aria-labelledby=decisions-title]"))!,
      /Every merchant's claims approved or denied from .* to now/,
    );
    await checkPage(page, "queue");

    await page.click(`a:has-text('${claimId}')`);
    await page.waitForSelector("h2:has-text('Decide')");
    const detail = (await page.textContent("main"))!;
    assert.match(detail, /The vase arrived in pieces\./);
    assert.match(detail, /This is not insurance/, "the consent record's disclosure");
    assert.match(detail, /DeliveryDelivered, /, "the order's delivery state");
    // The delivery timeline: the shipment, its state, its scans oldest first with where and the carrier's message.
    const timeline = (await page.textContent("section[aria-labelledby=delivery-title]"))!;
    assert.match(timeline, /DHL · JD014600006281StateDelivered, .*through the API/);
    assert.match(timeline, /Paris hubIn transit.*LyonDeliveredLeft at the front door/);
    await checkPage(page, "claim");

    // The photo downloads for staff only (the thumbnail's file without ?inline=1).
    const href = (await page.getAttribute(".evidence-grid img", "src"))!.replace("?inline=1", "");
    const download = await page.request.get(url(href!));
    assert.equal(download.status(), 200);
    assert.equal(download.headers()["content-type"], "image/png");
    assert.match(download.headers()["content-disposition"]!, /^attachment; filename="vase\.png"/);
    assert.equal(download.headers()["x-content-type-options"], "nosniff");
    const anonymous = await fetch(url(href!), { redirect: "manual" });
    assert.equal(anonymous.status, 302);
    assert.equal(anonymous.headers.get("location"), "/ops/sign-in");

    await page.fill("#info-message", "Please send a photo of the box.");
    await Promise.all([page.waitForURL(/notice=request_information/), page.click("button:has-text('Ask the buyer')")]);
    // Remix swaps the page in a moment after the URL changes: wait for this action's notice, not the last one's.
    await page.waitForSelector(".notice:has-text('The buyer was asked for information')");
    assert.equal(await claimStatus(claimId), "needs_information");
    assert.match((await page.textContent(".timeline"))!, /Please send a photo of the box\./);

    await page.fill("#approve-note", "Refunded in full.");
    await Promise.all([page.waitForURL(/notice=approve/), page.click("button:has-text('Approve the claim')")]);
    await page.waitForSelector(".notice:has-text('The claim is approved')");
    assert.equal(await claimStatus(claimId), "approved");
    assert.match((await page.textContent("main"))!, new RegExp(admin.email.replace(/[.+]/g, "\\$&")));
    await checkPage(page, "claim-approved");

    // The queue's figures now count this decision, made by a person.
    await page.goto(url(`/ops?merchantId=${portal.merchant.merchantId}&mode=test`));
    const figures = (await page.textContent("section[aria-labelledby=decisions-title]"))!;
    assert.match(figures, /Harbour Lane Ceramics's test claims approved or denied/);
    assert.match(figures, /Decided: [1-9]\d*/);
    assert.match(figures, /Decided automatically: \d+ % \(\d+ by a claim rule\)/);
    assert.match(figures, /Median time from filing to decision: \d+ (min|h \d+ min|d \d+ h)/);
    await checkPage(page, "queue-decisions");

    const audit = await db().all<{ action: string; staff_email: string; subject: string; ip: string }>(
      "SELECT action, staff_email, subject, ip FROM staff_audit_log WHERE staff_id = ? ORDER BY created_at, id",
      [admin.id],
    );
    assert.deepEqual(
      audit.map((entry) => entry.action),
      ["staff.sign_in_link_sent", "staff.signed_in", "claim.information_requested", "claim.approved"],
    );
    assert.ok(audit.every((entry) => entry.staff_email === admin.email && entry.ip === "127.0.0.1"));
    assert.deepEqual(
      audit.slice(2).map((entry) => entry.subject),
      [claimId, claimId],
    );

    await page.goto(url(`/ops/audit?subject=${claimId}`));
    assert.match((await page.textContent("table"))!, /Approved a claim/);
    await checkPage(page, "audit");

    // Sign out: the session's row is revoked, so even a kept cookie opens nothing.
    await Promise.all([page.waitForURL(/notice=signed-out/), page.click("button:has-text('Sign out')")]);
    const kept = `ops_session=${cookie.value}`;
    const after = await fetch(url("/ops"), { headers: { Cookie: kept }, redirect: "manual" });
    assert.equal(after.status, 302);
    assert.match(after.headers.get("location")!, /^\/ops\/sign-in/);
  });

  it("answers the same for an unknown address and sends it nothing; limits requests per address", async () => {
    const page = await newPage(390);
    const unknown = newAddress("nobody");
    await page.goto(url("/ops/sign-in"));
    await page.fill("#email", unknown);
    await Promise.all([page.waitForURL(/notice=sent/), page.click("button:has-text('E-mail me a sign-in link')")]);
    await page.waitForSelector(".notice");
    assert.match((await page.textContent("main"))!, new RegExp(SENT));

    // A bad address is named next to the field; nothing is written.
    const before = await counts();
    await page.fill("#email", "not-an-address");
    await page.click("button:has-text('E-mail me a sign-in link')");
    await page.waitForSelector(".error-summary");
    assert.match((await page.textContent("#email-error"))!, /e-mail address/);
    assert.equal(await page.getAttribute("#email", "aria-invalid"), "true");
    await checkPage(page, "sign-in-error");
    assert.deepEqual(await counts(), before);

    // Five links an hour per address, whatever its spelling; the sixth request is refused with a sentence.
    const member = await account("reviewer");
    for (let i = 0; i < 5; i++) {
      const response = await page.request.post(url("/ops/sign-in"), {
        form: { email: i % 2 ? member.email.toUpperCase() : member.email },
        headers: { Origin: portal.app.origin },
        maxRedirects: 0,
      });
      assert.equal(response.status(), 302, `request ${i + 1}`);
    }
    const refused = await page.request.post(url("/ops/sign-in"), {
      form: { email: member.email },
      headers: { Origin: portal.app.origin },
      maxRedirects: 0,
    });
    assert.equal(refused.status(), 429);
    assert.ok(Number(refused.headers()["retry-after"]) > 0);
    const links = await db().get<{ n: number }>("SELECT COUNT(*) AS n FROM staff_sign_in_tokens WHERE staff_id = ?", [
      member.id,
    ]);
    assert.equal(Number(links!.n), 5);
    assert.equal(
      fs
        .readdirSync(path.join(portal.dataDir, "mail"))
        .some((file) => fs.readFileSync(path.join(portal.dataDir, "mail", file), "utf8").includes(unknown)),
      false,
      "no e-mail to an address without an account",
    );
  });

  it("the queue's Sort: highest risk first or newest first, kept in the URL with the filters; labelled, axe-clean", async () => {
    // Three claims filed a second apart (the filing times set outright: one millisecond may hold two), whose
    // assessments say low, high and elevated.
    const claims: string[] = [];
    const levels = ["low", "high", "elevated"];
    for (const [i, level] of levels.entries()) {
      const claimId = await claimWithPhoto(`A ${level}-risk claim.`);
      await db().run("UPDATE claim_risk_assessments SET level = ? WHERE claim_id = ?", [level, claimId]);
      await db().run("UPDATE claims SET created_at = ? WHERE id = ?", [
        Date.now() - (levels.length - i) * 1_000,
        claimId,
      ]);
      claims.push(claimId);
    }
    const [low, high, elevated] = claims;
    const page = await newPage(390);
    await signIn(page, await account("reviewer"));
    await page.goto(url("/ops?mode=test&view=submitted"));
    assert.equal(await page.textContent("label[for=sort]"), "Sort");
    assert.equal(await page.inputValue("#sort"), "oldest", "oldest first by default");
    /** Where each of the three claims stands in the table, top to bottom. */
    const order = async () => {
      const ids = await page.locator("tbody tr td:first-child a").allTextContents();
      return claims.map((id) => ids.indexOf(id)).every((index) => index >= 0)
        ? [...claims].sort((a, b) => ids.indexOf(a) - ids.indexOf(b))
        : [];
    };
    assert.deepEqual(await order(), [low, high, elevated]);

    await page.selectOption("#sort", "risk");
    await Promise.all([page.waitForURL(/sort=risk/), page.click("button:has-text('Show')")]);
    // A client-side navigation changes the URL before React draws: wait for the table's caption.
    await page.waitForSelector("caption:has-text('highest risk first')");
    const params = new URL(page.url()).searchParams;
    assert.equal(params.get("mode"), "test", "the filters stay in the URL with the order");
    assert.equal(params.get("view"), "submitted");
    assert.deepEqual(await order(), [high, elevated, low]);
    await checkPage(page, "queue-sorted-by-risk");

    // The URL alone brings the order back (a reload, a shared link), with the choice shown in the form.
    await page.goto(url("/ops?mode=test&view=submitted&sort=newest"));
    assert.equal(await page.inputValue("#sort"), "newest");
    assert.match((await page.textContent("caption"))!, /newest first/);
    assert.deepEqual(await order(), [elevated, high, low]);

    // A hand-edited order the form does not offer: the default queue, and why above it.
    await page.goto(url("/ops?sort=riskiest"));
    assert.match((await page.textContent(".error-summary"))!, /Choose one of the listed orders/);
    assert.equal(await page.inputValue("#sort"), "oldest");
  });

  it("a reviewer works the queue but cannot open the staff or audit pages", async () => {
    const reviewer = await account("reviewer");
    const page = await newPage(390);
    await signIn(page, reviewer);
    assert.equal(await page.locator("a:has-text('Staff')").count(), 0, "no admin links for a reviewer");
    for (const pathname of ["/ops/staff", "/ops/audit"]) {
      const response = await page.goto(url(pathname));
      assert.equal(response?.status(), 403, pathname);
      assert.match((await page.textContent("main"))!, /Only an admin/);
    }
    await checkPage(page, "forbidden");
    const before = await counts();
    const post = await page.request.post(url("/ops/staff"), {
      form: { intent: "invite", email: newAddress("sneaky"), role: "admin" },
      headers: { Origin: portal.app.origin },
      maxRedirects: 0,
    });
    assert.equal(post.status(), 403);
    assert.deepEqual(await counts(), before);
  });

  it("admins invite, change roles, disable and reactivate; a disabled account's open session stops at once", async () => {
    const admin = await account("admin");
    const reviewer = await account("reviewer");
    const adminPage = await newPage();
    const reviewerPage = await newPage(390);
    await signIn(adminPage, admin);
    await signIn(reviewerPage, reviewer);

    await adminPage.goto(url("/ops/staff"));
    await checkPage(adminPage, "staff");
    // A bad address is answered next to its field and creates nothing.
    const before = await counts();
    await adminPage.fill("#email", "nobody");
    await adminPage.click("button:has-text('Invite')");
    await adminPage.waitForSelector("#email-error");
    assert.deepEqual(await counts(), before);
    await checkPage(adminPage, "staff-error");

    const invited = newAddress("invited");
    await adminPage.fill("#email", invited);
    await adminPage.selectOption("#role", "admin");
    await Promise.all([adminPage.waitForURL(/notice=invited/), adminPage.click("button:has-text('Invite')")]);
    await adminPage.waitForSelector(`td:has-text('${invited}')`);
    assert.match((await adminPage.textContent("table"))!, new RegExp(invited.replace(/[.+]/g, "\\$&")));

    await adminPage.selectOption(`#role-${reviewer.id}`, "admin");
    await Promise.all([
      adminPage.waitForURL(/notice=role/),
      adminPage.click(`tr:has-text('${reviewer.email}') button:has-text('Save role')`),
    ]);
    const role = await db().get<{ role: string }>("SELECT role FROM staff_accounts WHERE id = ?", [reviewer.id]);
    assert.equal(role!.role, "admin");

    await Promise.all([
      adminPage.waitForURL(/notice=disabled/),
      adminPage.click(`tr:has-text('${reviewer.email}') button:has-text('Disable')`),
    ]);
    await reviewerPage.goto(url("/ops"));
    await reviewerPage.waitForURL(/\/ops\/sign-in\?notice=expired/);

    // Reactivated, the account signs in again by a new link.
    await Promise.all([
      adminPage.waitForURL(/notice=reactivated/),
      adminPage.click(`tr:has-text('${reviewer.email}') button:has-text('Reactivate')`),
    ]);
    const status = await db().get<{ status: string }>("SELECT status FROM staff_accounts WHERE id = ?", [reviewer.id]);
    assert.equal(status!.status, "invited");
    await signIn(reviewerPage, reviewer);

    const actions = await db().all<{ action: string }>(
      "SELECT action FROM staff_audit_log WHERE staff_id = ? AND action LIKE 'staff.%' ORDER BY created_at, id",
      [admin.id],
    );
    assert.deepEqual(actions.map((entry) => entry.action).slice(-4), [
      "staff.invited",
      "staff.role_changed",
      "staff.disabled",
      "staff.reactivated",
    ]);
  });

  it("refused claim input is named next to its field, keeps what was typed and changes nothing; other origins are refused", async () => {
    const claimId = await claimWithPhoto("A refused form must not decide this claim.");
    const reviewer = await account("reviewer");
    const page = await newPage(390);
    await signIn(page, reviewer);
    await page.goto(url(`/ops/claims/${claimId}`));
    const before = await counts();

    await page.fill("#deny-note", "Kept after the error.");
    await page.click("button:has-text('Deny the claim')");
    await page.waitForSelector("#deny-code-error");
    assert.match((await page.textContent("#deny-code-error"))!, /Choose the reason/);
    assert.equal(await page.inputValue("#deny-note"), "Kept after the error.");
    await checkPage(page, "claim-error");

    await page.click("button:has-text('Ask the buyer')");
    await page.waitForSelector("#info-message-error");
    assert.deepEqual(await counts(), before);
    assert.equal(await claimStatus(claimId), "submitted");

    // A POST from another origin (a forged form), or with no Origin and no same-origin Fetch Metadata, is refused
    // whatever it carries. (Remix answers a mismatched Origin itself before the action runs; the console's check
    // answers the rest with 403.)
    const cookie = (await page.context().cookies()).find((candidate) => candidate.name === "ops_session")!;
    const forge = (headers: Record<string, string>) =>
      fetch(url(`/ops/claims/${claimId}`), {
        method: "POST",
        headers: {
          Cookie: `ops_session=${cookie.value}`,
          "Content-Type": "application/x-www-form-urlencoded",
          ...headers,
        },
        body: new URLSearchParams({ action: "approve", remedy: "refund" }),
        redirect: "manual",
      });
    for (const origin of ["http://attacker.example", "null"]) {
      const forged = await forge({ Origin: origin });
      assert.ok(forged.status >= 400, `${origin}: ${forged.status}`);
    }
    assert.equal((await forge({})).status, 403, "no Origin");
    assert.equal((await forge({ "Sec-Fetch-Site": "cross-site" })).status, 403, "cross-site Fetch Metadata");
    assert.deepEqual(await counts(), before);

    // Denied with a published reason, the claim leaves the open queue.
    await page.selectOption("#deny-code", "insufficient_evidence");
    await Promise.all([page.waitForURL(/notice=deny/), page.click("button:has-text('Deny the claim')")]);
    await page.waitForSelector(".notice:has-text('The claim is denied')");
    assert.equal(await claimStatus(claimId), "denied");
    await page.goto(url("/ops"));
    assert.equal(await page.locator(`a:has-text('${claimId}')`).count(), 0);
    await page.goto(url("/ops?view=denied"));
    assert.equal(await page.locator(`a:has-text('${claimId}')`).count(), 1);
  });

  it("an approved claim whose plan was voided: the page says it will not be paid and offers only plan_not_active", async () => {
    const claimId = await claimWithPhoto("Approved, then the store voided the order.");
    const reviewer = await account("reviewer");
    const actor = { merchantId: portal.merchant.merchantId, mode: "test" as const };
    await db().transaction((tx) =>
      approveClaim(tx, services, actor, claimId, { kind: "staff", staffId: reviewer.id }, { remedy: "refund" }),
    );
    const { plan_id: planId } = (await db().get<{ plan_id: string }>("SELECT plan_id FROM claims WHERE id = ?", [
      claimId,
    ]))!;
    await db().transaction((tx) => voidPlan(tx, services, actor, { planId }, "order cancelled"));

    const page = await newPage(390);
    await signIn(page, reviewer);
    await page.goto(url(`/ops/claims/${claimId}`));
    const main = (await page.textContent("main"))!;
    assert.match(main, /The plan was voided, so this approval will not be paid\. Deny the claim to close it/);
    assert.match(main, /None: the plan was voided/, "no payout pending");
    assert.equal(await page.locator("button:has-text('Approve the claim')").count(), 0);
    assert.deepEqual(
      await page
        .locator("#deny-code option")
        .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value)),
      ["plan_not_active"],
    );
    assert.equal(await page.inputValue("#deny-code"), "plan_not_active", "the one reason is chosen");
    await checkPage(page, "claim-approved-plan-voided");

    await Promise.all([page.waitForURL(/notice=deny/), page.click("button:has-text('Deny the claim')")]);
    assert.equal(await claimStatus(claimId), "denied");
    const decision = await db().get<{ decision_code: string }>("SELECT decision_code FROM claims WHERE id = ?", [
      claimId,
    ]);
    assert.equal(decision!.decision_code, "plan_not_active");
  });

  it("an admin records a payment made in the Shopify admin once the payout gave up; a reviewer cannot, nor anyone while it may pay", async () => {
    const claimId = await claimWithPhoto("Lost, then refunded by hand in the Shopify admin.");
    const admin = await account("admin");
    const reviewer = await account("reviewer");
    const actor = { merchantId: portal.merchant.merchantId, mode: "test" as const };
    await db().transaction((tx) =>
      approveClaim(tx, services, actor, claimId, { kind: "staff", staffId: admin.id }, { remedy: "refund" }),
    );
    // The harness's merchant becomes a Shopify shop for this test only, with the claim's payout job queued (the job
    // and the claim's payout state, as the app writes them).
    const shop = `console-${process.pid}.myshopify.com`;
    await db().run("UPDATE merchants SET shop_domain = ? WHERE id = ?", [shop, actor.merchantId]);
    const jobId = `job_claim_payout_${claimId}`;
    await db().transaction(async (tx) => {
      await insertShopifyJob(
        tx,
        { id: jobId, shop, kind: CLAIM_PAYOUT_JOB, subject: claimId, payload: { claimId }, lockedUntil: null },
        Date.now(),
      );
      await recordClaimPayoutStep(tx, claimId, { state: "pending", attempts: 0, error: null });
    });
    try {
      const adminPage = await newPage(390);
      const reviewerPage = await newPage();
      await signIn(adminPage, admin);
      await signIn(reviewerPage, reviewer);
      const claimUrl = url(`/ops/claims/${claimId}`);
      const recordPayment = (page: Page) =>
        page.request.post(claimUrl, {
          form: { action: "record_payment", "payment-reference": "#1042" },
          headers: { Origin: portal.app.origin },
          maxRedirects: 0,
        });
      const paymentForm = "h2:has-text('Record a payment made in the Shopify admin')";
      const ledger = async () =>
        Number(
          (await db().get<{ n: number }>(
            "SELECT COUNT(*) AS n FROM ledger_entries WHERE kind = 'claim_reimbursement' AND source_id = ?",
            [claimId],
          ))!.n,
        );

      // While the job may still pay, nobody records a payment: no form, and a POST is refused with the reason.
      const before = await counts();
      await adminPage.goto(claimUrl);
      assert.equal(await adminPage.locator(paymentForm).count(), 0);
      const early = await recordPayment(adminPage);
      assert.equal(early.status(), 409);
      assert.match(await early.text(), /still paying this claim on Shopify/);
      assert.deepEqual(await counts(), before);

      const lastError = "the app is not installed on the shop";
      await db().transaction(async (tx) => {
        await recordShopifyJobFailure(tx, jobId, { attempts: 1, runAt: undefined, lastError }, Date.now());
        await recordClaimPayoutStep(tx, claimId, { state: "dead", attempts: 1, error: lastError });
      });
      // A reviewer sees no form, and a reviewer's POST is a 403.
      await reviewerPage.goto(claimUrl);
      assert.match((await reviewerPage.textContent("main"))!, /Gave up after 1 attempt(?!s)/);
      assert.equal(await reviewerPage.locator(paymentForm).count(), 0);
      assert.equal((await recordPayment(reviewerPage)).status(), 403);
      assert.deepEqual(await counts(), before);

      // The admin: a missing reference is named next to its field; then the payment is recorded.
      await adminPage.goto(claimUrl);
      await adminPage.waitForSelector(paymentForm);
      await checkPage(adminPage, "claim-record-payment");
      await adminPage.click("button:has-text('Record the payment')");
      await adminPage.waitForSelector("#payment-reference-error");
      assert.match((await adminPage.textContent("#payment-reference-error"))!, /Shopify refund or order number/);
      assert.deepEqual(await counts(), before);
      await adminPage.fill("#payment-reference", "#1042");
      await adminPage.fill("#payment-note", "Refunded by the shop.");
      await Promise.all([
        adminPage.waitForURL(/notice=record_payment/),
        adminPage.click("button:has-text('Record the payment')"),
      ]);
      await adminPage.waitForSelector(".notice:has-text('The payment is recorded')");
      assert.equal(await claimStatus(claimId), "paid");
      assert.match((await adminPage.textContent("main"))!, /#1042/);
      assert.equal(await adminPage.locator(paymentForm).count(), 0);
      assert.equal(await ledger(), 1);
      const audit = await db().all<{ action: string; detail: string }>(
        "SELECT action, detail FROM staff_audit_log WHERE subject = ? AND staff_id = ?",
        [claimId, admin.id],
      );
      assert.deepEqual(
        audit.map((entry) => entry.action),
        ["claim.payment_recorded"],
      );
      assert.equal(JSON.parse(audit[0].detail).reference, "#1042");
      await checkPage(adminPage, "claim-payment-recorded");
    } finally {
      await db().run("UPDATE merchants SET shop_domain = NULL WHERE id = ?", [actor.merchantId]);
    }
  });
});
