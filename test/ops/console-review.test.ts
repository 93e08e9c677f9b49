// The claims console's review aids (issue 28) in real Chromium over the web app's real process, on SQLite (the
// console's PostgreSQL smoke is in console-pages.test.ts): evidence photos as thumbnails and a large view, served typed
// by their bytes and sandboxed, a PDF that downloads; the order's lines, destination and delivery beside the claim
// ("Not known" where nothing says); the evidence and the history before the decide forms; the queue's search by
// reference number, "Assign to me" and the "Mine" filter, and the marker on claims near or past the review promise.
// axe-core on every page; screenshots at 390 px and 1280 px under test-artifacts/ops/.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { FULL_SUITE_DIALECTS } from "../support/page-suites.ts";
import { axeViolations, launchBrowser, type TestPage } from "../support/widget/browser.ts";
import { screenshotAtWidths } from "../support/page-checks.ts";
import { signInConsolePage } from "../support/page-client.ts";
import { COMPANY_NAME, PDF_BYTES, startPortal, type PortalHarness } from "../portal/support.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";
import type { Services } from "../../server/domain/context.ts";
import { fileClaim, prepareEvidence } from "../../server/domain/claims.ts";
import { findPlanByReference } from "../../server/store/plans.ts";
import { defaultEvidenceDirectory, filesystemEvidenceStore } from "../../server/evidence/index.ts";
import { ensureStaffAccount, issueSignInLink, type StaffPrincipal } from "../../server/domain/staff.ts";
import { actOnClaim, reviewPromise } from "../../server/domain/ops-claims.ts";
import { insertShopifyOrder } from "../../app/shopify/store/orders.ts";
import { demoPhotoPng } from "../../server/demo-photo.ts";
import { heicWithMetadata } from "../support/evidence-images.ts";
import { suitePages } from "../support/page-suites.ts";
import type { DomainError } from "../../server/domain/errors.ts";

const ARTIFACTS = path.resolve(import.meta.dirname, "../../test-artifacts/ops");
const HOUR_MS = 3_600_000;
const PHOTO = demoPhotoPng();

let sequence = 0;
const newAddress = (label: string) => `${label}-${process.pid}-${++sequence}@review.example.com`;

