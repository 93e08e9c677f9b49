// /demo: the sample checkout page (server/demo-page.ts) as the standalone server composes it — widget assets, the
// demo page with its strict CSP and nonce, the API — opened in Chromium as a buyer would use it: the total follows
// the protection choice (the fee once, in the contract's money format), "Place order" submits the checkout form the
// widget is bound to — the widget confirms the plan for the form's contact e-mail, then the order is placed — and the
// thank-you view shows the reference number, links to the buyer's coverage page and says the e-mail is on its way;
// "No thanks" can be taken back until the order is placed and never blocks it; an API that is down leaves the order
// placeable and the page calm; the ids and event log stay behind a closed "Developer" toggle, and it fits a 390 px
// phone. Screenshots at 390 and 1280 px go to test-results/demo/ (looked at by hand).
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { formatMoney, REFERENCE_NUMBER_PATTERN } from "@purchase-protection/contract";
import { listen } from "../../../test/support/widget/stack.ts";
import {
  axeViolations,
  clickNode,
  documentScrollWidth,
  findByRole,
  openPage,
  waitForEvent,
  waitForRole,
  type TestPage,
} from "../../../test/support/widget/browser.ts";
import { waitFor } from "../../../test/support/wait.ts";
import { chromiumSuite } from "../../../test/support/widget/suite.ts";
import { createServerApp } from "../../../server/server-app.ts";
import { DEMO_PATH } from "../../../server/demo-page.ts";

const usd = (minor: number) => formatMoney(minor, "USD", "en-US");
/** The demo buyer's contact address, as the checkout form is filled in. */
const BUYER_EMAIL = "alex.morgan@example.com";
const SCREENSHOTS = path.resolve(import.meta.dirname, "../../../test-artifacts/demo");

/** An amount the page shows: its minor units (data-amount) and its text. */
const amountOf = (tab: TestPage, id: string) =>
  tab.page.$eval(`#${id}`, (element) => ({
    minor: Number((element as HTMLElement).dataset.amount),
    text: element.textContent,
  }));

