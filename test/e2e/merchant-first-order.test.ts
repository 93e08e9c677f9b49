// A new merchant's first minutes over the process `npm run demo` starts (docs/dashboard.md "Getting started as a merchant"), in
// Chromium: sign up at /dashboard/sign-up → the link from the .eml the demo writes to DATA_DIR/mail → the overview's
// getting-started checklist → test keys on API keys → the widget snippet copied from the checklist → pasted into a
// checkout page this test serves on another loopback origin → a buyer ticks and places the order there → the
// purchase on the dashboard's Purchases and the checklist's "first test order" ticked. The Developers page shows the
// merchant id and the program's id and terms. axe-core 0 violations, no sideways scroll, screenshots at 390/1280 px
// in test-artifacts/getting-started/ (looked at).
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { demoEnvironment, startDemo, type DemoProcess } from "../support/demo-process.ts";
import {
  clickNode,
  launchBrowser,
  openPage,
  waitForEvent,
  waitForRole,
  type TestPage,
} from "../support/widget/browser.ts";
import { checkPage, pageDrawn } from "../support/page-checks.ts";
import { waitFor } from "../support/wait.ts";

const SCREENSHOTS = path.resolve(import.meta.dirname, "../../test-artifacts/getting-started");

/** The checkout page a merchant writes, with the snippet pasted into its form beside the e-mail field. */
const checkoutPage = (snippet: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Checkout</title></head>
<body><main>
<h1>Checkout</h1>
<form id="checkout" method="post" action="/placed">
  <label for="email">E-mail</label>
  <input id="email" name="email" type="email" autocomplete="email">
  ${snippet}
  <button id="place-order" type="submit">Place order</button>
</form>
</main></body></html>`;

/** A tiny shop on its own loopback origin: the checkout with the pasted snippet, and the page after placing. */
async function startShop(snippet: () => string) {
  const placed: string[] = [];
  const server = http.createServer((request, response) => {
    if (request.method === "POST" && request.url === "/placed") {
      let body = "";
      request.on("data", (chunk) => (body += chunk));
      request.on("end", () => {
        placed.push(body);
        response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
        response.end('<!doctype html><html lang="en"><title>Thanks</title><main><h1>Order placed</h1></main></html>');
      });
      return;
    }
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    response.end(checkoutPage(snippet()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    placed,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The sign-up link in the newest .eml to `address` (quoted-printable soft breaks joined). */
function signUpLinkIn(mailDir: string, address: string): string | undefined {
  if (!fs.existsSync(mailDir)) return undefined;
  for (const file of fs.readdirSync(mailDir).sort().reverse()) {
    const text = fs.readFileSync(path.join(mailDir, file), "utf8").replace(/=\r?\n/g, "");
    if (!text.includes(address)) continue;
    const link = /https?:\/\/[^\s"<>]+\/dashboard\/sign-up\/[A-Za-z0-9_-]{43}/.exec(text)?.[0];
    if (link) return link;
  }
  return undefined;
}

describe("a new merchant's first order over `npm run demo` (Chromium)", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-first-order-"));
  let demo: DemoProcess;
  let browser: Browser;
  let merchant: TestPage;
  let shop: Awaited<ReturnType<typeof startShop>>;
  let pastedSnippet = "";

  beforeAll(async () => {
    fs.rmSync(SCREENSHOTS, { recursive: true, force: true });
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    [demo, browser] = await Promise.all([startDemo(demoEnvironment(dir)), launchBrowser()]);
    merchant = await openPage(browser);
    await merchant.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: demo.origin });
    shop = await startShop(() => pastedSnippet);
  }, 300_000);
  afterAll(async () => {
    await merchant?.close().catch(() => undefined);
    await browser?.close();
    demo?.stop();
    await shop?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const check = (page: Page, name: string) =>
    checkPage(page, name, { dir: SCREENSHOTS, pageErrors: merchant.pageErrors });

  /** Whether the checklist shows the step ticked (its mark, and the heading's hidden "(done)"). */
  const stepDone = async (page: Page, title: string) => {
    const step = page.locator("li.checklist-step", { has: page.locator(`h3:has-text("${title}")`) });
    return (await step.getAttribute("data-step-done")) === "true" && (await step.innerText()).includes("(done)");
  };

  const owner = `owner-${Date.now()}@harbour-lane.example`;

  it("signs up: the page says where the link went; the .eml's link opens the account on the checklist", async () => {
    const { page } = merchant;
    await page.goto(`${demo.origin}/dashboard/sign-up`);
    await pageDrawn(page);
    await page.fill("input[name=email]", owner);
    await page.fill("input[name=businessName]", "Harbour Lane Ceramics");
    await Promise.all([
      page.waitForURL(/\/dashboard\/sign-up\?notice=sent/),
      page.click("button:has-text('E-mail me a link to open the account')"),
    ]);
    await page.waitForSelector(`text=We sent a link to ${owner}. Open it to continue.`);
    await check(page, "sign-up-sent");

    const link = await waitFor(() => signUpLinkIn(path.join(dir, "mail"), owner), {
      timeoutMs: 20_000,
      intervalMs: 100,
      what: "the sign-up e-mail in DATA_DIR/mail",
    });
    assert.ok(link.startsWith(demo.origin), `the link points at the demo: ${link}`);
    await page.goto(link);
    await Promise.all([page.waitForURL(`${demo.origin}/dashboard`), page.click("button:has-text('Open the account')")]);
    await pageDrawn(page);
    await page.waitForSelector("h2:has-text('Get started')");
    assert.ok(await page.isVisible("text=1 of 6 steps done"));
    assert.equal(await stepDone(page, "Your protection program"), true);
    for (const step of ["Create your test keys", "Show the offer at your checkout", "Place a first test order"])
      assert.equal(await stepDone(page, step), false, `${step}: not yet`);
    const programId = (await page.innerText("[data-snippet=program-id]")).trim();
    assert.match(programId, /^prog_/);
    assert.match(await page.innerText("[data-snippet=widget]"), /publishable-key="wk_test_YOUR_PUBLISHABLE_KEY"/);
    await check(page, "checklist-new");
  });

  it("test keys minted on API keys tick the first step and fill the snippets; the copy button copies them", async () => {
    const { page } = merchant;
    await page.click("a:has-text('API keys')");
    await page.waitForURL(`${demo.origin}/dashboard/developers/keys`);
    await pageDrawn(page);
    const minted: string[] = [];
    for (const kind of ["publishable", "secret"]) {
      await page.selectOption("select[name=kind]", kind);
      await page.selectOption("select[name=mode]", "test");
      await page.click("button:has-text('Mint the key')");
      const shown = page.locator(`input[value^="${kind === "publishable" ? "wk_test_" : "mch_test_"}"]`);
      await shown.waitFor();
      minted.push(await shown.inputValue());
    }
    const [publishableKey] = minted;

    await page.goto(`${demo.origin}/dashboard`);
    await pageDrawn(page);
    assert.equal(await stepDone(page, "Create your test keys"), true);
    assert.ok(await page.isVisible("text=2 of 6 steps done"));
    const programId = (await page.innerText("[data-snippet=program-id]")).trim();
    const widget = await page.innerText("[data-snippet=widget]");
    assert.ok(widget.includes(`publishable-key="${publishableKey}"`), widget);
    assert.ok(widget.includes(`program-id="${programId}"`), widget);
    assert.ok(widget.includes(`src="${demo.origin}/widget/v1/service-widget.js"`), "an absolute script URL");
    await page.click("summary:has-text('Or quote from your server')");
    for (const snippet of ["typescript", "php", "curl"]) {
      const text = await page.innerText(`[data-snippet=${snippet}]`);
      assert.ok(text.includes(programId) && text.includes(`${demo.origin}/api/v1`), `${snippet}: ids filled in`);
      assert.ok(!minted.some((key) => text.includes(key)), `${snippet}: no key's value in it`);
    }

    // The copy button puts exactly the text shown on the clipboard (a plain clipboard call, no App Bridge).
    await page.getByRole("button", { name: "Copy the widget snippet" }).click();
    await page.waitForSelector("text=Copied.");
    pastedSnippet = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(pastedSnippet, widget);
    await check(page, "checklist-keys");
  });

  it("a buyer ticks and places the order on the merchant's own page; the purchase and the tick follow", async () => {
    const buyer = await openPage(browser);
    try {
      await buyer.page.goto(`${shop.origin}/`);
      await buyer.page.fill("#email", "ada@example.com");
      await waitForEvent(buyer, "offer");
      await clickNode(buyer, await waitForRole(buyer, "checkbox", /purchase protection/i));
      await Promise.all([buyer.page.waitForURL(`${shop.origin}/placed`), buyer.page.click("#place-order")]);
      // The widget held the submit while it confirmed, then let it through once (the plan is checked on Purchases).
      assert.equal(shop.placed.length, 1, "the shop's form was submitted once");
      assert.match(shop.placed[0], /email=ada%40example\.com/);
    } finally {
      await buyer.close();
    }

    const { page } = merchant;
    await page.goto(`${demo.origin}/dashboard`);
    await pageDrawn(page);
    assert.equal(await stepDone(page, "Show the offer at your checkout"), true);
    assert.equal(await stepDone(page, "Place a first test order"), true);
    assert.ok(await page.isVisible("text=4 of 6 steps done"));
    await check(page, "checklist-first-order");

    await page.click("nav a:has-text('Purchases')");
    await page.waitForURL(`${demo.origin}/dashboard/purchases`);
    await pageDrawn(page);
    await page.waitForSelector("text=order-1042");
    await check(page, "purchases");
  });

  it("the Developers page shows the merchant id, the program's id and terms, the API base and webhook signing", async () => {
    const { page } = merchant;
    await page.goto(`${demo.origin}/dashboard`);
    await pageDrawn(page);
    const programId = (await page.innerText("[data-snippet=program-id]")).trim();
    await page.click("nav a:has-text('Developers')");
    await page.waitForURL(`${demo.origin}/dashboard/developers`);
    await pageDrawn(page);
    assert.equal(await page.getAttribute("nav a[aria-current=page]", "href"), "/dashboard/developers");
    assert.match(await page.innerText("[data-value=merchant-id]"), /^mer_/);
    assert.equal(await page.innerText("[data-value=api-base]"), `${demo.origin}/api/v1`);
    assert.equal(await page.innerText("[data-value=program-id]"), programId);
    const text = await page.innerText("main");
    for (const fact of ["3 % of the covered amount", "$1.00", "$5,000.00", "X-Service-Signature", "verifyWebhook"])
      assert.ok(text.includes(fact), `shows ${fact}`);
    await page.getByRole("button", { name: "Copy the merchant id" }).click();
    assert.equal(
      await page.evaluate(() => navigator.clipboard.readText()),
      await page.innerText("[data-value=merchant-id]"),
    );
    await check(page, "developers");

    // On API keys, the navigation marks API keys, not Developers as well.
    await page.click("main a:has-text('API keys')");
    await page.waitForURL(`${demo.origin}/dashboard/developers/keys`);
    assert.deepEqual(
      await page.locator("nav a[aria-current=page]").evaluateAll((links) => links.map((a) => a.getAttribute("href"))),
      ["/dashboard/developers/keys"],
    );
  });
});
