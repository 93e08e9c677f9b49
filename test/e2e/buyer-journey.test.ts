// The buyer's whole journey over the process `npm run demo` starts, as a newcomer runs it, with its e-mail going
// to a real SMTP server: the storefront's checkout (/demo) → tick the offer → place the order → the welcome e-mail
// (a document with one button) → its button signs the buyer in to the portal → a claim with a photo → the claim's
// e-mail lands on that claim; the thank-you view's link opens the look-up with the reference filled in; "No thanks"
// places an unprotected order. On a 390 px phone, axe-core 0 violations on every page, every request same-origin,
// no internal id (clm_, qt_, plan_) in what the buyer reads. Screenshots go to test-artifacts/journey/ (looked at).
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { REFERENCE_NUMBER_PATTERN } from "@purchase-protection/contract";
import { demoEnvironment, startDemo, type DemoProcess } from "../support/demo-process.ts";
import { startSmtpServer, type Received, type TestSmtpServer } from "../email/smtp-server.ts";
import {
  axeViolations,
  clickNode,
  documentScrollWidth,
  launchBrowser,
  openPage,
  waitForEvent,
  waitForRole,
  type TestPage,
} from "../support/widget/browser.ts";
import { waitFor } from "../support/wait.ts";

const SCREENSHOTS = path.resolve(import.meta.dirname, "../../test-artifacts/journey");
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
/** The ids the service makes for itself: a buyer never reads one. */
const INTERNAL_ID = /\b(clm|qt|plan|ord|evd|mch)_[0-9a-z]{6,}/;
/** A 1×1 PNG: the claim's photo. */
const PHOTO = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

