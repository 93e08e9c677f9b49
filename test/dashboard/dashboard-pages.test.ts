// The standalone merchant dashboard (/dashboard) in real Chromium over the web app's real process (`npm start` over
// the build), on SQLite and PostgreSQL: sign up with an e-mail address and a business name → the sign-up link read
// from the .eml, which opens the account → the Overview in test mode → mint a live secret key, seen once → invite a
// support member, who signs in and cannot see keys → refused input next to its field, changing nothing → a foreign or
// token-less POST refused →
// the live key refused by the API until Go live, then accepted → sign out everywhere. axe-core on every page;
// screenshots at 390 px and 1280 px under test-artifacts/dashboard/. On PostgreSQL, the shell's smoke only: an owner
// signs in, opens a sale made through the API and voids it, read back from the store (test/support/page-suites.ts).
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
import { startReceiver } from "../support/webhook-receiver.ts";
import { PNG_BYTES, startPortal, type PortalHarness } from "../portal/support.ts";
import { fileClaim, prepareEvidence } from "../../server/domain/claims.ts";
import { approveClaim } from "../../server/domain/claim-decisions.ts";
import { closeEndedPeriods, SETTLEMENT_GRACE_MS, settlementEntriesCsv } from "../../server/domain/settlements.ts";
import { findPlanByReference } from "../../server/store/plans.ts";
import { defaultEvidenceDirectory, filesystemEvidenceStore } from "../../server/evidence/index.ts";
import { ownerSignInToken } from "../support/page-client.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";
import type { Services } from "../../server/domain/context.ts";
import { pageDrawn, screenshotAtWidths } from "../support/page-checks.ts";
import { suitePages } from "../support/page-suites.ts";

const ARTIFACTS = path.resolve(import.meta.dirname, "../../test-artifacts/dashboard");
const TABLES = ["merchants", "merchant_members", "member_sessions", "api_keys", "merchant_audit_log"];

let sequence = 0;
const services: Services = {
  clock: Date.now,
  random: cryptoRandom,
  settings: { companyName: "Dashboard Test", portalUrl: "https://portal.example.test" },
};
const newAddress = (label: string) => `${label}-${process.pid}-${++sequence}@shop.example.com`;

