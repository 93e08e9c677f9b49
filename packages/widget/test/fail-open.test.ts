// Fails open: script blocked, API down, 4xx, 5xx, a 3 s timeout → nothing rendered, no layout shift, no console
// error or uncaught exception, and the page's own checkout is untouched. Chromium itself reports a resource it
// could not load ("Failed to load resource …" in DevTools); those lines are checked to be about the blocked
// resource only — the page and the widget write nothing.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { listen, widgetAttributes } from "../../../test/support/widget/stack.ts";
import { quoteRequests, waitForEvent, waitForRole } from "../../../test/support/widget/browser.ts";
import { waitFor } from "../../../test/support/wait.ts";
import { assertNothingShown } from "../../../test/support/widget/fail-open.ts";
import { chromiumSuite, withCheckout, type CheckoutOptions } from "../../../test/support/widget/suite.ts";

const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Headers": "Authorization, Content-Type, Idempotency-Key",
  "Access-Control-Allow-Methods": "POST",
};
const preflightOr = (answer: () => Response | Promise<Response>) => (request: Request) =>
  request.method === "OPTIONS" ? new Response(null, { status: 204, headers: CORS }) : answer();

/**
 * The widget's wait for its quote on the page's own clock: from its fetch of /offers/quote (its 3 s timer is set
 * just before) to its unavailable event, so the time to open the page and load the script is not counted.
 */
interface QuoteWait {
  startedAt?: number;
  gaveUpAt?: number;
}
const MEASURE_QUOTE_WAIT = `(() => {
  const wait = (window.__quoteWait = {});
  const pageFetch = window.fetch;
  window.fetch = (input, init) => {
    if (String(input).endsWith("/offers/quote")) wait.startedAt = performance.now();
    return pageFetch(input, init);
  };
  addEventListener("service-widget:unavailable", () => (wait.gaveUpAt = performance.now()), true);
})();`;

describe("<service-widget>: fails open (Chromium)", () => {
  const suite = chromiumSuite();
  const servers: Awaited<ReturnType<typeof listen>>[] = [];
  const origins = { failing: "", hanging: "", down: "", incomplete: "" };

  beforeAll(async () => {
    const failing = await listen(
      preflightOr(() =>
        Response.json(
          { error: { type: "api_error", code: "service_unavailable", message: "down" } },
          { status: 503, headers: CORS },
        ),
      ),
    );
    const hanging = await listen(preflightOr(() => new Promise<Response>(() => {})));
    // 200 but no disclosure and no readable token: never shown half.
    const incomplete = await listen(
      preflightOr(() =>
        Response.json({ quoteId: "quo_incomplete", feeCents: 390, currency: "USD" }, { headers: CORS }),
      ),
    );
    const closed = await listen(() => new Response(null));
    await closed.close();
    servers.push(failing, hanging, incomplete);
    Object.assign(origins, {
      failing: failing.origin,
      hanging: hanging.origin,
      down: closed.origin,
      incomplete: incomplete.origin,
    });
  });
  afterAll(() => Promise.all(servers.map((server) => server.close())));

  it("control: the layout-shift measurement does see an offer pushing the page down", () =>
    withCheckout(suite, {}, async (tab) => {
      await waitForRole(tab, "checkbox", /purchase protection/i);
      await waitFor(async () => (await tab.observed()).shifts.length > 0, { what: "a layout-shift entry" });
      assert.ok(
        (await tab.observed()).shifts.some((shift) => shift.byWidget),
        "the shift is attributed to the widget",
      );
    }));

  it("script blocked (e.g. by a content blocker): nothing rendered, no shift, no error", () =>
    withCheckout(suite, { block: suite.stack.scriptUrl }, async (tab) => {
      await assertNothingShown(tab);
      assert.equal(quoteRequests(tab).length, 0);
      assert.deepEqual((await tab.observed()).events, []);
      for (const line of tab.console) assert.match(line.text, /ERR_BLOCKED_BY_CLIENT/);
    }));

  const failures: { name: string; options: () => CheckoutOptions; reason: string }[] = [
    {
      name: "API blocked by the client",
      reason: "network",
      options: () => ({ block: `${suite.stack.widgetOrigin}/api/v1/offers/quote` }),
    },
    {
      name: "API down (connection refused)",
      reason: "network",
      options: () => ({ attributes: widgetAttributes(suite.stack, { "api-base": `${origins.down}/api/v1` }) }),
    },
    {
      name: "4xx from the API (unknown program)",
      reason: "resource_missing",
      options: () => ({ attributes: widgetAttributes(suite.stack, { "program-id": "prog_does_not_exist" }) }),
    },
    {
      name: "5xx from the API",
      reason: "service_unavailable",
      options: () => ({ attributes: widgetAttributes(suite.stack, { "api-base": `${origins.failing}/api/v1` }) }),
    },
    {
      name: "an incomplete offer (no disclosure, no token)",
      reason: "invalid_response",
      options: () => ({ attributes: widgetAttributes(suite.stack, { "api-base": `${origins.incomplete}/api/v1` }) }),
    },
  ];
  for (const failure of failures) {
    it(`${failure.name}: unavailable {reason: ${failure.reason}}, nothing shown`, () =>
      withCheckout(suite, failure.options(), async (tab) => {
        const [event] = await waitForEvent(tab, "unavailable");
        assert.deepEqual(event.detail, { reason: failure.reason });
        await assertNothingShown(tab);
      }));
  }

  it("an API that never answers: gives up after 3 s with unavailable {reason: timeout}", () =>
    withCheckout(
      suite,
      {
        attributes: widgetAttributes(suite.stack, { "api-base": `${origins.hanging}/api/v1` }),
        initScript: MEASURE_QUOTE_WAIT,
      },
      async (tab) => {
        const [event] = await waitForEvent(tab, "unavailable");
        assert.deepEqual(event.detail, { reason: "timeout" });
        const { startedAt, gaveUpAt } = await tab.page.evaluate(
          () => (window as unknown as { __quoteWait: QuoteWait }).__quoteWait,
        );
        assert.ok(
          startedAt !== undefined && gaveUpAt !== undefined,
          "the quote request and the give-up were both seen",
        );
        const waited = gaveUpAt - startedAt;
        // The widget arms its 3 s timer just before it calls fetch, where this clock starts; on a loaded machine the
        // gap between the two can be more than the page clock's coarsening, so allow 100 ms.
        assert.ok(waited >= 2_900 && waited < 6_000, `gave up after ${Math.round(waited)} ms of waiting`);
        await assertNothingShown(tab);
      },
    ));
});