describe("the buyer's journey over `npm run demo` (Chromium, real SMTP)", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-journey-"));
  let smtp: TestSmtpServer;
  let demo: DemoProcess;
  let browser: Browser;
  let origin = "";
  let secretKey = "";
  const tabs: TestPage[] = [];

  beforeAll(async () => {
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    smtp = await startSmtpServer();
    [demo, browser] = await Promise.all([startDemo(demoEnvironment(dir, { SMTP_URL: smtp.url })), launchBrowser()]);
    origin = demo.origin;
    secretKey = demo.output.match(/mch_test_[0-9A-Za-z]{32}/)![0];
  }, 300_000);
  afterAll(async () => {
    await Promise.all(tabs.map((tab) => tab.close().catch(() => undefined)));
    await browser?.close();
    demo?.stop();
    await smtp?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function open(url: string, viewport = PHONE): Promise<TestPage> {
    const tab = await openPage(browser);
    tabs.push(tab);
    await tab.page.setViewportSize(viewport);
    await tab.page.goto(url);
    return tab;
  }

  /** The page as the buyer sees it: accessible, no sideways scroll, no internal id, nothing from another host. */
  async function assertBuyerPage(tab: TestPage, name: string) {
    assert.deepEqual(await axeViolations(tab), [], `${name}: axe-core`);
    const viewport = tab.page.viewportSize()!;
    assert.ok((await documentScrollWidth(tab)) <= viewport.width, `${name}: no sideways scroll`);
    assert.doesNotMatch(await tab.page.innerText("body"), INTERNAL_ID, `${name}: no internal id`);
    const foreign = tab.requests.filter(
      (request) => !request.url.startsWith(origin) && !request.url.startsWith("data:"),
    );
    assert.deepEqual(foreign, [], `${name}: every request goes to the app`);
    await tab.page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${viewport.width}.png`), fullPage: true });
  }

  /** The e-mail to `to` whose subject names the reference, once the demo's worker has sent it. */
  const mailFor = (to: string, subject: RegExp) =>
    waitFor(
      () => smtp.received.find((message) => message.to.includes(to) && subject.test(message.mail.subject ?? "")),
      {
        what: `an e-mail to ${to} matching ${subject}`,
        timeoutMs: 30_000,
      },
    );

  /** The one button of an e-mail: its link into the portal. */
  function buttonLink(message: Received): string {
    const html = String(message.mail.html);
    const links = [...html.matchAll(/href="([^"]+\/coverage\/[^"]+)"/g)].map((match) =>
      match[1].replaceAll(/&(amp|#38);/g, "&"),
    );
    assert.ok(links.length > 0, "the e-mail links into the portal");
    assert.ok(message.mail.text?.includes(links[0]), "the text part carries the same link");
    return links[0];
  }

  /** The page (once rendered: a Remix navigation changes the URL first) says `text`. */
  const shows = (tab: TestPage, text: string) =>
    waitFor(async () => (await tab.page.innerText("body")).includes(text), { what: `the page to say ${text}` });

  /** Follows a coverage link: the page's one button signs the buyer in. */
  async function followCoverageLink(tab: TestPage) {
    await tab.page.getByRole("button", { name: /open my coverage/i }).click();
    await tab.page.waitForURL(/\/portal\/(plan|claims\/)/);
  }

  let buyerEmail = "";
  let referenceNumber = "";
  /** The thank-you view's link to the buyer's coverage. */
  let coverageLink = "";

  it("tick → place: the thank-you view shows the reference and the welcome e-mail arrives with one button", async () => {
    const tab = await open(`${origin}/demo`);
    await waitForEvent(tab, "offer");
    buyerEmail = await tab.page.inputValue("#email");
    assert.match(buyerEmail, /@/);
    await clickNode(tab, await waitForRole(tab, "checkbox", /purchase protection/i));
    await assertBuyerPage(tab, "storefront-offer");
    await tab.page.click("#place-order");
    await waitFor(() => tab.page.isVisible("#confirmation"), { what: "the thank-you view" });
    referenceNumber = await tab.page.innerText("#reference");
    assert.match(referenceNumber, REFERENCE_NUMBER_PATTERN);
    coverageLink = (await tab.page.getAttribute("#coverage-link", "href"))!;
    await assertBuyerPage(tab, "storefront-thank-you");

    const welcome = await mailFor(buyerEmail, new RegExp(referenceNumber));
    assert.match(String(welcome.mail.html), /<meta name="viewport"/i, "a responsive document");
    assert.ok(welcome.mail.text?.includes(referenceNumber));
    assert.doesNotMatch(welcome.mail.text ?? "", INTERNAL_ID);
    assert.doesNotMatch(String(welcome.mail.html), INTERNAL_ID);

    // The e-mail as a phone shows it: no sideways scroll, the button above the fold.
    const mail = await open("about:blank");
    await mail.page.setContent(String(welcome.mail.html));
    assert.ok((await documentScrollWidth(mail)) <= PHONE.width, "the e-mail fits a phone");
    const button = mail.page.locator(`a[href*="/coverage/"]`).first();
    const box = (await button.boundingBox())!;
    assert.ok(box.y + box.height <= PHONE.height, `the button is above the fold (at ${box.y} px)`);
    await mail.page.screenshot({ path: path.join(SCREENSHOTS, `welcome-email-${PHONE.width}.png`), fullPage: true });

    const portal = await open(buttonLink(welcome));
    await followCoverageLink(portal);
    await shows(portal, referenceNumber);
    await assertBuyerPage(portal, "portal-plan");
  });

  it("files a claim with a photo; the claim's e-mail lands on that claim", async () => {
    assert.ok(referenceNumber, "the first step placed a protected order");
    const welcome = smtp.received.find((message) => message.to.includes(buyerEmail))!;
    const tab = await open(buttonLink(welcome));
    await followCoverageLink(tab);
    await tab.page
      .getByRole("link", { name: /request a refund|ask for a refund|report a problem/i })
      .first()
      .click();
    await tab.page.waitForURL(/\/portal\/claims\/new/);
    await tab.page.getByLabel(/what happened/i).selectOption({ label: "Damaged in transit" });
    await tab.page.getByLabel(/when did it happen/i).fill(new Date().toISOString().slice(0, 10));
    await tab.page.getByLabel(/describe the problem/i).fill("The vase arrived in pieces; the box was crushed.");
    await tab.page.getByLabel(/amount to refund/i).fill("$12.99");
    await tab.page.getByLabel(/photo/i).setInputFiles({ name: "vase.png", mimeType: "image/png", buffer: PHOTO });
    await assertBuyerPage(tab, "portal-claim-form");
    await tab.page.getByRole("button", { name: /send request/i }).click();
    await tab.page.waitForURL(/\/portal\/claims\/(?!new)/);
    await shows(tab, `Claim 1 on ${referenceNumber}`);
    assert.ok((await tab.page.innerText("body")).includes("$12.99"), "the amount as it was typed");
    await assertBuyerPage(tab, "portal-claim");

    const received = await mailFor(buyerEmail, /received|request/i);
    assert.ok(received.mail.text?.includes(`claim 1 on ${referenceNumber}`));
    const link = buttonLink(received);
    assert.match(link, /[?&]claim=1\b/, "the link names the claim");
    const fromMail = await open(link);
    await followCoverageLink(fromMail);
    assert.match(fromMail.page.url(), /\/portal\/claims\//, "the e-mail's link lands on the claim");
    await shows(fromMail, `Claim 1 on ${referenceNumber}`);
  });

  it("the thank-you view's link opens the look-up with the reference filled in", async () => {
    assert.ok(referenceNumber, "the first step placed a protected order");
    assert.equal(new URL(coverageLink).pathname, `/portal/coverage/${referenceNumber}`);
    const tab = await open(coverageLink, DESKTOP);
    assert.equal(
      await tab.page
        .getByLabel(/reference/i)
        .first()
        .inputValue(),
      referenceNumber,
    );
    await tab.page
      .getByLabel(/e-mail/i)
      .first()
      .fill(buyerEmail);
    await assertBuyerPage(tab, "portal-lookup");
    await tab.page.getByRole("button", { name: /continue/i }).click();
    await tab.page.waitForURL(/\/portal\/plan/);
    await shows(tab, referenceNumber);
    await assertBuyerPage(tab, "portal-plan");
  });

  it("No thanks → place: the order is placed without protection, calmly", async () => {
    const tab = await open(`${origin}/demo`, DESKTOP);
    await waitForEvent(tab, "offer");
    const orderId = await tab.page.getAttribute("service-widget", "order-id");
    await clickNode(tab, await waitForRole(tab, "button", /no thanks/i));
    await tab.page.click("#place-order");
    await waitFor(() => tab.page.isVisible("#confirmation"), { what: "the thank-you view" });
    assert.equal(await tab.page.isVisible("#protected-note"), false);
    assert.equal(await tab.page.innerText("#order-error"), "");
    await assertBuyerPage(tab, "storefront-declined");
    const purchases = await fetch(`${origin}/api/v1/purchases?order_id=${encodeURIComponent(orderId!)}`, {
      headers: { Authorization: `Bearer ${secretKey}` },
    });
    assert.deepEqual((await purchases.json()).data, [], "no plan for the declined order");
  });
});