describeEachDatabase("standalone dashboard (%s)", (dialect) => {
  // `it`: a test of the full suite, on SQLite only; `test`: the PostgreSQL smoke too (test/support/page-suites.ts).
  const { it, test } = pageSuiteTests(dialect);
  let harness: PortalHarness;
  let browser: Browser;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    // Test-mode webhook endpoints may point at this machine (the operator's switch), for the endpoint flow below: the
    // web app's setting only (this process runs other files after this one).
    [harness, browser] = await Promise.all([
      startPortal(dialect, { WEBHOOK_ALLOW_PRIVATE_URLS: "on" }),
      launchBrowser(),
    ]);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });
  // Each test's pages close and their contexts serve the next test, reset.
  const openPage = suitePages(() => browser, pageErrors);

  const url = (pathname: string) => `${harness.app.origin}${pathname}`;
  const db = () => harness.database.db;
  const counts = () => rowCounts(db(), TABLES);
  const planStatus = async (reference: string) =>
    (await db().get<{ status: string }>("SELECT status FROM plans WHERE reference_number = ?", [reference]))!.status;

  const newPage = (width = 1280) => openPage({ viewport: { width, height: 900 } });

  /** The path of the newest sign-in (or sign-up) link e-mailed to `to` (the .eml files of DATA_DIR/mail). */
  async function linkFromEmail(to: string, after: Set<string> = new Set(), kind = "sign-in"): Promise<string> {
    const folder = path.join(harness.dataDir, "mail");
    const found = await waitFor(async () => {
      if (!fs.existsSync(folder)) return undefined;
      for (const name of fs.readdirSync(folder).sort().reverse()) {
        if (after.has(name)) continue;
        const mail = await simpleParser(fs.readFileSync(path.join(folder, name)));
        const recipients = [mail.to].flat().flatMap((address) => address?.value ?? []);
        if (!recipients.some((address) => address.address === to)) continue;
        const link = new RegExp(`https?://\\S+?/dashboard/${kind}/[A-Za-z0-9_-]{43}`).exec(mail.text ?? "");
        if (link) return new URL(link[0]).pathname;
      }
      return undefined;
    });
    return found;
  }

  const mailFiles = () =>
    new Set(
      fs.existsSync(path.join(harness.dataDir, "mail")) ? fs.readdirSync(path.join(harness.dataDir, "mail")) : [],
    );

  /** Opens a sign-in link's page and signs in: the Overview, interactive. */
  async function signInByLink(page: Page, pathname: string) {
    await load(page, pathname);
    await Promise.all([page.waitForURL(url("/dashboard")), page.click("button:has-text('Sign in')")]);
    await page.waitForSelector("h1:has-text('Overview')");
    await pageDrawn(page);
  }

  async function signInFromEmail(page: Page, email: string, seen = new Set<string>()) {
    await signInByLink(page, await linkFromEmail(email, seen));
  }

  /** Loads `pathname` and waits for it to be interactive. */
  async function load(target: Page, pathname: string) {
    const response = await target.goto(url(pathname));
    await pageDrawn(target);
    return response;
  }

  /** Follows the link (a navigation entry, a row's link) as a fresh page load, once it is interactive. */
  async function follow(target: Page, selector: string) {
    await load(target, (await target.getAttribute(selector, "href"))!);
  }

  /** axe-core, no script errors; screenshots at both widths. */
  async function check(page: Page, name: string) {
    assert.deepEqual(await axeViolations({ page } as TestPage), [], `${name}: axe-core violations`);
    // Screenshots come from the SQLite run: the pages are the same on PostgreSQL, and a second set costs CI minutes.
    if (dialect === "sqlite")
      await screenshotAtWidths(page, (width) => path.join(ARTIFACTS, `${dialect}-${name}-${width}.png`));
    assert.deepEqual(pageErrors, []);
  }

  it("signs up, signs in by e-mail link, mints a live key shown once, invites a support member who cannot see keys, and goes live", async () => {
    const owner = newAddress("owner");
    const page = await newPage();
    await load(page, "/dashboard/sign-up");
    await check(page, "sign-up");

    // Refused input: next to its field, nothing written.
    const before = await counts();
    await page.fill("input[name=email]", "not-an-address");
    await page.fill("input[name=businessName]", "Harbour Lane Ceramics");
    await page.click("button:has-text('E-mail me a link to open the account')");
    await page.waitForSelector("text=Enter an e-mail address such as name@example.com.");
    assert.deepEqual(await counts(), before);
    await check(page, "sign-up-error");

    await page.fill("input[name=email]", owner);
    await Promise.all([
      page.waitForURL(/\/dashboard\/sign-up\?notice=sent/),
      page.click("button:has-text('E-mail me a link to open the account')"),
    ]);
    await page.waitForSelector(`text=We sent a link to ${owner}. Open it to continue.`);
    assert.equal(await page.locator("input[name=email]").count(), 0, "the notice, not the filled form");
    assert.ok(await page.isVisible("a:has-text('Start again')"));
    assert.deepEqual(await counts(), before, "nothing is created before the link is opened");
    await check(page, "sign-up-sent");

    await load(page, await linkFromEmail(owner, new Set(), "sign-up"));
    await check(page, "sign-up-link");
    await Promise.all([page.waitForURL(url("/dashboard")), page.click("button:has-text('Open the account')")]);
    await page.waitForSelector("h1:has-text('Overview')");
    await pageDrawn(page);
    assert.ok(await page.isVisible("text=You are looking at test data"));
    assert.ok(await page.getByRole("heading", { name: "Claim decisions" }).isVisible());
    assert.ok(await page.isVisible("text=No claim was decided in this period."));
    await check(page, "overview");

    // A live secret key: shown once, then only its last four.
    await follow(page, "nav[aria-label=Dashboard] a:has-text('API keys')");
    await page.waitForSelector("h1:has-text('API keys')");
    await page.selectOption("select[name=mode]", "live");
    await page.click("button:has-text('Mint the key')");
    const secret = await page.inputValue("input[readonly]");
    assert.match(secret, /^mch_live_[A-Za-z0-9]{32}$/);
    await check(page, "keys-revealed");
    await page.reload();
    await pageDrawn(page);
    assert.equal(await page.locator(`text=${secret}`).count(), 0);
    assert.ok(await page.isVisible(`code:has-text('mch_live_…${secret.slice(-4)}')`));
    await check(page, "keys");

    // The API refuses the live key until the merchant goes live.
    const purchases = () =>
      fetch(url("/api/v1/purchases"), { headers: { Authorization: `Bearer ${secret}` } }).then(async (response) => ({
        status: response.status,
        body: await response.json(),
      }));
    const early = await purchases();
    assert.equal(early.status, 403);
    assert.equal(early.body.error.code, "live_mode_not_enabled");

    // A webhook endpoint: refused input next to its field, changing nothing; then its secret shown once.
    await follow(page, "nav[aria-label=Dashboard] a:has-text('Webhooks')");
    await page.waitForSelector("h1:has-text('Webhooks')");
    const noEndpoint = await rowCounts(db(), ["webhook_endpoints", "merchant_audit_log"]);
    await page.fill("input[name=url]", "not a url");
    await page.click("button:has-text('Add the endpoint')");
    await page.waitForSelector("text=The url is not an absolute URL.");
    assert.deepEqual(await rowCounts(db(), ["webhook_endpoints", "merchant_audit_log"]), noEndpoint);
    await page.fill("input[name=url]", "http://127.0.0.1:9/hooks");
    await page.click("button:has-text('Add the endpoint')");
    const signingSecret = await page.inputValue("input[readonly]");
    assert.match(signingSecret, /^whsec_/);
    await check(page, "webhooks-secret");
    await page.reload();
    await pageDrawn(page);
    assert.equal(await page.locator(`text=${signingSecret}`).count(), 0);
    assert.ok(await page.isVisible("code:has-text('http://127.0.0.1:9/hooks')"));
    await check(page, "webhooks");

    // Program: the fee preview uses the saved terms; refused input is shown next to its field and changes nothing.
    await follow(page, "nav[aria-label=Dashboard] a:has-text('Program')");
    await page.waitForSelector("h1:has-text('Program')");
    await page.fill("input[name=sample]", "$200");
    await page.click("button:has-text('Preview')");
    await page.waitForSelector("text=for a fee of $6.00 under the saved terms");
    const programRow = () =>
      db().get<{ rate_bps: number; claim_rules: string; settlement_period: string }>(
        "SELECT rate_bps, claim_rules, settlement_period FROM protection_programs p JOIN merchant_members m ON m.merchant_id = p.merchant_id WHERE m.email = ? AND p.mode = 'test'",
        [owner],
      );
    const savedProgram = await programRow();
    await page.fill("input[name=ratePercent]", "2.555");
    await page.click("button:has-text('Save the terms')");
    await page.waitForSelector("text=At most two decimals.");
    await page.fill("input[name=ratePercent]", "2.5");
    await page.check("input[name=autoApprove]");
    await page.fill("input[name=autoApproveMax-USD]", "0");
    await page.check("input[name=autoApproveReasons][value=lost_in_transit]");
    await page.click("button:has-text('Save the terms')");
    await page.waitForSelector("text=At least $0.01.");
    assert.deepEqual(await programRow(), savedProgram);
    await page.fill("input[name=autoApproveMax-USD]", "$50");
    await page.check("input[name=replacementAllowed]");
    await page.selectOption("select[name=settlementPeriod]", "monthly");
    await page.click("button:has-text('Save the terms')");
    await page.waitForSelector("text=Saved: offers quoted from now on use these terms.");
    const changedProgram = (await programRow())!;
    assert.equal(Number(changedProgram.rate_bps), 250);
    assert.equal(changedProgram.settlement_period, "monthly");
    assert.equal(JSON.parse(changedProgram.claim_rules).replacementAllowed, true);
    await page.click("button:has-text('Preview')");
    await page.waitForSelector("text=for a fee of $5.00 under the saved terms");
    await check(page, "program");

    // Invite a support member; they sign in and cannot see keys.
    const support = newAddress("support");
    await follow(page, "nav[aria-label=Dashboard] a:has-text('Team')");
    await page.fill("input[name=email]", support);
    await page.selectOption("select[name=role]", "support");
    const seen = mailFiles();
    await page.click("button:has-text('Send the invitation')");
    await page.waitForSelector(`text=${support} is invited`);
    await check(page, "team");
    const supportPage = await newPage();
    await signInFromEmail(supportPage, support, seen);
    assert.equal(await supportPage.locator("nav[aria-label=Dashboard] a:has-text('API keys')").count(), 0);
    assert.equal(await supportPage.locator("nav[aria-label=Dashboard] a:has-text('Webhooks')").count(), 0);
    // Nor the getting-started checklist or Developers: support neither mints keys nor integrates.
    assert.equal(await supportPage.locator("h2:has-text('Get started')").count(), 0);
    assert.equal(await supportPage.locator("nav[aria-label=Dashboard] a:has-text('Developers')").count(), 0);
    assert.equal((await load(supportPage, "/dashboard/developers"))?.status(), 403);
    const refused = await load(supportPage, "/dashboard/developers/keys");
    assert.equal(refused?.status(), 403);
    await supportPage.waitForSelector("text=Your role cannot open API keys");
    await check(supportPage, "forbidden");

    // A developer: restricted and publishable keys only, the restricted kind explained once, the table's label short.
    const developer = newAddress("developer");
    await page.fill("input[name=email]", developer);
    await page.selectOption("select[name=role]", "developer");
    const seenByDeveloper = mailFiles();
    await page.click("button:has-text('Send the invitation')");
    await page.waitForSelector(`text=${developer} is invited`);
    const developerPage = await newPage();
    await signInFromEmail(developerPage, developer, seenByDeveloper);
    await load(developerPage, "/dashboard/developers/keys");
    await pageDrawn(developerPage);
    assert.deepEqual(await developerPage.locator("select[name=kind] option").allTextContents(), [
      "Restricted (rk_)",
      "Publishable (wk_)",
    ]);
    assert.ok(await developerPage.isVisible("text=it cannot void, report refunds, resolve claims or refund fees"));
    await developerPage.click("button:has-text('Mint the key')");
    assert.match(await developerPage.inputValue("input[readonly]"), /^rk_test_[A-Za-z0-9]{32}$/);
    await developerPage.waitForSelector("td:text-is('Restricted (rk_)')"); // the table names the kind briefly
    await check(developerPage, "keys-developer");

    // A POST without this session's CSRF value, or from another origin, is refused and changes nothing.
    const cookies = await page.context().cookies();
    const cookie = cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    const unchanged = await counts();
    for (const headers of [{ Origin: harness.app.origin }, { Origin: "https://evil.example" }]) {
      const response = await fetch(url("/dashboard/developers/keys"), {
        method: "POST",
        headers: { ...headers, Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
        body: "intent=mint&kind=secret&mode=live&csrf=forged",
        redirect: "manual",
      });
      // Ours answers 403; Remix's own guard refuses a foreign Origin before the action runs (a 500 of its own).
      assert.ok(response.status === 403 || response.status === 500, `${JSON.stringify(headers)}: ${response.status}`);
    }
    assert.deepEqual(await counts(), unchanged);

    // Go live: the checklist wants a live publishable key and origins; then the live key works.
    await follow(page, "nav[aria-label=Dashboard] a:has-text('Go live')");
    await page.waitForSelector("h1:has-text('Go live')");
    await check(page, "go-live-checklist");
    await page.fill("textarea[name=origins]", "shop.example.com/path");
    await page.click("button:has-text('Save origins')");
    await page.waitForSelector("text=is not an origin");
    await page.fill("textarea[name=origins]", "https://shop.example.com");
    await page.click("button:has-text('Save origins')");
    await page.waitForSelector("text=Allowed origins saved.");
    await follow(page, "nav[aria-label=Dashboard] a:has-text('API keys')");
    await page.selectOption("select[name=kind]", "publishable");
    await page.selectOption("select[name=mode]", "live");
    await page.click("button:has-text('Mint the key')");
    await page.waitForSelector("input[readonly]");
    await follow(page, "nav[aria-label=Dashboard] a:has-text('Go live')");
    await page.check("input[name=confirmationEmail]");
    await page.click("button:has-text('Go live')");
    await page.click("button:has-text('Yes, go live')");
    await page.waitForSelector("text=You are live.");
    await check(page, "go-live-done");
    assert.equal((await purchases()).status, 200);

    // Rotation keeps the old key working for the overlap; revoking ends it at once.
    await follow(page, "nav[aria-label=Dashboard] a:has-text('API keys')");
    await page.waitForSelector("h1:has-text('API keys')");
    const liveRow = page.locator("tr", { hasText: `mch_live_…${secret.slice(-4)}` });
    await liveRow.locator("button:has-text('Rotate')").click();
    const successor = await page.inputValue("input[readonly]");
    assert.match(successor, /^mch_live_/);
    assert.equal((await purchases()).status, 200, "the old key works during the overlap");
    await page
      .locator("tr", { hasText: `mch_live_…${secret.slice(-4)}` })
      .locator("button:has-text('Revoke now')")
      .click();
    await page.click("button:has-text('Yes, revoke it')");
    await page.waitForSelector("text=is revoked");
    assert.equal((await purchases()).status, 401);

    // The audit log names each sensitive action; sign out everywhere ends the support member's session too? no: only the owner's.
    await follow(page, "nav[aria-label=Dashboard] a:has-text('Audit log')");
    for (const action of [
      "Signed up",
      "Minted a key",
      "Added a webhook endpoint",
      "Changed the program's terms",
      "Invited a member",
      "Changed the widget's allowed origins",
      "Went live",
      "Rotated a key",
      "Revoked a key",
    ])
      assert.ok(await page.isVisible(`td:has-text("${action}")`), action);
    await check(page, "audit");
    await page.click("button:has-text('Sign out everywhere')");
    await page.waitForSelector("text=You are signed out on every device.");
    await load(page, "/dashboard");
    await page.waitForURL(/\/dashboard\/sign-in/);
  }, 240_000);

  /** A storefront's confirm without any buyer address: 422 customer_email_required, recorded for the overview. */
  async function refusedForNoAddress() {
    const { publishableKey, programId } = harness.merchant;
    const call = (pathname: string, body: unknown) =>
      fetch(`${harness.app.origin}/api/v1${pathname}`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${publishableKey}`,
          "Content-Type": "application/json",
          "Idempotency-Key": crypto.randomUUID(),
        },
        body: JSON.stringify(body),
      });
    const orderId = `no-address-${crypto.randomUUID()}`;
    const quote = await call("/offers/quote", {
      order_amount_cents: 5_000,
      order_id: orderId,
      protection_program_id: programId,
    });
    assert.equal(quote.status, 200);
    const confirm = await call("/offers/confirm", {
      quoteId: (await quote.json()).quoteId,
      quoteToken: quote.headers.get("X-Service-Quote-Token"),
      order_context: {
        schema_version: "2026-01-01",
        order: { id: orderId, purchased_at: new Date().toISOString(), currency: "USD", covered_amount_cents: 5_000 },
        participants: { mode: "unnamed" },
      },
    });
    assert.equal(confirm.status, 422);
    assert.equal((await confirm.json()).error.code, "customer_email_required");
  }

  it("shows a merchant with sales its purchases (filters, detail with the consent record) and claims (a file, the timeline, a confirmed refund), reports a refund with its credit, lists a closed statement with its CSV, delivers to a webhook endpoint and sends again, and voids", async () => {
    // The harness's merchant, with sales made through the API, gets an owner who signs in by a link.
    const email = newAddress("seller");
    const token = await ownerSignInToken(db(), services, harness.merchant.merchantId, email);
    const references = [await harness.protect(newAddress("buyer")), await harness.protect(newAddress("buyer"))];
    await refusedForNoAddress();
    const orderOf = async (reference: string) =>
      (await db().get<{ order_id: string }>("SELECT order_id FROM plans WHERE reference_number = ?", [reference]))!
        .order_id;
    const page = await newPage();
    await signInByLink(page, `/dashboard/sign-in/${token}`);
    assert.match((await page.locator("svg[role=img] desc").textContent()) ?? "", /2 purchases protected/);
    // The buyer whose page sent no address: the overview says so, and what to pass.
    assert.ok(await page.isVisible("text=1 buyer chose protection but got no plan: your page sent no buyer e-mail"));
    await check(page, "overview-with-sales");

    await follow(page, "nav[aria-label=Dashboard] a:has-text('Purchases')");
    await page.waitForSelector("h1:has-text('Purchases')");
    for (const reference of references) assert.ok(await page.isVisible(`a:has-text('${reference}')`));
    await check(page, "purchases");
    await page.fill("input[name=reference]", references[0]);
    await page.click("button:has-text('Filter')");
    // The other purchase leaves the list once the filtered page has rendered.
    await page.locator(`a:has-text('${references[1]}')`).waitFor({ state: "detached" });
    assert.match(page.url(), new RegExp(`reference=${references[0]}`));
    assert.ok(await page.isVisible(`a:has-text('${references[0]}')`));
    await load(page, "/dashboard/purchases?from=yesterday");
    await page.waitForSelector("text=Use a date such as 2026-11-25.");

    await load(page, "/dashboard/purchases");
    await follow(page, `a:has-text('${references[0]}')`);
    await page.waitForSelector("h2:has-text('Consent record')");
    await check(page, "purchase");

    // A buyer's claim shows on Claims, filterable by status.
    const plan = (await findPlanByReference(
      db(),
      { merchantId: harness.merchant.merchantId, mode: "test" },
      references[0],
    ))!;
    const evidenceServices: Services = {
      ...services,
      evidence: filesystemEvidenceStore(defaultEvidenceDirectory(harness.dataDir)),
    };
    const evidence = await prepareEvidence(evidenceServices, [
      { field: "evidence", index: 0, fileName: "vase.png", bytes: PNG_BYTES },
    ]);
    const filed = await db().transaction((tx) =>
      fileClaim(
        tx,
        evidenceServices,
        { merchantId: harness.merchant.merchantId, mode: "test", planId: plan.id, sessionId: "pss_dashboard_test" },
        {
          referenceNumber: references[0],
          reason: "damaged_in_transit",
          occurredAt: Date.now(),
          description: "Broken.",
        },
        evidence,
      ),
    );
    await follow(page, "nav[aria-label=Dashboard] a:has-text('Claims')");
    await page.waitForSelector("h1:has-text('Claims')");
    // Named as its buyer names it on the phone.
    assert.ok(await page.isVisible(`td a:has-text('Claim 1 on ${references[0]}')`));
    assert.ok(await page.isVisible("text=damaged in transit"));
    await check(page, "claims");
    await load(page, "/dashboard/claims?status=paid");
    await page.waitForSelector("text=No claims match.");

    // The claim's page: its file, its timeline; approved by the claims team, the merchant confirms the refund they made.
    const claimActor = { merchantId: harness.merchant.merchantId, mode: "test" as const };
    await db().transaction((tx) =>
      approveClaim(
        tx,
        evidenceServices,
        claimActor,
        filed.id,
        { kind: "staff", staffId: "stf_test" },
        { remedy: "refund" },
      ),
    );
    await load(page, `/dashboard/claims/${filed.id}`);
    await page.waitForSelector("h2:has-text('Timeline')");
    assert.ok(await page.isVisible(`h1:has-text('Claim 1 on ${references[0]}')`));
    const fileLink = (await page.getAttribute("a:has-text('vase.png')", "href"))!;
    const download = await fetch(url(fileLink), {
      headers: { Cookie: (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ") },
    });
    assert.equal(download.status, 200);
    assert.equal(download.headers.get("content-type"), "image/png");
    await check(page, "claim");
    const claimTables = ["claims", "claim_timeline", "ledger_entries", "events"];
    const beforeResolution = await rowCounts(db(), claimTables);
    await page.click("button:has-text('Confirm')");
    await page.waitForSelector("text=Enter your reference");
    assert.deepEqual(await rowCounts(db(), claimTables), beforeResolution);
    // The amount is typed as money in the claim's currency; what is not an amount is refused next to its field.
    await page.fill("input[name=reference]", "refund-4711");
    await page.fill("input[name=amount]", "12.345");
    await page.click("button:has-text('Confirm')");
    await page.waitForSelector("text=Enter an amount such as $129.99, or leave it empty for the claim's amount.");
    assert.deepEqual(await rowCounts(db(), claimTables), beforeResolution);
    const { amount_cents: claimed } = (await db().get<{ amount_cents: number }>(
      "SELECT amount_cents FROM claims WHERE id = ?",
      [filed.id],
    ))!;
    await page.fill("input[name=amount]", `$${((Number(claimed) - 1) / 100).toFixed(2)}`);
    await page.click("button:has-text('Confirm')");
    await page.waitForSelector("text=Recorded: the claim is paid and the buyer is told.");
    assert.deepEqual(
      await db().get<{ status: string; paid_amount_cents: number }>(
        "SELECT status, paid_amount_cents FROM claims WHERE id = ?",
        [filed.id],
      ),
      { status: "paid", paid_amount_cents: Number(claimed) - 1 },
    );

    // A refund report: an unknown order is refused next to its field and changes nothing; a real one voids the plan
    // and shows the fee share credited on the next statement.
    await follow(page, "nav[aria-label=Dashboard] a:has-text('Refunds')");
    const before = await rowCounts(db(), ["orders", "plans", "ledger_entries", "settlement_credits", "events"]);
    await page.fill("input[name=orderId]", "no-such-order");
    await page.click("button:has-text('Report the refund')");
    await page.waitForSelector("text=no-such-order");
    assert.deepEqual(
      await rowCounts(db(), ["orders", "plans", "ledger_entries", "settlement_credits", "events"]),
      before,
    );
    await page.fill("input[name=orderId]", await orderOf(references[1]));
    await page.click("button:has-text('Report the refund')");
    await page.waitForSelector("text=is reported as refunded");
    assert.ok(await page.isVisible("text=is credited on your next settlement statement"));
    await check(page, "refund-reported");
    assert.equal(await planStatus(references[1]), "voided");

    // Settlements: the week closed (a clock past its end and the grace), listed, and its CSV as the API gives it.
    const closing: Services = { ...services, clock: () => Date.now() + 8 * 24 * 60 * 60 * 1000 + SETTLEMENT_GRACE_MS };
    assert.ok((await closeEndedPeriods(db(), closing)) >= 1);
    await follow(page, "nav[aria-label=Dashboard] a:has-text('Settlements')");
    await page.waitForSelector("h1:has-text('Settlements')");
    const csvLink = page.locator("a:has-text('entries (CSV)')").first();
    const csvPath = (await csvLink.getAttribute("href"))!;
    await check(page, "settlements");
    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    const csv = await fetch(url(csvPath), { headers: { Cookie: cookie } });
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get("content-disposition") ?? "", /^attachment; filename="stmt_/);
    const statementId = csvPath.split("/").at(-2)!;
    const expected = await settlementEntriesCsv(
      db(),
      { merchantId: harness.merchant.merchantId, mode: "test" },
      statementId,
    );
    assert.equal(await csv.text(), new TextDecoder().decode(expected.bytes));
    assert.equal((await fetch(url(csvPath))).url.includes("/dashboard/sign-in"), true, "no session: the sign-in page");

    // A webhook endpoint at a real receiver: the next sale's event arrives, its delivery is in the endpoint's log with
    // the receiver's answer, and "Send again" delivers the same event once more.
    const receiver = await startReceiver();
    try {
      await follow(page, "nav[aria-label=Dashboard] a:has-text('Webhooks')");
      await page.fill("input[name=url]", receiver.url);
      await page.click("button:has-text('Add the endpoint')");
      await page.waitForSelector("input[readonly]");
      await harness.protect(newAddress("buyer"));
      await waitFor(() => receiver.received.length >= 1 || undefined, { what: "the sale's event at the receiver" });
      const eventId = receiver.received[0].eventId;
      await load(page, "/dashboard/developers/webhooks");
      await follow(page, `a:has-text('${receiver.url}')`);
      await waitFor(
        async () => {
          await page.reload();
          await pageDrawn(page);
          return (await page.locator(`code:has-text('${eventId}')`).count()) > 0 || undefined;
        },
        { intervalMs: 250, what: "the delivery in the endpoint's log" },
      );
      assert.ok(await page.isVisible("td.excerpt:has-text('ok')"));
      await check(page, "webhook-deliveries");
      await page.click("button:has-text('Send again')");
      await page.waitForSelector("text=is queued for this endpoint again");
      await waitFor(() => receiver.received.length >= 2 || undefined, { what: "the event sent again" });
      assert.equal(receiver.received[1].eventId, eventId);

      // A test event reaches the receiver; then pausing the endpoint from its form keeps its secret.
      await page.click("button:has-text('Send a test event')");
      await page.waitForSelector("text=is on its way");
      const test = await waitFor(() =>
        receiver.received.find((delivery) => delivery.event.type === "webhook_endpoint.test"),
      );
      assert.equal((test.event.data.object as { url: string }).url, receiver.url);
      const secretBefore = (await db().get<{ secret_sealed: string }>(
        "SELECT secret_sealed FROM webhook_endpoints WHERE url = ?",
        [receiver.url],
      ))!;
      await page.uncheck("text=Send events to this endpoint");
      await page.click("button:has-text('Save the endpoint')");
      await page.waitForSelector("text=The endpoint is saved");
      const paused = (await db().get<{ status: string; secret_sealed: string }>(
        "SELECT status, secret_sealed FROM webhook_endpoints WHERE url = ?",
        [receiver.url],
      ))!;
      assert.deepEqual(paused, { status: "disabled", secret_sealed: secretBefore.secret_sealed });
    } finally {
      await receiver.close();
    }

    // Void from the purchase's page; a second void of it is refused.
    await load(page, "/dashboard/purchases");
    await follow(page, `a:has-text('${references[0]}')`);
    await page.click("button:has-text('Void this protection')");
    await page.waitForSelector(`text=${references[0]} is void.`);
    // The page reloads its data after the action: the purchase is no longer active, so no second void is offered.
    await page.locator("button:has-text('Void this protection')").waitFor({ state: "detached" });
    assert.equal(await planStatus(references[0]), "voided");
  }, 240_000);

  test("an owner signs in, finds a sale made through the API on its purchase's page, voids it, and the store has it void", async () => {
    const reference = await harness.protect(newAddress("buyer"));
    const token = await ownerSignInToken(db(), services, harness.merchant.merchantId, newAddress("seller"));
    const page = await newPage();
    await signInByLink(page, `/dashboard/sign-in/${token}`);
    await follow(page, "nav[aria-label=Dashboard] a:has-text('Purchases')");
    await follow(page, `a:has-text('${reference}')`);
    await page.waitForSelector("h2:has-text('Consent record')");
    await page.click("button:has-text('Void this protection')");
    await page.waitForSelector(`text=${reference} is void.`);
    // Read back: the page's data reloaded from the store offers no second void, and the plan's row is voided.
    await page.locator("button:has-text('Void this protection')").waitFor({ state: "detached" });
    assert.equal(await planStatus(reference), "voided");
    assert.deepEqual(pageErrors, []);
  });
});