describe.each(FULL_SUITE_DIALECTS)("claims console review aids (%s)", (dialect) => {
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
  const db = () => portal.database.db;
  const owner = () => ({ merchantId: portal.merchant.merchantId, mode: "test" as const });

  const newPage = (width = 1280) => openPage({ viewport: { width, height: 900 }, acceptDownloads: true });

  /** A protected order with a claim filed by its buyer with these files; resolves with the claim and its plan. */
  async function claimWith(files: { fileName: string; bytes: Uint8Array }[]) {
    const reference = await portal.protect(newAddress("buyer"));
    const plan = (await findPlanByReference(db(), owner(), reference))!;
    const evidence = await prepareEvidence(
      services,
      files.map((file, index) => ({ field: "evidence", index, ...file })),
    );
    const claim = await db().transaction((tx) =>
      fileClaim(
        tx,
        services,
        { ...owner(), planId: plan.id, sessionId: "pss_review_test" },
        {
          referenceNumber: reference,
          reason: "damaged_in_transit",
          occurredAt: Date.now(),
          description: "The box arrived crushed.",
        },
        evidence,
      ),
    );
    return { claimId: claim.id, planId: plan.id, reference, evidence: claim.evidence };
  }

  const account = (role: "reviewer" | "admin") =>
    db().transaction((tx) => ensureStaffAccount(tx, services, { email: newAddress(role), role }, "test"));

  async function signIn(page: Page, staff: { id: string; email: string }) {
    const link = await db().transaction((tx) => issueSignInLink(tx, services, staff));
    await signInConsolePage(page, portal.app.origin, link.token);
  }

  async function checkPage(page: Page, name: string) {
    assert.deepEqual(pageErrors, [], "no script errors in the console's pages");
    assert.deepEqual(await axeViolations({ page } as TestPage), [], `${name}: axe-core violations`);
    if (dialect === "sqlite")
      await screenshotAtWidths(
        page,
        (width) => path.join(ARTIFACTS, `${dialect}-${name}-${width}.png`),
        async (width) => {
          const sideways = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
          assert.equal(sideways, false, `${name} at ${width} px: no sideways scroll`);
        },
      );
  }

  /** Every <img> matching `selector` has loaded and has pixels. */
  const imagesDrawn = (page: Page, selector: string) =>
    page.waitForFunction(
      (css) => {
        const images = [...document.querySelectorAll<HTMLImageElement>(css)];
        return images.length > 0 && images.every((image) => image.complete && image.naturalWidth > 0);
      },
      selector,
      { timeout: 10_000 },
    );

  it("photos as thumbnails and a large view, typed by their bytes and sandboxed; a PDF downloads; the order beside the claim; evidence and history before the forms", async () => {
    const { claimId, planId, evidence } = await claimWith([
      { fileName: "photo.jpg", bytes: PHOTO },
      { fileName: "receipt.pdf", bytes: PDF_BYTES },
      { fileName: "label.webp.png", bytes: PHOTO },
      { fileName: "IMG_0001.heic", bytes: heicWithMetadata().bytes },
    ]);
    // A Shopify order's facts as the orders/create job keeps them, and its delivery.
    await db().transaction((tx) =>
      insertShopifyOrder(
        tx,
        {
          shop: "review-test.myshopify.com",
          orderId: `shopify-${claimId}`,
          planId,
          referenceNumber: "unused",
          currency: "USD",
          goodsAmountCents: 12_000,
          linePriceCents: 360,
          feeCents: 360,
          feeMismatch: false,
          lines: [
            { title: "Trail shoes – 42 / Blue", quantity: 1, unitPriceCents: 9_000 },
            { title: "Wool socks", quantity: 2, unitPriceCents: 1_500 },
          ],
          shipTo: { city: "Lyon", region: "ARA", postalCode: "69002", countryCode: "FR" },
        },
        Date.now(),
      ),
    );
    const deliveredAt = Date.UTC(2026, 10, 20, 14, 5);
    await db().run("UPDATE orders SET delivered_at = ? WHERE plan_id = ?", [deliveredAt, planId]);

    const admin = await account("admin");
    const page = await newPage();
    await signIn(page, admin);
    await page.goto(url(`/ops/claims/${claimId}`));
    await imagesDrawn(page, ".evidence-grid img");

    // The evidence and the history come before the decide forms.
    const order = await page.evaluate(() => {
      const at = (id: string) => document.getElementById(id)!;
      const before = (a: string, b: string) =>
        Boolean(at(a).compareDocumentPosition(at(b)) & Node.DOCUMENT_POSITION_FOLLOWING);
      return {
        evidence: before("files-title", "actions-title"),
        history: before("timeline-title", "actions-title"),
        orderBeforeForms: before("order-title", "actions-title"),
      };
    });
    assert.deepEqual(order, { evidence: true, history: true, orderBeforeForms: true });

    // The photo was uploaded as photo.jpg: its bytes are a PNG, and it is named and typed as one.
    const photoId = evidence.find((file) => file.fileName === "photo.png")!.id;
    assert.equal(evidence.find((file) => file.id === photoId)!.contentType, "image/png");
    const orderText = (await page.textContent("section[aria-labelledby='order-title']"))!;
    for (const fact of [/Trail shoes – 42 \/ Blue/, /Wool socks/, /\$90\.00/, /\$15\.00/, /Lyon, ARA 69002, FR/])
      assert.match(orderText, fact);
    assert.match(orderText, /DeliveryDelivered \(no shipment kept\), Nov 20, 2026, 02:05 PM UTC/, "the delivery");
    assert.match(orderText, /A Shopify store/);
    await checkPage(page, "claim-evidence");

    // The image response: typed by its bytes, shown in place, sandboxed, never sniffed.
    const src = `/ops/claims/${claimId}/evidence/${photoId}?inline=1`;
    assert.equal(await page.locator(`.evidence-grid img[src='${src}']`).count(), 1, "the thumbnail's source");
    const shown = await page.request.get(url(src));
    assert.equal(shown.status(), 200);
    assert.equal(shown.headers()["content-type"], "image/png");
    assert.equal(shown.headers()["content-disposition"], "inline");
    assert.match(shown.headers()["content-security-policy"]!, /(^|;\s*)sandbox(;|$)/);
    assert.match(shown.headers()["content-security-policy"]!, /default-src 'none'/);
    assert.equal(shown.headers()["x-content-type-options"], "nosniff");
    assert.equal(shown.headers()["cache-control"], "no-store");
    // A wrong stored label changes nothing: the response's type is read from the bytes.
    await db().run("UPDATE claim_evidence SET content_type = 'image/jpeg' WHERE id = ?", [photoId]);
    assert.equal((await page.request.get(url(src))).headers()["content-type"], "image/png");
    await db().run("UPDATE claim_evidence SET content_type = 'image/png' WHERE id = ?", [photoId]);
    // Staff only.
    const anonymous = await fetch(url(src), { redirect: "manual" });
    assert.equal(anonymous.status, 302);

    // The PDF: an attachment even when asked in place, sandboxed too; the browser downloads it.
    const pdfId = evidence.find((file) => file.contentType === "application/pdf")!.id;
    const pdf = await page.request.get(url(`/ops/claims/${claimId}/evidence/${pdfId}?inline=1`));
    assert.equal(pdf.headers()["content-type"], "application/pdf");
    assert.match(pdf.headers()["content-disposition"]!, /^attachment; filename="receipt\.pdf"/);
    assert.match(pdf.headers()["content-security-policy"]!, /sandbox/);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.click("a:has-text('Download receipt.pdf')"),
    ]);
    assert.equal(download.suggestedFilename(), "receipt.pdf");

    // HEIC: Chromium cannot draw it, so it is offered as a download, never shown in place.
    assert.equal(await page.locator(".evidence-grid img").count(), 2, "thumbnails of the photos only");
    assert.match((await page.textContent(".evidence-grid"))!, /Download IMG_0001\.heic/);
    const heicId = evidence.find((file) => file.contentType === "image/heic")!.id;
    const heic = await page.request.get(url(`/ops/claims/${claimId}/evidence/${heicId}?inline=1`));
    assert.equal(heic.headers()["content-type"], "image/heic");
    assert.match(heic.headers()["content-disposition"]!, /^attachment; filename="IMG_0001\.heic"/);

    // The large view: the thumbnail opens it, the photo drawn at its size.
    await Promise.all([page.waitForURL(/\/view$/), page.click(".evidence-grid a.evidence-thumb >> nth=0")]);
    await imagesDrawn(page, ".evidence-large img");
    assert.equal(
      await page.evaluate(() => document.querySelector<HTMLImageElement>(".evidence-large img")!.naturalWidth),
      320,
    );
    assert.match((await page.textContent("main"))!, /Photo 1 of 2/);
    await checkPage(page, "evidence-view");
    await Promise.all([page.waitForURL(/\/view$/), page.click("a:has-text('Next photo')")]);
    await page.waitForSelector("h1:has-text('label.webp.png')");
    await imagesDrawn(page, ".evidence-large img");
    assert.match((await page.textContent("main"))!, /Photo 2 of 2/);
    assert.equal(await page.locator("a:has-text('Next photo')").count(), 0);
    // A file the claim does not have: 404 with a sentence; no session: the sign-in page.
    const missing = await page.goto(url(`/ops/claims/${claimId}/evidence/evd_missing/view`));
    assert.equal(missing?.status(), 404);
    assert.match((await page.textContent("main"))!, /There is no such file\./);
    const signedOut = await fetch(url(`/ops/claims/${claimId}/evidence/${photoId}/view`), { redirect: "manual" });
    assert.equal(signedOut.status, 302);
    await page.goto(url(`/ops/claims/${claimId}/evidence/${photoId}/view`));
    await page.click("a:has-text('Back to the claim')");
    await page.waitForSelector("#files-title");
  });

  it("an order from another cart: what order_context says, and 'Not known' for items, destination and delivery", async () => {
    const { claimId } = await claimWith([{ fileName: "box.png", bytes: PHOTO }]);
    const reviewer = await account("reviewer");
    const page = await newPage(390);
    await signIn(page, reviewer);
    await page.goto(url(`/ops/claims/${claimId}`));
    await imagesDrawn(page, ".evidence-grid img");
    const orderText = (await page.textContent("section[aria-labelledby='order-title']"))!;
    assert.match(orderText, /The store's own cart \(API\)/);
    assert.match(orderText, /Shipped toNot known/);
    assert.match(orderText, /DeliveryNo shipment reported/);
    assert.match(orderText, /ItemsNot known/);
    assert.match(orderText, /Goods covered\$120\.00/, "order_context's covered amount");
    await checkPage(page, "claim-other-cart");
  });

  it("search by reference number, Assign to me and Mine, and the review promise's marker", async () => {
    const overdue = await claimWith([]);
    const dueSoon = await claimWith([]);
    const fresh = await claimWith([]);
    const now = Date.now();
    // Back-dated: 10 days is past 5 business days whatever the weekday; "due soon" is the middle of its window.
    await db().run("UPDATE claims SET created_at = ? WHERE id = ?", [now - 240 * HOUR_MS, overdue.claimId]);
    const soonHours = Array.from({ length: 240 }, (_, hours) => hours).filter(
      (hours) => reviewPromise("submitted", now - hours * HOUR_MS, now)?.marker === "due_soon",
    );
    const soonAt = now - soonHours[Math.floor(soonHours.length / 2)] * HOUR_MS;
    await db().run("UPDATE claims SET created_at = ? WHERE id = ?", [soonAt, dueSoon.claimId]);

    const reviewer = await account("reviewer");
    const colleague = await account("reviewer");
    const page = await newPage();
    await signIn(page, reviewer);
    const rowOf = (claimId: string) => page.locator("tr", { has: page.locator(`a:has-text('${claimId}')`) });
    assert.match((await rowOf(overdue.claimId).textContent())!, /Past the review promise/);
    assert.match((await rowOf(dueSoon.claimId).textContent())!, /Review due soon/);
    const freshRow = (await rowOf(fresh.claimId).textContent())!;
    assert.doesNotMatch(freshRow, /review promise|due soon/);
    assert.match(freshRow, /Nobody/);
    await checkPage(page, "queue-markers");

    // Search: part of the reference, any case; the other claims are not listed.
    await page.fill("#reference", dueSoon.reference.slice(4).toLowerCase());
    await Promise.all([page.waitForURL(/reference=/), page.click("button:has-text('Find')")]);
    // The URL changes before React draws the new rows (a client-side navigation): wait for the table to follow.
    await rowOf(overdue.claimId).waitFor({ state: "detached" });
    assert.equal(await rowOf(dueSoon.claimId).count(), 1);
    assert.equal(await rowOf(overdue.claimId).count(), 0);
    assert.equal(await page.locator("tbody tr").count(), 1);
    // Text that is no reference is named next to the field and the default queue shows.
    await page.goto(url("/ops?view=all&reference=%25%27"));
    assert.match((await page.textContent("#reference-error"))!, /letters, digits and hyphens/);

    // Assign to me: the claim page says so, the queue's Mine lists it (and nobody else's Mine).
    await page.goto(url(`/ops/claims/${fresh.claimId}`));
    await Promise.all([page.waitForURL(/notice=assign_to_me/), page.click("button:has-text('Assign to me')")]);
    await page.waitForSelector(".notice:has-text('The claim is yours')");
    assert.match((await page.textContent(".assignment"))!, /Assignee: You/);
    await checkPage(page, "claim-assigned");
    await page.goto(url("/ops"));
    await page.selectOption("#assignee", "mine");
    await Promise.all([page.waitForURL(/assignee=mine/), page.click("button:has-text('Show')")]);
    await rowOf(overdue.claimId).waitFor({ state: "detached" });
    assert.equal(await rowOf(fresh.claimId).count(), 1);
    assert.equal(await rowOf(overdue.claimId).count(), 0);
    assert.match((await rowOf(fresh.claimId).textContent())!, new RegExp(reviewer.email.replace(/[.+]/g, "\\$&")));
    await checkPage(page, "queue-mine");
    const other = await newPage(390);
    await signIn(other, colleague);
    await other.goto(url("/ops?assignee=mine"));
    assert.equal(await other.locator(`a:has-text('${fresh.claimId}')`).count(), 0);

    // Only the assignee gives a claim back; a decided claim is taken by nobody.
    const principal = (staff: { id: string; email: string }): StaffPrincipal =>
      ({ id: staff.id, email: staff.email, role: "reviewer" }) as StaffPrincipal;
    await assert.rejects(
      db().transaction((tx) =>
        actOnClaim(tx, services, principal(colleague), fresh.claimId, { action: "unassign" }, ""),
      ),
      (error: DomainError) => error.code === "claim_not_yours",
    );
    await db().transaction((tx) =>
      actOnClaim(
        tx,
        services,
        principal(colleague),
        overdue.claimId,
        { action: "deny", code: "insufficient_evidence" },
        "",
      ),
    );
    await assert.rejects(
      db().transaction((tx) =>
        actOnClaim(tx, services, principal(colleague), overdue.claimId, { action: "assign_to_me" }, ""),
      ),
      (error: DomainError) => error.code === "claim_closed",
    );
    const audit = await db().all<{ action: string }>(
      "SELECT action FROM staff_audit_log WHERE staff_id = ? AND subject = ?",
      [reviewer.id, fresh.claimId],
    );
    assert.deepEqual(
      audit.map((entry) => entry.action),
      ["claim.assigned"],
    );
    await page.goto(url(`/ops/claims/${fresh.claimId}`));
    await Promise.all([page.waitForURL(/notice=unassign/), page.click("button:has-text('Give it back')")]);
    await page.waitForSelector(".notice:has-text('You gave the claim back')");
    await page.goto(url("/ops?assignee=mine"));
    assert.equal(await rowOf(fresh.claimId).count(), 0);
  });
});
