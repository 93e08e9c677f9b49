// /demo: the sample checkout page (server/demo-page.ts) as the standalone server composes it — widget assets, the
// demo page with its strict CSP and nonce, the API — opened in Chromium as a buyer would use it: the total follows
// the protection choice (the fee once, in the contract's money format), "Place order" submits the checkout form the
// widget is bound to — the widget confirms the plan, then the order is placed — and shows the reference number, the ids and event log stay behind a closed "Developer" toggle, and it fits a 390 px phone.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { formatMoney, REFERENCE_NUMBER_PATTERN } from "@purchase-protection/contract";
import { listen } from "../../../test/support/widget/stack.ts";
import {
  axeViolations,
  clickNode,
  documentScrollWidth,
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
    app = await listen(
      createServerApp({ api: api.api, demoKeys: async () => ({ publishableKey, programId, secretKey }) }).fetch,
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
      assert.match(reference, REFERENCE_NUMBER_PATTERN);
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

  it('"No thanks", then "Place order": the order is placed without protection (the widget already declined the quote)', async () => {
    const { tab, offer } = await openDemo();
    const plansBefore = await planCount();
    try {
      await clickNode(tab, await waitForRole(tab, "button", /no thanks/i));
      await waitForEvent(tab, "declined");
      await tab.page.click("#place-order");
      await waitFor(() => tab.page.isVisible("#confirmation"), { what: "the confirmation" });
      assert.equal(await tab.page.innerText("#order-error"), "");
      assert.equal(await tab.page.isVisible("#protected-note"), false);
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

  it("the offer appears without moving the page at 1280 and 390 px: its box is reserved (no layout shift)", async () => {
    for (const width of [1280, 390]) {
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

  it("has no axe-core violations: checkout, opted in with the developer panel open, confirmation", async () => {
    const { tab } = await openDemo();
    try {
      assert.deepEqual(await axeViolations(tab), [], "checkout");
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
    for (const body of ["not json", "[]", `{"quoteId":"quo_1"}`, `{"quoteId":"a b","protect":true}`])
      assert.equal((await post(body)).status, 400, body);
    assert.deepEqual(await (await post("{}")).json(), {});
    const unknown = await post(`{"quoteId":"quo_unknown","protect":true}`);
    assert.equal(unknown.status, 404);
    assert.equal((await unknown.json()).error.code, "resource_missing");
  });
});