describe("/demo storefront page (Chromium)", () => {
  const suite = chromiumSuite();
  let app: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    const { api } = suite.stack;
    const { publishableKey, programId, secretKey } = api.merchant;
    const { portalUrl } = api.services.settings;
    app = await listen(
      createServerApp({ api: api.api, demoKeys: async () => ({ publishableKey, programId, secretKey, portalUrl }) })
        .fetch,
    );
  });
  afterAll(() => app?.close());

  async function openDemo(viewport?: { width: number; height: number }) {
    const tab = await openPage(suite.browser);
    if (viewport) await tab.page.setViewportSize(viewport);
    const response = await tab.page.goto(app.origin + DEMO_PATH);
    assert.match(response!.headers()["content-security-policy"], /script-src 'self' 'nonce-/);
    const [offer] = await waitForEvent(tab, "offer");
    return { tab, offer: offer.detail as { quoteId: string; feeCents: number } };
  }

  const planCount = async () =>
    Number((await suite.stack.api.database.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM plans"))!.n);

  const toggleProtection = async (tab: TestPage) =>
    clickNode(tab, await waitForRole(tab, "checkbox", /purchase protection/i));

  /** Places the order and waits for the thank-you view; with protection, returns the reference number shown. */
  async function placeOrder(tab: TestPage, protectedOrder: boolean): Promise<string> {
    await tab.page.click("#place-order");
    await waitFor(() => tab.page.isVisible("#confirmation"), { what: "the thank-you view" });
    assert.equal(await tab.page.innerText("#order-error"), "", "no error shown");
    assert.equal(await tab.page.isVisible("#protected-note"), protectedOrder);
    return protectedOrder ? tab.page.innerText("#reference") : "";
  }

  /** The buyer's portal look-up with the address the page shows and the reference: the plan can be reached. */
  const lookUp = (body: { email: string; referenceNumber?: string; orderNumber?: string }) =>
    fetch(`${app.origin}/api/v1/portal/lookup`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });

  /** The thank-you view of a protected order: the reference, the coverage link, the e-mail on its way. */
  async function assertProtectedThankYou(tab: TestPage, reference: string) {
    assert.match(reference, REFERENCE_NUMBER_PATTERN);
    const link = await tab.page.getAttribute("#coverage-link", "href");
    assert.equal(link, `${suite.stack.api.services.settings.portalUrl}/coverage/${reference}`);
    assert.match(await tab.page.innerText("#protected-note"), new RegExp(`on its way to ${BUYER_EMAIL}`));
    const note = await tab.page.innerText("#confirmation");
    assert.doesNotMatch(note, /\b(qt|quo|plan|clm)_/, "no internal id");
    const lookup = await lookUp({ email: BUYER_EMAIL, referenceNumber: reference });
    assert.equal(lookup.status, 200, `the plan holds the buyer's address: ${await lookup.clone().text()}`);
    // The store's order number the thank-you view names finds it too (the widget's order-name).
    const orderNumber = await tab.page.innerText("#order-name");
    assert.match(orderNumber, /^#\d+$/);
    const byOrder = await lookUp({ email: BUYER_EMAIL, orderNumber });
    assert.equal(byOrder.status, 200, await byOrder.clone().text());
    assert.equal(((await byOrder.json()) as { plan: { referenceNumber: string } }).plan.referenceNumber, reference);
  }

  it("opting in adds the fee to the total once, opting out drops it; placing the order shows the reference number", async () => {
    const { tab, offer } = await openDemo();
    const plansBefore = await planCount();
    try {
      const subtotal = await amountOf(tab, "subtotal");
      assert.equal(subtotal.text, usd(subtotal.minor));
      assert.deepEqual(await amountOf(tab, "total"), subtotal);
      assert.equal(await tab.page.isVisible("#protection-row"), false);

      await toggleProtection(tab);
      await waitForEvent(tab, "choice");
      const fee = await amountOf(tab, "protection-fee");
      assert.equal(fee.minor, offer.feeCents);
      assert.equal(fee.text, usd(fee.minor));
      assert.ok(await tab.page.isVisible("#protection-row"));
      assert.deepEqual(await amountOf(tab, "total"), {
        minor: subtotal.minor + fee.minor,
        text: usd(subtotal.minor + fee.minor),
      });
      // The widget's own label names the same price.
      await waitForRole(tab, "checkbox", new RegExp(`purchase protection for \\${fee.text}$`, "i"));

      await toggleProtection(tab);
      await waitForEvent(tab, "choice", 2);
      assert.deepEqual(await amountOf(tab, "total"), subtotal);
      assert.equal(await tab.page.isVisible("#protection-row"), false);

      await toggleProtection(tab);
      await waitForEvent(tab, "choice", 3);
      assert.equal((await amountOf(tab, "total")).minor, subtotal.minor + fee.minor);
      assert.equal(await planCount(), plansBefore, "ticking confirms nothing");
      await tab.page.click("#place-order");
      const reference = await waitFor(
        async () => (await tab.page.isVisible("#reference")) && tab.page.innerText("#reference"),
        {
          what: "the reference number on the confirmation",
        },
      );
      await assertProtectedThankYou(tab, reference);
      // The widget confirmed it when the form was submitted (one plan, its accepted event), not the server.
      const [accepted] = await waitForEvent(tab, "accepted");
      assert.equal(accepted.detail.referenceNumber, reference);
      assert.equal(await planCount(), plansBefore + 1, "exactly one plan");
      assert.ok(tab.requests.some((r) => r.method === "POST" && r.url.endsWith("/api/v1/offers/confirm")));
      assert.equal(await tab.page.isVisible("#place-order"), false);
      assert.deepEqual(await amountOf(tab, "total"), {
        minor: subtotal.minor + fee.minor,
        text: usd(subtotal.minor + fee.minor),
      });

      // The plan is real: the merchant sees it.
      const purchases = await fetch(`${app.origin}/api/v1/purchases`, {
        headers: { Authorization: `Bearer ${suite.stack.api.merchant.secretKey}` },
      });
      assert.ok((await purchases.text()).includes(reference), "the merchant's purchases list the reference number");

      // No developer clutter on the page itself: ids and the event log are behind the closed "Developer" toggle.
      assert.equal(await tab.page.$eval("#developer", (details) => (details as HTMLDetailsElement).open), false);
      const visible = await tab.page.innerText("body");
      assert.ok(!visible.includes(offer.quoteId), "no quote id on the page");
      assert.doesNotMatch(visible, /demo-[0-9a-f]{8}-|\{"/);
      assert.equal(await tab.page.isVisible("#events"), false);
      await tab.page.click("#developer summary");
      assert.ok(await tab.page.isVisible("#events"));
      assert.ok((await tab.page.innerText("#events")).includes(reference));
      assert.ok((await tab.page.innerText("#developer")).includes(offer.quoteId));

      assert.deepEqual(tab.pageErrors, []);
      assert.deepEqual(tab.console, []);
    } finally {
      await tab.close();
    }
  });

  it("placing the order without protection declines the quote: the total is the subtotal, no reference number", async () => {
    const { tab, offer } = await openDemo();
    try {
      await tab.page.click("#place-order");
      await waitFor(() => tab.page.isVisible("#confirmation"), { what: "the confirmation" });
      assert.equal(await tab.page.isVisible("#protected-note"), false);
      assert.deepEqual(await amountOf(tab, "total"), await amountOf(tab, "subtotal"));
      // The API agrees: the quote was declined, so it can no longer be confirmed.
      const confirm = await fetch(`${app.origin}/api/v1/headless/confirm`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${suite.stack.api.merchant.secretKey}`,
          "Content-Type": "application/json",
          "Idempotency-Key": `test-${crypto.randomUUID()}`,
        },
        body: JSON.stringify({ quote_id: offer.quoteId }),
      });
      assert.equal(confirm.status, 409);
      assert.equal((await confirm.json()).error.code, "quote_declined");
    } finally {
      await tab.close();
    }
  });

  it('tick, "No thanks", then "Place order": the order is placed without protection (the widget already declined the quote)', async () => {
    const { tab, offer } = await openDemo();
    const plansBefore = await planCount();
    try {
      await toggleProtection(tab);
      await waitForEvent(tab, "choice");
      await clickNode(tab, await waitForRole(tab, "button", /no thanks/i));
      await waitForEvent(tab, "declined");
      assert.deepEqual(await amountOf(tab, "total"), await amountOf(tab, "subtotal"), "the fee is dropped");
      await placeOrder(tab, false);
      assert.deepEqual(await amountOf(tab, "total"), await amountOf(tab, "subtotal"));
      assert.equal(await planCount(), plansBefore, "no plan");
      const quote = await suite.stack.api.database.db.get<{ status: string }>(
        "SELECT status FROM quotes WHERE id = ?",
        [offer.quoteId],
      );
      assert.equal(quote?.status, "declined");
    } finally {
      await tab.close();
    }
  });

  it('"No thanks", then ticking again, then "Place order": one plan, on a fresh quote, for the address the page shows', async () => {
    const { tab, offer } = await openDemo();
    const plansBefore = await planCount();
    try {
      await clickNode(tab, await waitForRole(tab, "button", /no thanks/i));
      await waitForEvent(tab, "declined");
      await toggleProtection(tab);
      const [, fresh] = await waitForEvent(tab, "offer", 2);
      assert.notEqual(fresh.detail.quoteId, offer.quoteId);
      await waitForEvent(tab, "choice");
      const subtotal = await amountOf(tab, "subtotal");
      assert.equal((await amountOf(tab, "total")).minor, subtotal.minor + offer.feeCents, "the fee is back, once");
      const reference = await placeOrder(tab, true);
      await assertProtectedThankYou(tab, reference);
      assert.equal(await planCount(), plansBefore + 1, "exactly one plan");
      const [accepted] = await waitForEvent(tab, "accepted");
      assert.deepEqual(accepted.detail, { quoteId: fresh.detail.quoteId, referenceNumber: reference });
      assert.deepEqual(tab.pageErrors, []);
    } finally {
      await tab.close();
    }
  });

  it("the API down: before the offer (none shown) or when the order is placed (the confirm fails), the order is placed without protection and no error is shown", async () => {
    const plansBefore = await planCount();
    // Down from the start: the quote never answers, nothing is offered.
    const tab = await openPage(suite.browser);
    try {
      await tab.page.route("**/api/v1/offers/**", (route) => route.abort("connectionrefused"));
      await tab.page.goto(app.origin + DEMO_PATH);
      const [unavailable] = await waitForEvent(tab, "unavailable");
      assert.deepEqual(unavailable.detail, { reason: "network" });
      assert.equal(await findByRole(tab, "checkbox", /purchase protection/i), undefined);
      await placeOrder(tab, false);
      assert.deepEqual(tab.pageErrors, []);
    } finally {
      await tab.close();
    }
    // Down when the order is placed: the widget's confirm answers 503; the order goes on, the offer goes away.
    const { tab: late } = await openDemo();
    try {
      await toggleProtection(late);
      await waitForEvent(late, "choice");
      await late.page.route("**/api/v1/offers/confirm", (route) =>
        route.fulfill({
          status: 503,
          contentType: "application/json",
          body: '{"error":{"code":"service_unavailable"}}',
        }),
      );
      await placeOrder(late, false);
      const [unavailable] = await waitForEvent(late, "unavailable");
      assert.deepEqual(unavailable.detail, { reason: "service_unavailable" });
      assert.deepEqual(late.pageErrors, []);
      const shown = await late.page.innerText("body");
      assert.doesNotMatch(shown, /could not|error|failed|try again/i, "no error text");
    } finally {
      await late.close();
    }
    assert.equal(await planCount(), plansBefore, "no plan");
  });

  it("screenshots at 390 and 1280 px: the checkout with the offer, and the thank-you view of a protected order", async () => {
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    for (const width of [390, 1280]) {
      const { tab } = await openDemo({ width, height: 900 });
      try {
        await waitForRole(tab, "link", /see what is covered/i);
        await tab.page.screenshot({ path: path.join(SCREENSHOTS, `checkout-${width}.png`), fullPage: true });
        await toggleProtection(tab);
        await waitForEvent(tab, "choice");
        await placeOrder(tab, true);
        await tab.page.screenshot({ path: path.join(SCREENSHOTS, `thank-you-${width}.png`), fullPage: true });
        assert.ok((await documentScrollWidth(tab)) <= width);
      } finally {
        await tab.close();
      }
    }
  });

  it("the offer appears without moving the page at 1280, 700, 390 and 360 px: its box is reserved (no layout shift)", async () => {
    for (const width of [1280, 700, 390, 360]) {
      const { tab } = await openDemo({ width, height: 900 });
      try {
        assert.deepEqual((await tab.observed()).shifts, [], `layout shifts at ${width} px`);
      } finally {
        await tab.close();
      }
    }
  });

  it("fits a 390 px phone without horizontal overflow: checkout, developer panel open, confirmation", async () => {
    const { tab } = await openDemo({ width: 390, height: 844 });
    try {
      assert.ok((await documentScrollWidth(tab)) <= 390, `checkout: scrollWidth ${await documentScrollWidth(tab)}`);
      await tab.page.click("#developer summary");
      await toggleProtection(tab);
      await waitForEvent(tab, "choice");
      await tab.page.click("#place-order");
      await waitFor(() => tab.page.isVisible("#reference"), { what: "the reference number" });
      assert.ok((await documentScrollWidth(tab)) <= 390, `confirmation: scrollWidth ${await documentScrollWidth(tab)}`);
    } finally {
      await tab.close();
    }
  });

  it("has no axe-core violations: checkout, after No thanks, opted in again with the developer panel open, confirmation", async () => {
    const { tab } = await openDemo();
    try {
      assert.deepEqual(await axeViolations(tab), [], "checkout");
      await clickNode(tab, await waitForRole(tab, "button", /no thanks/i));
      await waitForEvent(tab, "declined");
      assert.deepEqual(await axeViolations(tab), [], "after No thanks");
      await tab.page.click("#developer summary");
      await toggleProtection(tab);
      await waitForEvent(tab, "choice");
      assert.deepEqual(await axeViolations(tab), [], "opted in, developer panel open");
      await tab.page.click("#place-order");
      await waitFor(() => tab.page.isVisible("#reference"), { what: "the reference number" });
      assert.deepEqual(await axeViolations(tab), [], "confirmation");
    } finally {
      await tab.close();
    }
  });

  it("POST /demo: a malformed order is 400; an unknown quote is the API's 404", async () => {
    const post = (body: string) =>
      fetch(app.origin + DEMO_PATH, { method: "POST", headers: { "Content-Type": "application/json" }, body });
    for (const body of [
      "not json",
      "[]",
      `{"quoteId":"quo_1"}`,
      `{"quoteId":"a b","protect":true}`,
      `{"quoteId":"quo_1","protect":true,"email":7}`,
    ])
      assert.equal((await post(body)).status, 400, body);
    assert.deepEqual(await (await post("{}")).json(), {});
    const unknown = await post(`{"quoteId":"quo_unknown","protect":true}`);
    assert.equal(unknown.status, 404);
    assert.equal((await unknown.json()).error.code, "resource_missing");
  });
});
