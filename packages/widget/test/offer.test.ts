// The offer as a buyer meets it, and the frozen lifecycle events (names, detail keys, bubbling, composed).
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { REFERENCE_NUMBER_PATTERN } from "@purchase-protection/contract";
import { checkoutPage, element, widgetAttributes } from "../../../test/support/widget/stack.ts";
import {
  accessibilityTree,
  clickNode,
  findByRole,
  eventsOf,
  everythingInTheDom,
  quoteRequests,
  waitForEvent,
  waitForRole,
  type TestPage,
} from "../../../test/support/widget/browser.ts";
import { staysFalseFor, waitFor } from "../../../test/support/wait.ts";
import { chromiumSuite, scriptTag, withCheckout } from "../../../test/support/widget/suite.ts";

/** The buyer's address, as a checkout form holds it (the widget confirms the plan for it). */
const BUYER_EMAIL = "buyer@example.com";

// Frozen: renaming an event or a detail key breaks merchants' pages (`choice` is new in issue 14). Change this table only with a new major version.
const FROZEN_EVENTS: Record<string, string[]> = {
  "service-widget:ready": [],
  "service-widget:offer": ["currency", "feeCents", "quoteId"],
  "service-widget:choice": ["accepted", "feeCents", "quoteId"],
  "service-widget:accepted": ["quoteId", "referenceNumber"],
  "service-widget:declined": ["quoteId"],
  "service-widget:unavailable": ["reason"],
};

