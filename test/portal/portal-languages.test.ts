// The buyer portal in the buyer's language, in real Chromium over the web app's real process (SQLite; the pages'
// words do not depend on the database): a French browser's look-up → coverage → claim → its denial and a rule's
// approval, in French with French money and dates, the rulebook's French sentences by code and what the rule's
// decision rested on; an English browser switching to German with the portal's language switcher (remembered,
// `<html lang>` following) and filing a claim; and the pseudo-locale (BUYER_PSEUDO_LOCALE=on) rendering every portal
// page at 390 px without anything wider than the screen. axe-core on every page; screenshots at 390 and 1280 px under
// test-artifacts/portal/languages-*.png.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { axeViolations, launchBrowser, type TestPage } from "../support/widget/browser.ts";
import { COMPANY_NAME, daysAgoUtc, PNG_BYTES, startPortal, type PortalHarness } from "./support.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";
import type { Services } from "../../server/domain/context.ts";
import { approveClaim, denyClaim } from "../../server/domain/claim-decisions.ts";
import { rulebookText } from "../../server/domain/rulebook-text.ts";
import { portalMessages } from "../../app/portal/messages.ts";
import { pageDrawn, screenshotAtWidths } from "../support/page-checks.ts";
import { suitePages } from "../support/page-suites.ts";

const ARTIFACTS = path.resolve(import.meta.dirname, "../../test-artifacts/portal");
const STAFF = { kind: "staff", staffId: "stf_languages" } as const;

let sequence = 0;
const newEmail = (label: string) => `languages-${label}-${process.pid}-${++sequence}@example.com`;

