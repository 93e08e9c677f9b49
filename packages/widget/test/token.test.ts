// The quote token lives only in the widget's closure: not in the DOM (closed shadow root included), an attribute,
// storage, cookies, a URL, a performance entry, a console line (even with `debug`) or an event detail.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { widgetAttributes } from "../../../test/support/widget/stack.ts";
import {
  clickNode,
  everythingInTheDom,
  waitForEvent,
  waitForRole,
  type TestPage,
} from "../../../test/support/widget/browser.ts";
import { chromiumSuite, withCheckout } from "../../../test/support/widget/suite.ts";

/** Every place a page, an extension or an error monitor could read, as text. */
async function observablePlaces(tab: TestPage): Promise<Record<string, string>> {
  return {
    "DOM (closed shadow root and frames included)": await everythingInTheDom(tab),
    "storage and cookies": JSON.stringify(
      await tab.page.evaluate(async () => ({
        local: { ...localStorage },
        session: { ...sessionStorage },
        cookie: document.cookie,
        indexedDb: await indexedDB.databases(),
        caches: await caches.keys(),
        name: window.name,
      })),
    ),
    "context cookies": JSON.stringify(await tab.context.cookies()),
    URLs: JSON.stringify([
      ...tab.requests.map((r) => r.url),
      tab.page.url(),
      await tab.page.evaluate(() => location.href),
    ]),
    "performance entries": JSON.stringify(
      await tab.page.evaluate(() => performance.getEntries().map((e) => e.toJSON())),
    ),
    console: JSON.stringify(tab.console),
    "event details": JSON.stringify((await tab.observed()).events),
  };
}

describe("<service-widget>: the quote token never leaves the script's closure (Chromium)", () => {
  const suite = chromiumSuite();

  it("is nowhere a page, a storage API, a URL, a timing entry, the console or an event can show: offered, ticked, confirmed", () =>
    withCheckout(suite, { attributes: widgetAttributes(suite.stack, { debug: "" }) }, async (tab) => {
      await waitForEvent(tab, "offer");
      assert.equal(tab.tokens.length, 1, "the browser received one token");
      const [token] = tab.tokens;
      assert.ok(token.length >= 16);
      const assertNoLeak = async (stage: string) => {
        for (const [place, text] of Object.entries(await observablePlaces(tab)))
          assert.ok(!text.includes(token), `${stage}: the token appears in ${place}`);
      };

      await assertNoLeak("offer shown");
      await clickNode(tab, await waitForRole(tab, "checkbox", /purchase protection/i));
      await waitForEvent(tab, "choice");
      await assertNoLeak("ticked, not yet confirmed");
      // The order is placed: the page's script confirms, with the address the buyer gave its checkout.
      await tab.page.evaluate(() =>
        (document.querySelector("service-widget") as HTMLElement & { confirm(o: object): Promise<string> }).confirm({
          customerEmail: "buyer@example.com",
        }),
      );
      await waitForEvent(tab, "accepted");
      await assertNoLeak("after confirm");
      // The token did travel, once, where it belongs: the confirm request body.
      const confirms = tab.requests.filter((r) => r.url.endsWith("/offers/confirm") && r.method === "POST");
      assert.equal(confirms.length, 1);
      assert.equal(JSON.parse(confirms[0].postData!).quoteToken, token);
      // Diagnostics were on (debug attribute), and every line carries the prefix.
      assert.ok(tab.console.length > 0);
      for (const line of tab.console) assert.ok(line.text.startsWith("[service-widget] "), line.text);
    }));
});
