// The offer as a buyer meets it, and the frozen lifecycle events (names, detail keys, bubbling, composed).
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { widgetAttributes } from "../../../test/support/widget/stack.ts";
import {
  accessibilityTree,
  clickNode,
  quoteRequests,
  waitForEvent,
  waitForRole,
} from "../../../test/support/widget/browser.ts";
import { staysFalseFor, waitFor } from "../../../test/support/wait.ts";
import { chromiumSuite, withCheckout } from "../../../test/support/widget/suite.ts";

// Frozen: renaming an event or a detail key breaks merchants' pages. Change this table only with a new major version.
const FROZEN_EVENTS: Record<string, string[]> = {
  "service-widget:ready": [],
  "service-widget:offer": ["currency", "feeCents", "quoteId"],
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

  it("shows the price and the full two-sentence disclosure before opt-in, unticked, with a coverage link", () =>
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
      assert.ok(
        tree.find((node) => node.role === "link" && node.name === "See what is covered"),
        "a link to the coverage details",
      );
      assert.deepEqual(tab.pageErrors, []);
      assert.deepEqual(tab.console, [], "no console output without the debug attribute");
    }));

  it("mode=order: ticking the box confirms the plan and shows the reference number; events carry exactly the frozen keys", () =>
    withCheckout(suite, {}, async (tab) => {
      await clickNode(tab, await waitForRole(tab, "checkbox", /purchase protection/i));
      const [accepted] = await waitForEvent(tab, "accepted");
      assert.match(accepted.detail.referenceNumber as string, /^CLM-\d{4}-[0-9A-HJKMNP-TV-Z]{8}$/);
      await waitForRole(tab, "StaticText", new RegExp(`reference number is ${accepted.detail.referenceNumber}`));
      const ticked = await waitForRole(tab, "checkbox", /purchase protection/i);
      assert.equal(ticked.properties.checked, "true");
      assert.equal(ticked.properties.disabled, true);
      assert.equal(await quoteStatus(accepted.detail.quoteId), "confirmed");
      // The order is protected: a later attribute change does not offer it again.
      await tab.page.evaluate(() => document.querySelector("service-widget")!.setAttribute("amount-cents", "15000"));
      await staysFalseFor(() => quoteRequests(tab).length > 1, 400, { what: "a second quote request" });
      assert.equal(quoteRequests(tab).length, 1);
      const { events } = await tab.observed();
      assert.deepEqual(
        events.map((e) => e.type),
        ["service-widget:ready", "service-widget:offer", "service-widget:accepted"],
      );
      for (const event of events) {
        assert.deepEqual(Object.keys(event.detail).sort(), FROZEN_EVENTS[event.type], event.type);
        assert.deepEqual([event.bubbles, event.composed, event.target], [true, true, "service-widget"], event.type);
      }
    }));

  it("mode=order: a confirm the API refuses (here: the quote was declined meanwhile) brings a fresh offer to tick again", () =>
    withCheckout(suite, {}, async (tab) => {
      const [offer] = await waitForEvent(tab, "offer");
      await suite.stack.api.database.db.run("UPDATE quotes SET status = 'declined' WHERE id = ?", [
        offer.detail.quoteId as string,
      ]);
      await clickNode(tab, await waitForRole(tab, "checkbox", /purchase protection/i));
      const [, renewed] = await waitForEvent(tab, "offer", 2);
      assert.notEqual(renewed.detail.quoteId, offer.detail.quoteId);
      await waitForRole(tab, "StaticText", /offer was renewed/);
      const box = await waitForRole(tab, "checkbox", /purchase protection/i);
      assert.equal(box.properties.checked, "false");
      assert.equal(box.properties.disabled, undefined);
      await clickNode(tab, box);
      const [accepted] = await waitForEvent(tab, "accepted");
      assert.equal(accepted.detail.quoteId, renewed.detail.quoteId);
      assert.deepEqual(tab.pageErrors, []);
    }));

  it("mode=order: a confirm lost to the network unticks and says so; ticking again replays it under the same idempotency key", () =>
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
      await tab.page.route("**/offers/confirm", (route) => route.abort("connectionreset"));
      await clickNode(tab, await waitForRole(tab, "checkbox", /purchase protection/i));
      await waitForRole(tab, "StaticText", /could not be added/);
      const box = await waitForRole(tab, "checkbox", /purchase protection/i);
      assert.equal(box.properties.checked, "false");
      await tab.page.unroute("**/offers/confirm");
      const lost = tab.requests.filter((r) => r.url.endsWith("/offers/confirm") && r.method === "POST");
      await clickNode(tab, box);
      await waitForEvent(tab, "accepted");
      assert.equal(lost.length, 1);
      assert.equal(
        tab.requests.filter((r) => r.url.endsWith("/offers/confirm") && r.method === "POST").at(-1)!.postData,
        lost[0].postData,
        "the same body",
      );
      assert.equal(keys.length, 2);
      assert.equal(keys[1], keys[0], "the same Idempotency-Key");
      assert.deepEqual(tab.pageErrors, []);
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