describe("the buyer portal in the buyer's language (sqlite)", () => {
  let portal: PortalHarness;
  let browser: Browser;
  let services: Services;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    [portal, browser] = await Promise.all([startPortal("sqlite", { BUYER_PSEUDO_LOCALE: "on" }), launchBrowser()]);
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

  /** A page whose browser asks for `locale` (its Accept-Language and Intl). */
  const newPage = (locale: string) => openPage({ viewport: { width: 390, height: 844 }, locale, timezoneId: "UTC" });

  async function checkPage(page: Page, name: string) {
    await pageDrawn(page);
    assert.deepEqual(pageErrors, [], "no script errors");
    assert.deepEqual(await axeViolations({ page } as TestPage), [], `${name}: axe-core violations`);
    await screenshotAtWidths(page, (width) => path.join(ARTIFACTS, `languages-${name}-${width}.png`));
  }

  /** What is wider than the screen, or wider than its own box: nothing, on a page that takes long words. */
  const overflowing = (page: Page) =>
    page.evaluate(() => {
      const found: string[] = [];
      const root = document.documentElement;
      if (root.scrollWidth > window.innerWidth) found.push(`document ${root.scrollWidth} > ${window.innerWidth}`);
      for (const element of document.querySelectorAll<HTMLElement>("body *")) {
        const style = getComputedStyle(element);
        // Visually hidden on purpose: the skip link until focused, screen-reader-only text.
        if (element.closest(".skip, .sr-only") || style.display === "none") continue;
        const box = element.getBoundingClientRect();
        const name = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""}.${element.className}`;
        if (box.width > 0 && (box.right > window.innerWidth + 0.5 || box.left < -0.5))
          found.push(`${name} spans ${Math.round(box.left)}–${Math.round(box.right)}`);
        if (element.scrollWidth > element.clientWidth + 1 && element.clientWidth > 0 && style.overflowX !== "auto")
          found.push(`${name} holds ${element.scrollWidth} in ${element.clientWidth}`);
      }
      return found;
    });

  async function lookUp(page: Page, email: string, reference: string, submit: string) {
    await page.goto(url("/portal"));
    await page.fill("#email", email);
    await page.fill("#reference", reference);
    await Promise.all([page.waitForURL(/\/portal\/plan$/), page.click(`button:has-text('${submit}')`)]);
    await page.waitForSelector(".portal-merchant");
  }

  async function fileClaim(page: Page, reason: string, submit: string) {
    await page.goto(url("/portal/claims/new"));
    await pageDrawn(page);
    await page.selectOption("#reason", reason);
    await page.fill("#occurredAt", daysAgoUtc(0));
    await page.fill("#description", "Le bol est arrivé fêlé.");
    await page.fill("#amount", "25,50");
    await page.setInputFiles("#evidence", [{ name: "photo.png", mimeType: "image/png", buffer: PNG_BYTES }]);
    await Promise.all([
      page.waitForURL(/\/portal\/claims\/\d+\?notice=filed$/),
      page.click(`button:has-text('${submit}')`),
    ]);
    await page.waitForSelector(".notice");
    return Number(/\/portal\/claims\/(\d+)/.exec(page.url())![1]);
  }

  const claimIdOf = async (reference: string, number: number) =>
    (await portal.database.db.get<{ id: string }>(
      "SELECT c.id FROM claims c JOIN plans p ON p.id = c.plan_id WHERE p.reference_number = ? AND c.number = ?",
      [reference, number],
    ))!.id;

  it("a French browser: look up → coverage → a claim, its denial and an approval, all in French", async () => {
    const email = newEmail("fr");
    const reference = await portal.protect(email, { amountCents: 50_000 });
    await portal.backdate(reference, 3);
    const french = rulebookText("fr");
    const page = await newPage("fr-FR");
    await page.goto(url("/portal"));
    assert.equal(await page.getAttribute("html", "lang"), "fr-FR");
    assert.equal(await page.title(), "Retrouver votre protection · Protection d’achat");
    await checkPage(page, "fr-lookup");

    // A wrong address: the API's refusal in French.
    await page.fill("#email", "someone-else@example.com");
    await page.fill("#reference", reference);
    await page.click("button:has-text('Continuer')");
    await page.waitForSelector("text=Nous n’avons trouvé aucune protection");

    await lookUp(page, email, reference, "Continuer");
    const plan = (await page.textContent("main"))!;
    assert.match(plan, /Votre couverture/);
    assert.match(plan, /500,00\s\$US/, "money written as in France");
    assert.match(plan, new RegExp(french.reasonName("lost_in_transit")));
    assert.ok(plan.includes(french.claimWindowSummary()), "the rulebook's window in French");
    assert.ok(plan.includes(french.disclosure(COMPANY_NAME)), "the disclosure in French");
    assert.doesNotMatch(plan, /Your coverage|Report a problem/);
    await checkPage(page, "fr-plan");

    const first = await fileClaim(page, "damaged_in_transit", "Envoyer la demande");
    const detail = (await page.textContent("main"))!;
    assert.match(detail, new RegExp(`Demande ${first} sur ${reference}`));
    assert.match(detail, /25,50\s\$US/);
    assert.match(detail, new RegExp(french.reasonName("damaged_in_transit")));
    assert.match(detail, /Reçue/);
    await checkPage(page, "fr-claim-filed");

    // Decisions are stored in English; the buyer reads their code's sentence in French, the note as written.
    await portal.database.db.transaction(async (tx) =>
      denyClaim(tx, services, actor(), await claimIdOf(reference, first), STAFF, {
        code: "insufficient_evidence",
        note: "The photo does not show the crack.",
      }),
    );
    // The approval is a claim rule's: what it rested on is stored as facts, which the buyer reads in French.
    const second = await fileClaim(page, "missing_items", "Envoyer la demande");
    const rule = {
      kind: "rule",
      ruleId: "auto_approve",
      basis: [
        { fact: "within_cover", amountCents: 2_550, remainingCents: 50_000 },
        { fact: "delivered", at: Date.UTC(2026, 0, 11, 15, 30) },
      ],
    } as const;
    await portal.database.db.transaction(async (tx) =>
      approveClaim(tx, services, actor(), await claimIdOf(reference, second), rule, {}),
    );
    await page.goto(url(`/portal/claims/${first}`));
    const denied = (await page.textContent("main"))!;
    assert.ok(denied.includes(french.denial("insufficient_evidence")), denied);
    assert.match(denied, /The photo does not show the crack\./);
    assert.match(denied, /Refusée/);
    await checkPage(page, "fr-claim-denied");
    await page.goto(url(`/portal/claims/${second}`));
    const basis = (await page.textContent(".decision-basis"))!;
    assert.match(
      basis,
      /Vous avez demandé 25,50\s\$US, dans la limite de ce que votre protection couvre encore : 500,00\s\$US\./,
    );
    assert.match(basis, /Le transporteur a enregistré la livraison de votre colis le 11 janvier 2026\./);
    assert.match((await page.textContent("main"))!, /Sur quoi repose la décision/);
    assert.doesNotMatch(basis, /You asked for|The carrier/);
    await checkPage(page, "fr-claim-approved-by-rule");
    await page.goto(url("/portal/plan"));
    const decided = (await page.textContent("#claims-title + ul"))!;
    assert.ok(decided.includes(french.approval()), decided);
    assert.match(decided, /Acceptée : un remboursement de 25,50\s\$US\./);
    assert.match(decided, /vous rembourse directement d’ici le/, "who pays and by when, in French");
    assert.doesNotMatch(decided, /The information and files provided|What happened is covered/);
    await checkPage(page, "fr-plan-decided");

    await page.goto(url("/portal/terms"));
    const terms = (await page.textContent("main"))!;
    for (const sentence of [french.freeLook(), french.claimWindow(), french.denial("outside_claim_window")])
      assert.ok(terms.includes(sentence), sentence);
    assert.match(terms, /5 fichiers de 10 Mo au plus chacun/);
    await checkPage(page, "fr-terms");
  });

  it("an English browser switches to German: remembered on every page, <html lang> following, a claim filed in German", async () => {
    const email = newEmail("de");
    const reference = await portal.protect(email);
    // Within its 48 hours still (the cancel page is shown), bought two days ago (a claim about yesterday).
    await portal.backdate(reference, 1);
    const page = await newPage("en-US");
    await page.goto(url(`/portal?reference=${reference}`));
    assert.equal(await page.getAttribute("html", "lang"), "en-US");
    assert.equal(await page.textContent("h1"), "Find your protection");
    await pageDrawn(page);
    await page.selectOption("#portal-language", "de");
    await Promise.all([page.waitForURL(/\/portal\?reference=/), page.click("button:has-text('Change language')")]);
    await page.waitForSelector("h1:has-text('Ihren Schutz finden')");
    assert.equal(await page.getAttribute("html", "lang"), "de");
    assert.equal(await page.inputValue("#reference"), reference, "back on the page it was chosen on");
    assert.equal(await page.inputValue("#portal-language"), "de");

    await lookUp(page, email, reference, "Weiter");
    const plan = (await page.textContent("main"))!;
    assert.match(plan, /Ihr Schutz/);
    assert.match(plan, /120,00\s\$/, "money written the German way");
    assert.match(plan, /Haben Sie es sich anders überlegt\?/);
    await checkPage(page, "de-plan");
    await page.goto(url("/portal/cancel"));
    assert.match((await page.textContent("h1"))!, /Ihren Schutz kündigen/);
    await checkPage(page, "de-cancel");
    const number = await fileClaim(page, "arrived_defective", "Antrag senden");
    assert.match((await page.textContent("main"))!, new RegExp(`Antrag ${number} zu ${reference}`));
    await checkPage(page, "de-claim-filed");

    // A language not offered changes nothing; a way back outside the portal is refused.
    const form = await page.evaluate(async () => {
      const csrf = (document.querySelector("input[name=csrf]") as HTMLInputElement).value;
      const response = await fetch("/portal/language", {
        method: "POST",
        body: new URLSearchParams({ csrf, language: "tlh", back: "https://elsewhere.example/" }),
        redirect: "manual",
      });
      return response.type;
    });
    assert.equal(form, "opaqueredirect");
    await page.goto(url("/portal/plan"));
    assert.equal(await page.getAttribute("html", "lang"), "de");
  });

  it("the plan's recorded locale is the signed-in buyer's language, until they choose another", async () => {
    const email = newEmail("nl");
    const reference = await portal.protect(email);
    await portal.database.db.run("UPDATE plans SET locale = ? WHERE reference_number = ?", ["nl-NL", reference]);
    const page = await newPage("en-US");
    await lookUp(page, email, reference, "Continue");
    assert.equal(await page.textContent("h1"), "Uw dekking");
    assert.equal(await page.getAttribute("html", "lang"), "nl-NL");
    assert.match((await page.textContent("main"))!, /US\$\s?120,00/, "money as in the Netherlands");
    await checkPage(page, "nl-plan");
    await pageDrawn(page);
    await page.selectOption("#portal-language", "en");
    await Promise.all([page.waitForURL(/\/portal\/plan$/), page.click("button:has-text('Taal wijzigen')")]);
    await page.waitForSelector("h1:has-text('Your coverage')");
    assert.equal(await page.getAttribute("html", "lang"), "en-US");
  });

  it("the pseudo-locale renders every portal page at 390 px without overflow", async () => {
    const email = newEmail("pseudo");
    const reference = await portal.protect(email);
    await portal.backdate(reference, 1);
    const page = await newPage("en-XA");
    const link = await portal.coverageLink(reference);
    const pages: [string, string][] = [
      ["lookup", "/portal"],
      ["coverage-link", link.replace(/^https?:\/\/[^/]+/, "")],
      ["terms", "/portal/terms"],
    ];
    for (const [name, pathname] of pages) {
      await page.goto(url(pathname));
      await pageDrawn(page);
      assert.equal(await page.getAttribute("html", "lang"), "en-XA");
      assert.deepEqual(await overflowing(page), [], `${name}: nothing wider than 390 px`);
      await checkPage(page, `pseudo-${name}`);
    }
    const pseudo = portalMessages.in("en-XA");
    await lookUp(page, email, reference, pseudo("lookup.submit"));
    assert.equal(await page.textContent("h1"), pseudo("plan.title"));
    const visit = async (name: string, pathname: string) => {
      await page.goto(url(pathname));
      await pageDrawn(page);
      assert.equal(new URL(page.url()).pathname, pathname.split("?")[0], `${name} is shown, not redirected`);
      assert.deepEqual(await overflowing(page), [], `${name}: nothing wider than 390 px`);
      await checkPage(page, `pseudo-${name}`);
    };
    await visit("plan", "/portal/plan");
    await visit("cancel", "/portal/cancel");
    await visit("claim-new", "/portal/claims/new");
    const number = await fileClaim(page, "damaged_in_transit", pseudo("claim.submit"));
    await portal.database.db.transaction(async (tx) =>
      approveClaim(tx, services, actor(), await claimIdOf(reference, number), STAFF, { note: "Approved." }),
    );
    await visit("claim", `/portal/claims/${number}`);
    await visit("plan-decided", "/portal/plan");
    await visit("not-found", "/portal/claims/99");
    assert.equal(await page.textContent("h1"), pseudo("siteName"));
  });
});
