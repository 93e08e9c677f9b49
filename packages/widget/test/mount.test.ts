// Mounting: exactly one quote per mount in a single-page app (attribute changes re-quote once, debounced), and
// booting whichever arrives first, the script (element added later) or the element (script injected later).
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { checkoutPage, element, widgetAttributes } from "../../../test/support/widget/stack.ts";
import { quoteRequests, waitForEvent, waitForRole, type TestPage } from "../../../test/support/widget/browser.ts";
import { staysFalseFor, waitFor } from "../../../test/support/wait.ts";
import { chromiumSuite, scriptTag, withCheckout } from "../../../test/support/widget/suite.ts";

/** No quote request beyond the first `count` for a while: a late or duplicate one would show up within it. */
const staysAtQuotes = (tab: TestPage, count: number) =>
  staysFalseFor(() => quoteRequests(tab).length > count, 600, { what: `quote request ${count + 1}` });

describe("<service-widget>: mounting (Chromium)", () => {
  const suite = chromiumSuite();

  it("a single-page app that re-mounts the element gets exactly one quote per mount", () =>
    withCheckout(suite, { html: checkoutPage({ script: scriptTag(suite.stack) }) }, async (tab) => {
      const attributes = JSON.stringify(widgetAttributes(suite.stack));
      const mount = () =>
        tab.page.evaluate((attrs) => {
          document.querySelector("service-widget")?.remove();
          const widget = document.createElement("service-widget");
          // A framework sets attributes one by one, after creating (and sometimes after connecting) the element.
          document.getElementById("slot")!.append(widget);
          for (const [name, value] of Object.entries(JSON.parse(attrs))) widget.setAttribute(name, value as string);
        }, attributes);
      for (let n = 1; n <= 3; n++) {
        await mount();
        await waitForEvent(tab, "offer", n);
        await staysAtQuotes(tab, n);
        assert.equal(quoteRequests(tab).length, n, `mount ${n}`);
      }
      // Unmounted before its quote was sent (React StrictMode mounts, unmounts, mounts): still one quote.
      await tab.page.evaluate((attrs) => {
        const widget = document.createElement("service-widget");
        for (const [name, value] of Object.entries(JSON.parse(attrs))) widget.setAttribute(name, value as string);
        const slot = document.getElementById("slot")!;
        slot.replaceChildren(widget);
        widget.remove();
        slot.append(widget);
      }, attributes);
      await waitForEvent(tab, "offer", 4);
      await staysAtQuotes(tab, 4);
      assert.equal(quoteRequests(tab).length, 4);
    }));

  it("`placement` moves the element before its target: one `ready`, one quote", () =>
    withCheckout(
      suite,
      {
        html: checkoutPage({
          widget: element(widgetAttributes(suite.stack, { placement: "#pay" })),
          script: scriptTag(suite.stack),
        }),
      },
      async (tab) => {
        await waitForRole(tab, "checkbox", /purchase protection/i);
        assert.equal(
          await tab.page.evaluate(() => document.querySelector("service-widget")!.nextElementSibling!.id),
          "pay",
        );
        await staysAtQuotes(tab, 1);
        assert.deepEqual(
          (await tab.observed()).events.map((e) => e.type),
          ["service-widget:ready", "service-widget:offer"],
        );
      },
    ));

  it("a burst of attribute changes re-quotes once, debounced, for the final values", () =>
    withCheckout(suite, {}, async (tab) => {
      await waitForEvent(tab, "offer");
      await tab.page.evaluate(async () => {
        const widget = document.querySelector("service-widget")!;
        for (const amount of [15000, 16000, 17000, 20000]) {
          widget.setAttribute("amount-cents", String(amount));
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        widget.setAttribute("amount-cents", "20000"); // unchanged: no new quote
      });
      await waitForEvent(tab, "offer", 2);
      await staysAtQuotes(tab, 2);
      const quotes = quoteRequests(tab);
      assert.equal(quotes.length, 2);
      assert.equal(JSON.parse(quotes[1].postData!).order_amount_cents, 20000);
    }));

  it("boots when the script arrives after the element (consent manager, async tag manager)", () =>
    withCheckout(suite, { html: checkoutPage({ widget: element(widgetAttributes(suite.stack)) }) }, async (tab) => {
      await staysAtQuotes(tab, 0);
      await tab.page.evaluate((src) => {
        const script = document.createElement("script");
        script.src = src;
        script.async = true;
        document.head.append(script);
      }, suite.stack.scriptUrl);
      await waitForRole(tab, "checkbox", /purchase protection/i);
      assert.equal(quoteRequests(tab).length, 1);
    }));

  it("boots when the element arrives after the script, and a second copy of the script changes nothing", () =>
    withCheckout(
      suite,
      { html: checkoutPage({ script: scriptTag(suite.stack) + scriptTag(suite.stack), scriptFirst: true }) },
      async (tab) => {
        await staysAtQuotes(tab, 0);
        await tab.page.evaluate(
          (markup) => (document.getElementById("slot")!.innerHTML = markup),
          element(widgetAttributes(suite.stack)),
        );
        await waitForRole(tab, "checkbox", /purchase protection/i);
        await staysAtQuotes(tab, 1);
        assert.equal(quoteRequests(tab).length, 1);
        assert.deepEqual(tab.pageErrors, []);
        await waitFor(async () => (await tab.observed()).events.length === 2, { what: "ready + offer only" });
      },
    ));
});
