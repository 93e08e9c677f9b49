// Iframe fallback for pages without customElements: the same snippet, the widget in /widget/v1/frame.html,
// bridged by postMessage with exact origin checks both ways. A hostile frame on another origin can neither fake
// events or sizes towards the page nor reconfigure the widget frame.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { checkoutPage, element, listen, widgetAttributes } from "../../../test/support/widget/stack.ts";
import {
  clickNode,
  everythingInTheDom,
  quoteRequests,
  waitForEvent,
  waitForRole,
} from "../../../test/support/widget/browser.ts";
import { staysFalseFor } from "../../../test/support/wait.ts";
import { chromiumSuite, scriptTag, withCheckout } from "../../../test/support/widget/suite.ts";

const NO_CUSTOM_ELEMENTS = "delete window.customElements;";

const HOSTILE = `<!doctype html><script>
const fake = { event: "accepted", detail: { quoteId: "quo_fake", referenceNumber: "CLM-2026-FAKEFAKE" } };
let n = 0;
const timer = setInterval(() => {
  parent.postMessage(fake, "*");
  parent.postMessage({ height: 999 }, "*");
  // Straight at the widget frame: a different amount and key, as if it came from the page.
  for (let i = 0; i < parent.frames.length; i++) {
    try { parent.frames[i].postMessage({ sw: { "publishable-key": "wk_test_hostilehostilehostilehostileho", "program-id": "x", "amount-cents": "1", "order-id": "evil" } }, "*"); } catch {}
  }
  if (++n === 20) { clearInterval(timer); document.title = "done"; }
}, 50);
</script>`;

describe("<service-widget>: iframe fallback without customElements (Chromium)", () => {
  const suite = chromiumSuite();
  let hostile: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    hostile = await listen(() => new Response(HOSTILE, { headers: { "Content-Type": "text/html" } }));
  });
  afterAll(() => hostile?.close());

  it("renders the offer in the hosted frame from the identical snippet, and the buyer can opt in (the customer-email attribute goes along)", () =>
    withCheckout(
      suite,
      {
        initScript: NO_CUSTOM_ELEMENTS,
        attributes: widgetAttributes(suite.stack, { "customer-email": "framed.buyer@example.com" }),
      },
      async (tab) => {
        const { stack } = suite;
        assert.equal(await tab.page.evaluate(() => typeof window.customElements), "undefined");
        const box = await waitForRole(tab, "checkbox", /purchase protection/i);
        const frame = tab.page.frames().find((f) => f.url().startsWith(`${stack.widgetOrigin}/widget/v1/frame.html#`));
        assert.ok(frame, "the hosted frame page");
        const [offer] = await waitForEvent(tab, "offer");
        assert.deepEqual(Object.keys(offer.detail).sort(), ["currency", "feeCents", "quoteId"]);
        assert.ok(
          await tab.page.evaluate(
            () => document.querySelector("service-widget iframe")!.getBoundingClientRect().height > 40,
          ),
          "sized to its content",
        );
        await clickNode(tab, box);
        const [accepted] = await waitForEvent(tab, "accepted");
        assert.match(accepted.detail.referenceNumber as string, /^CLM-/);
        assert.equal(accepted.target, "service-widget");
        const [confirm] = tab.requests.filter((r) => r.method === "POST" && r.url.endsWith("/offers/confirm"));
        assert.equal(JSON.parse(confirm.postData!).customer_email, "framed.buyer@example.com");
        assert.equal(tab.tokens.length, 1);
        assert.ok(
          !(await everythingInTheDom(tab)).includes(tab.tokens[0]),
          "the token is in no document, the frame's included",
        );
        assert.deepEqual(tab.pageErrors, []);
      },
    ));

  it("words the framed offer in the storefront's language, not the frame's browser default", () =>
    withCheckout(
      suite,
      // Shopify's locale on the storefront's page only: the frame's own window has none.
      {
        initScript: `${NO_CUSTOM_ELEMENTS} if (window === top) window.Shopify = { locale: "de" };`,
        attributes: widgetAttributes(suite.stack),
      },
      async (tab) => {
        await waitForRole(tab, "checkbox", /Käuferschutz/);
        const [quote] = quoteRequests(tab);
        assert.equal(JSON.parse(quote.postData!).locale, "de");
        assert.deepEqual(tab.pageErrors, []);
      },
    ));

  it("ignores a hostile frame on another origin posting fake events, sizes and configuration", () => {
    const html = checkoutPage({
      widget: element(widgetAttributes(suite.stack)),
      script: scriptTag(suite.stack),
      body: `<iframe id="ad" src="${hostile.origin}/ad"></iframe>`,
    });
    return withCheckout(suite, { html, initScript: NO_CUSTOM_ELEMENTS }, async (tab) => {
      await waitForEvent(tab, "offer");
      const ad = tab.page.frames().find((f) => f.url().startsWith(hostile.origin))!;
      await ad.waitForFunction(() => document.title === "done");
      await staysFalseFor(async () => (await tab.observed()).events.length > 2, 400, {
        what: "a faked event on the page",
      });
      const events = (await tab.observed()).events.map((e) => e.type);
      assert.deepEqual(events, ["service-widget:ready", "service-widget:offer"], "no faked event reached the page");
      const height = await tab.page.evaluate(
        () => document.querySelector("service-widget iframe")!.getBoundingClientRect().height,
      );
      assert.ok(height > 40 && height < 999, `height ${height}`);
      assert.equal(quoteRequests(tab).length, 1, "the widget frame took no configuration from the hostile frame");
      assert.ok(!tab.requests.some((r) => r.postData?.includes("evil")));
    });
  });
});