describe("<service-widget>: the offer and its events (Chromium)", () => {
  const suite = chromiumSuite();
  const quoteStatus = async (quoteId: unknown) =>
    (
      await suite.stack.api.database.db.get<{ status: string }>("SELECT status FROM quotes WHERE id = ?", [
        quoteId as string,
      ])
    )?.status;

  it("shows the price, what it covers in one line with a link to the rulebook, and the full two-sentence disclosure before opt-in, unticked", () =>
    withCheckout(suite, {}, async (tab) => {
      const box = await waitForRole(tab, "checkbox", /purchase protection/i);
      const [offer] = await waitForEvent(tab, "offer");
      assert.equal(box.name, `Add purchase protection for $${((offer.detail.feeCents as number) / 100).toFixed(2)}`);
      assert.equal(box.properties.checked, "false", "opt-in is never pre-selected");
      const tree = await accessibilityTree(tab);
      const disclosure = tree.find(
        (node) => node.role === "StaticText" && node.name.startsWith("This is not insurance."),
      );
      assert.equal(
        disclosure?.name,
        "This is not insurance. This is a contractual refund guarantee provided by Test Protection Ltd.",
      );
      // What it covers, in one line, with the one link to the rulebook.
      assert.ok(
        tree.some(
          (node) => node.role === "StaticText" && node.name === "Loss, theft and damage in transit, and more. ",
        ),
        "what it covers",
      );
      assert.deepEqual(
        tree.filter((node) => node.role === "link").map((node) => node.name),
        ["See what is covered"],
        "one link to the coverage details",
      );
      assert.deepEqual(tab.pageErrors, []);
      assert.deepEqual(tab.console, [], "no console output without the debug attribute");
    }));

  it("shows the fee in the quote's currency with that currency's own decimals: whole yen, dinars to the fils", async () => {
    // 3 % of 12,345 minor units is 370: ¥370, KWD 0.370 (docs/api.md "Money, currencies, time").
    for (const [currency, price] of [
      ["JPY", "¥370"],
      ["KWD", "KWD 0.370"],
    ])
      await withCheckout(
        suite,
        { attributes: widgetAttributes(suite.stack, { "amount-cents": "12345", currency }) },
        async (tab) => {
          const box = await waitForRole(tab, "checkbox", /purchase protection/i);
          const [offer] = await waitForEvent(tab, "offer");
          assert.deepEqual([offer.detail.currency, offer.detail.feeCents], [currency, 370]);
          assert.equal(box.name.replace(/\s/g, " "), `Add purchase protection for ${price}`);
        },
      );
  });

  const plansFor = async (orderId: string) =>
    (
      await suite.stack.api.database.db.all<{ reference_number: string; purchased_at: number }>(
        "SELECT reference_number, purchased_at FROM plans WHERE order_id = ?",
        [orderId],
      )
    ).map((row) => ({ referenceNumber: row.reference_number, purchasedAt: Number(row.purchased_at) }));
  const confirmRequests = (tab: TestPage) =>
    tab.requests.filter((r) => r.url.endsWith("/offers/confirm") && r.method === "POST");
  /**
   * A checkout whose form holds the widget (or names it with `form=`) and the buyer's e-mail field; the form posts to
   * a thank-you page, shown in a frame so that the checkout page (and what the test observed on it) stays.
   */
  const formPage = (attributes: Record<string, string>, outside = false) =>
    checkoutPage({
      script: scriptTag(suite.stack),
      body: `<iframe name="placed" title="Order placed"></iframe><form id="order" target="placed" action="${suite.stack.pages.set("/thank-you", "<!doctype html><title>Thanks</title><h1>Thank you</h1>")}" method="get">
<label>E-mail <input type="email" name="email" value="${BUYER_EMAIL}"></label>
${outside ? "" : element(attributes)}<input type="hidden" name="order" value="${attributes["order-id"]}"><button type="submit" id="place">Place order</button></form>
${outside ? element({ ...attributes, form: "order" }) : ""}
<script>document.getElementById("order").addEventListener("submit", () => (window.__submits = (window.__submits || 0) + 1));</script>`,
    });
  const orderPlaced = (tab: TestPage) =>
    waitFor(() => tab.page.frames().some((frame) => /\/thank-you\?.*\border=/.test(frame.url())), {
      what: "the order placed (the form submitted)",
    });
  /** The page's script places the order: `confirm({orderId, customerEmail})`, the address typed at its checkout. */
  const confirmFromPage = (tab: TestPage, orderId?: string) =>
    tab.page.evaluate(
      ([orderId, customerEmail]) =>
        (document.querySelector("service-widget") as HTMLElement & { confirm(o?: object): Promise<string> })
          .confirm(orderId ? { orderId, customerEmail } : { customerEmail })
          .then(
            (referenceNumber) => ({ referenceNumber, error: "" }),
            (error: Error) => ({ referenceNumber: "", error: error.message }),
          ),
      [orderId, BUYER_EMAIL],
    );

  for (const outside of [false, true])
    it(`mode=order: tick, untick, tick records the choice only; submitting the ${outside ? "form named by form=" : "enclosing form"} confirms exactly one plan, then the order is placed; events carry exactly the frozen keys`, async () => {
      const attributes = widgetAttributes(suite.stack);
      await withCheckout(suite, { html: formPage(attributes, outside) }, async (tab) => {
        const box = await waitForRole(tab, "checkbox", /purchase protection/i);
        const [offer] = await waitForEvent(tab, "offer");
        for (let n = 0; n < 3; n++) await clickNode(tab, box);
        const choices = await waitForEvent(tab, "choice", 3);
        assert.deepEqual(
          choices.map((e) => e.detail),
          [true, false, true].map((accepted) => ({
            quoteId: offer.detail.quoteId,
            accepted,
            feeCents: offer.detail.feeCents,
          })),
        );
        assert.equal(confirmRequests(tab).length, 0, "ticking confirms nothing");
        assert.deepEqual(await plansFor(attributes["order-id"]), []);
        assert.equal(await quoteStatus(offer.detail.quoteId), "open");

        const before = Date.now();
        // A double click: one submit is held for the confirm, then placed once.
        await tab.page.evaluate(() => {
          document.getElementById("place")!.click();
          document.getElementById("place")!.click();
        });
        await orderPlaced(tab);
        assert.equal(
          await tab.page.evaluate(() => (window as unknown as { __submits?: number }).__submits),
          1,
          "the page's submit listeners saw one submit",
        );
        const plans = await plansFor(attributes["order-id"]);
        assert.equal(plans.length, 1, "exactly one plan");
        assert.ok(plans[0].purchasedAt >= before - 1000, "purchased_at is the order's placement, not the tick");
        assert.equal(confirmRequests(tab).length, 1);
        const { events } = await tab.observed();
        const [accepted] = events.filter((e) => e.type === "service-widget:accepted");
        assert.deepEqual(accepted.detail, { quoteId: offer.detail.quoteId, referenceNumber: plans[0].referenceNumber });
        assert.deepEqual(
          events.map((e) => e.type),
          [
            "service-widget:ready",
            "service-widget:offer",
            "service-widget:choice",
            "service-widget:choice",
            "service-widget:choice",
            "service-widget:accepted",
          ],
        );
        for (const event of events) {
          assert.deepEqual(Object.keys(event.detail).sort(), FROZEN_EVENTS[event.type], event.type);
          assert.deepEqual([event.bubbles, event.composed, event.target], [true, true, "service-widget"], event.type);
        }
        assert.deepEqual(tab.pageErrors, []);
      });
    });

  it("mode=order: the page's submit listeners see one submit, after the confirm; unticked, the form submits without a plan; abandoned, no plan", async () => {
    const attributes = widgetAttributes(suite.stack);
    await withCheckout(suite, { html: formPage(attributes) }, async (tab) => {
      const box = await waitForRole(tab, "checkbox", /purchase protection/i);
      await clickNode(tab, box);
      await clickNode(tab, box);
      await waitForEvent(tab, "choice", 2);
      await tab.page.evaluate(() =>
        document.getElementById("order")!.addEventListener("submit", (event) => event.preventDefault()),
      );
      await tab.page.click("#place");
      await waitFor(() => tab.page.evaluate(() => (window as unknown as { __submits?: number }).__submits === 1), {
        what: "the page's submit",
      });
      assert.equal(confirmRequests(tab).length, 0);
      assert.deepEqual(await plansFor(attributes["order-id"]), [], "unticked: no plan");
    });
    const abandoned = widgetAttributes(suite.stack);
    await withCheckout(suite, { html: formPage(abandoned) }, async (tab) => {
      const box = await waitForRole(tab, "checkbox", /purchase protection/i);
      await clickNode(tab, box);
      await waitForEvent(tab, "choice");
    });
    assert.deepEqual(await plansFor(abandoned["order-id"]), [], "ticked, then the page left without an order: no plan");
  });

  it("mode=order: a confirm lost to the network fails open — the order is submitted anyway and `unavailable` says why", async () => {
    const attributes = widgetAttributes(suite.stack);
    await withCheckout(suite, { html: formPage(attributes) }, async (tab) => {
      await clickNode(tab, await waitForRole(tab, "checkbox", /purchase protection/i));
      await tab.page.route("**/offers/confirm", (route) => route.abort("connectionreset"));
      await tab.page.click("#place");
      await orderPlaced(tab);
      assert.deepEqual(
        (await eventsOf(tab, "unavailable")).map((e) => e.detail),
        [{ reason: "network" }],
      );
      assert.deepEqual(await plansFor(attributes["order-id"]), []);
      // Calm: the offer is gone, no error text in its place.
      assert.equal(await findByRole(tab, "checkbox"), undefined);
      assert.equal(await findByRole(tab, "group", /purchase protection/i), undefined);
    });
  });

  it("mode=order: a confirm the API never answers holds the submit 3 s at most, then the order is placed without protection and no error is shown", async () => {
    const attributes = widgetAttributes(suite.stack);
    await withCheckout(suite, { html: formPage(attributes) }, async (tab) => {
      await clickNode(tab, await waitForRole(tab, "checkbox", /purchase protection/i));
      await waitForEvent(tab, "choice");
      await tab.page.route("**/offers/confirm", () => {}); // never answered
      const clickedAt = Date.now();
      await tab.page.click("#place");
      await orderPlaced(tab);
      const held = Date.now() - clickedAt;
      assert.ok(held >= 2_900 && held < 5_000, `the submit was held ${held} ms`);
      assert.deepEqual(
        (await eventsOf(tab, "unavailable")).map((e) => e.detail),
        [{ reason: "network" }],
      );
      assert.equal(await findByRole(tab, "checkbox"), undefined, "the offer is gone");
      assert.deepEqual(await plansFor(attributes["order-id"]), []);
      assert.deepEqual(tab.pageErrors, []);
      assert.deepEqual(tab.console, []);
    });
  });

  it('mode=order: "No thanks" is reversible until the order is placed: tick → No thanks → place has no plan; No thanks → tick → place confirms exactly one plan, on a fresh quote', async () => {
    const declinedFirst = widgetAttributes(suite.stack);
    await withCheckout(suite, { html: formPage(declinedFirst) }, async (tab) => {
      const [offer] = await waitForEvent(tab, "offer");
      await clickNode(tab, await waitForRole(tab, "checkbox", /purchase protection/i));
      await waitForEvent(tab, "choice");
      await clickNode(tab, await waitForRole(tab, "button", /no thanks/i));
      await waitForEvent(tab, "declined");
      const box = await waitForRole(tab, "checkbox", /purchase protection/i);
      assert.deepEqual([box.properties.checked, box.properties.disabled], ["false", undefined], "unticked, usable");
      await waitForRole(tab, "StaticText", /^No protection added\.$/);
      await tab.page.click("#place");
      await orderPlaced(tab);
      assert.deepEqual(await plansFor(declinedFirst["order-id"]), []);
      assert.equal(confirmRequests(tab).length, 0);
      await waitFor(async () => (await quoteStatus(offer.detail.quoteId)) === "declined", { what: "quote declined" });
    });

    const changedMind = widgetAttributes(suite.stack);
    await withCheckout(suite, { html: formPage(changedMind) }, async (tab) => {
      const [offer] = await waitForEvent(tab, "offer");
      await clickNode(tab, await waitForRole(tab, "button", /no thanks/i));
      await waitForEvent(tab, "declined");
      await waitFor(async () => (await quoteStatus(offer.detail.quoteId)) === "declined", { what: "quote declined" });
      await clickNode(tab, await waitForRole(tab, "checkbox", /purchase protection/i));
      // A fresh offer, ticked, and the page told so (its total follows `choice`).
      const [, fresh] = await waitForEvent(tab, "offer", 2);
      assert.notEqual(fresh.detail.quoteId, offer.detail.quoteId);
      const [choice] = await waitForEvent(tab, "choice");
      assert.deepEqual(choice.detail, {
        quoteId: fresh.detail.quoteId,
        accepted: true,
        feeCents: offer.detail.feeCents,
      });
      const box = await waitForRole(tab, "checkbox", /purchase protection/i);
      assert.equal(box.properties.checked, "true");
      assert.ok(await findByRole(tab, "button", /no thanks/i), "the fresh offer can be declined again");
      await tab.page.click("#place");
      await orderPlaced(tab);
      const plans = await plansFor(changedMind["order-id"]);
      assert.equal(plans.length, 1, "exactly one plan");
      assert.equal(confirmRequests(tab).length, 1);
      const [accepted] = await eventsOf(tab, "accepted");
      assert.deepEqual(accepted.detail, { quoteId: fresh.detail.quoteId, referenceNumber: plans[0].referenceNumber });
      assert.deepEqual(
        (await eventsOf(tab, "unavailable")).map((e) => e.detail),
        [],
      );
      assert.deepEqual(tab.pageErrors, []);
    });
  });

  it("confirm({orderId}): rejects while nothing is ticked; resolves with the reference number of one plan for that order id, however often it is called", () =>
    withCheckout(suite, {}, async (tab) => {
      await waitForEvent(tab, "offer");
      assert.deepEqual(await confirmFromPage(tab), { referenceNumber: "", error: "not_accepted" });
      await clickNode(tab, await waitForRole(tab, "checkbox", /purchase protection/i));
      await waitForEvent(tab, "choice");
      const orderId = `placed-${crypto.randomUUID()}`;
      const [first, second] = await Promise.all([confirmFromPage(tab, orderId), confirmFromPage(tab, orderId)]);
      assert.match(first.referenceNumber, REFERENCE_NUMBER_PATTERN);
      assert.deepEqual(second, first);
      assert.deepEqual(await confirmFromPage(tab, orderId), first);
      assert.deepEqual(
        (await plansFor(orderId)).map((plan) => plan.referenceNumber),
        [first.referenceNumber],
      );
      assert.equal(confirmRequests(tab).length, 1);
      await waitForRole(tab, "StaticText", new RegExp(first.referenceNumber));
      const ticked = await waitForRole(tab, "checkbox", /purchase protection/i);
      assert.deepEqual([ticked.properties.checked, ticked.properties.disabled], ["true", true]);
      // The quote was for the attribute's order id: it was renewed once for the order placed, as the API requires.
      assert.deepEqual(
        quoteRequests(tab).map((request) => JSON.parse(request.postData!).order_id),
        [await tab.page.getAttribute("service-widget", "order-id"), orderId],
      );
      // The order is protected: a later attribute change does not offer it again.
      await tab.page.evaluate(() => document.querySelector("service-widget")!.setAttribute("amount-cents", "15000"));
      await staysFalseFor(() => quoteRequests(tab).length > 2, 400, { what: "a third quote request" });
    }));

  it("confirm(): a quote the API refuses by then (expired, here declined meanwhile) is re-quoted and confirmed transparently", () =>
    withCheckout(suite, {}, async (tab) => {
      const [offer] = await waitForEvent(tab, "offer");
      await clickNode(tab, await waitForRole(tab, "checkbox", /purchase protection/i));
      await waitForEvent(tab, "choice");
      await suite.stack.api.database.db.run("UPDATE quotes SET status = 'declined' WHERE id = ?", [
        offer.detail.quoteId as string,
      ]);
      const { referenceNumber } = await confirmFromPage(tab);
      assert.match(referenceNumber, REFERENCE_NUMBER_PATTERN);
      const [, renewed] = await eventsOf(tab, "offer");
      assert.notEqual(renewed.detail.quoteId, offer.detail.quoteId);
      const [accepted] = await eventsOf(tab, "accepted");
      assert.deepEqual(accepted.detail, { quoteId: renewed.detail.quoteId, referenceNumber });
      assert.equal(confirmRequests(tab).length, 2);
      assert.deepEqual(tab.pageErrors, []);
    }));

  it("confirm(): the fresh offer of a box ticked again after No thanks is renewed like any other when the API refuses it by then", () =>
    withCheckout(suite, {}, async (tab) => {
      await waitForEvent(tab, "offer");
      await clickNode(tab, await waitForRole(tab, "button", /no thanks/i));
      await waitForEvent(tab, "declined");
      await clickNode(tab, await waitForRole(tab, "checkbox", /purchase protection/i));
      const [, fresh] = await waitForEvent(tab, "offer", 2);
      await waitForEvent(tab, "choice");
      // Expired by the time the order is placed (here: made unconfirmable in the database).
      await suite.stack.api.database.db.run("UPDATE quotes SET status = 'declined' WHERE id = ?", [
        fresh.detail.quoteId as string,
      ]);
      const { referenceNumber } = await confirmFromPage(tab);
      assert.match(referenceNumber, REFERENCE_NUMBER_PATTERN);
      const [, , renewed] = await eventsOf(tab, "offer");
      const [accepted] = await eventsOf(tab, "accepted");
      assert.deepEqual(accepted.detail, { quoteId: renewed.detail.quoteId, referenceNumber });
      assert.equal(confirmRequests(tab).length, 2);
    }));

  it("confirm(): after a confirm lost to the network, calling it again replays the same request under the same idempotency key", () =>
    withCheckout(suite, {}, async (tab) => {
      await waitForEvent(tab, "offer");
      const keys: string[] = [];
      tab.page.on(
        "request",
        (request) =>
          request.url().endsWith("/offers/confirm") &&
          request.method() === "POST" &&
          keys.push(request.headers()["idempotency-key"]),
      );
      await clickNode(tab, await waitForRole(tab, "checkbox", /purchase protection/i));
      await waitForEvent(tab, "choice");
      await tab.page.route("**/offers/confirm", (route) => route.abort("connectionreset"));
      assert.deepEqual(await confirmFromPage(tab), { referenceNumber: "", error: "network" });
      // Calm: no error text for the buyer, the box usable again for the page's retry.
      const box = await waitForRole(tab, "checkbox", /purchase protection/i);
      assert.deepEqual([box.properties.checked, box.properties.disabled], ["true", undefined]);
      assert.equal(await findByRole(tab, "StaticText", /could not|error|fail/i), undefined);
      await tab.page.unroute("**/offers/confirm");
      const lost = confirmRequests(tab);
      const { referenceNumber } = await confirmFromPage(tab);
      assert.match(referenceNumber, REFERENCE_NUMBER_PATTERN);
      assert.equal(lost.length, 1);
      assert.equal(confirmRequests(tab).at(-1)!.postData, lost[0].postData, "the same body");
      assert.equal(keys.length, 2);
      assert.equal(keys[1], keys[0], "the same Idempotency-Key");
      assert.deepEqual(tab.pageErrors, []);
    }));

  it("the coverage link opens the quote's termsUrl: the public rulebook page <PORTAL_URL>/terms", () =>
    withCheckout(suite, {}, async (tab) => {
      await waitForRole(tab, "link", /see what is covered/i);
      const dom = await everythingInTheDom(tab);
      assert.ok(dom.includes("https://portal.example.test/terms"), "href is the portal's /terms page");
    }));

  it("mode=order: No thanks declines the quote at the API", () =>
    withCheckout(suite, {}, async (tab) => {
      const [offer] = await waitForEvent(tab, "offer");
      await clickNode(tab, await waitForRole(tab, "button", /no thanks/i));
      const [declined] = await waitForEvent(tab, "declined");
      assert.deepEqual(declined.detail, { quoteId: offer.detail.quoteId });
      await waitFor(async () => (await quoteStatus(offer.detail.quoteId)) === "declined", { what: "quote declined" });
    }));

  it("mode=cart: ticking and unticking records the choice (accepted/declined without a reference number), no confirm from the browser", async () => {
    const attributes = widgetAttributes(suite.stack, { mode: "cart" });
    delete attributes["order-id"];
    await withCheckout(suite, { attributes }, async (tab) => {
      const box = await waitForRole(tab, "checkbox", /purchase protection/i);
      await clickNode(tab, box);
      await waitForEvent(tab, "accepted");
      await clickNode(tab, box);
      await waitForEvent(tab, "declined");
      const { events } = await tab.observed();
      assert.deepEqual(
        events.map((e) => e.type),
        ["service-widget:ready", "service-widget:offer", "service-widget:accepted", "service-widget:declined"],
      );
      assert.deepEqual(Object.keys(events[2].detail), ["quoteId"]);
      assert.equal(
        tab.requests.filter((r) => r.url.includes("/offers/confirm") || r.url.includes("/offers/decline")).length,
        0,
      );
    });
  });

  it("unavailable carries only {reason}: a bad key, a secret key (never sent), a missing order id", async () => {
    const { merchant } = suite.stack.api;
    for (const [extra, reason] of [
      [{ "publishable-key": "wk_test_" + "x".repeat(32) }, "api_key_invalid"],
      [{ "publishable-key": merchant.secretKey }, "config"],
      [{ "order-id": "" }, "config"],
    ] as const) {
      await withCheckout(suite, { attributes: widgetAttributes(suite.stack, extra) }, async (tab) => {
        const [event] = await waitForEvent(tab, "unavailable");
        assert.deepEqual(event.detail, { reason });
        assert.ok(!tab.requests.some((r) => JSON.stringify(r).includes(merchant.secretKey)));
      });
    }
  });
});
