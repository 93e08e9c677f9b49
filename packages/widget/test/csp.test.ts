// Strict Content-Security-Policy pages, served with the header. Allowed: script-src the widget host (or a nonce,
// with the published SRI hash), connect-src the widget/API host, an inline style-src → the offer renders.
// Not allowed → fails closed: nothing rendered, nothing thrown.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { checkoutPage, element, widgetAttributes } from "../../../test/support/widget/stack.ts";
import { quoteRequests, waitForEvent, waitForRole } from "../../../test/support/widget/browser.ts";
import { assertNothingShown } from "../../../test/support/widget/fail-open.ts";
import { chromiumSuite, scriptTag, withCheckout } from "../../../test/support/widget/suite.ts";
import { DIST } from "../build.ts";

const NONCE = "c3RyaWN0LWNzcC10ZXN0";
const strict = (script: string, connect: string) => ({
  "Content-Security-Policy": `default-src 'none'; script-src ${script}; connect-src ${connect}; style-src 'unsafe-inline'; base-uri 'none'; require-trusted-types-for 'script'`,
});

describe("<service-widget>: strict CSP (Chromium)", () => {
  const suite = chromiumSuite();

  it("allowed by host: script-src and connect-src the widget host, inline styles → the offer renders", () =>
    withCheckout(suite, { headers: strict(suite.stack.widgetOrigin, suite.stack.widgetOrigin) }, async (tab) => {
      await waitForRole(tab, "checkbox", /purchase protection/i);
      assert.deepEqual(tab.pageErrors, []);
      assert.deepEqual(tab.console, []);
    }));

  it("allowed by nonce, with the published SRI hash on the script tag → the offer renders", () => {
    const integrity = fs.readFileSync(path.join(DIST, "service-widget.js.sri"), "utf8").trim();
    const script = scriptTag(suite.stack, ` nonce="${NONCE}" integrity="${integrity}" crossorigin="anonymous"`);
    const html = checkoutPage({ widget: element(widgetAttributes(suite.stack)), script });
    return withCheckout(suite, { html, headers: strict(`'nonce-${NONCE}'`, suite.stack.widgetOrigin) }, async (tab) => {
      await waitForRole(tab, "checkbox", /purchase protection/i);
      assert.deepEqual(tab.console, []);
    });
  });

  it("widget host not in script-src → nothing rendered, nothing thrown", () =>
    withCheckout(suite, { headers: strict("'self'", suite.stack.widgetOrigin) }, async (tab) => {
      await assertNothingShown(tab);
      assert.equal(quoteRequests(tab).length, 0);
    }));

  it("API host not in connect-src → nothing rendered, nothing thrown, unavailable {reason: network}", () =>
    withCheckout(suite, { headers: strict(suite.stack.widgetOrigin, "'self'") }, async (tab) => {
      const [event] = await waitForEvent(tab, "unavailable");
      assert.deepEqual(event.detail, { reason: "network" });
      await assertNothingShown(tab);
    }));
});
