// /demo: the sample checkout page (server/demo-page.ts) as the standalone server composes it — widget assets, the
// demo page with its strict CSP and nonce, the API — opened in Chromium: an offer, opt in, a reference number.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { listen } from "../../../test/support/widget/stack.ts";
import { clickNode, openPage, waitForEvent, waitForRole } from "../../../test/support/widget/browser.ts";
import { waitFor } from "../../../test/support/wait.ts";
import { chromiumSuite } from "../../../test/support/widget/suite.ts";
import { createServerApp } from "../../../server/server-app.ts";
import { DEMO_PATH } from "../../../server/demo-page.ts";

describe("/demo storefront page (Chromium)", () => {
  const suite = chromiumSuite();
  let app: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    const { api } = suite.stack;
    const keys = async () => ({ publishableKey: api.merchant.publishableKey, programId: api.merchant.programId });
    app = await listen(createServerApp({ api: api.api, demoKeys: keys }).fetch);
  });
  afterAll(() => app?.close());

  it("shows an offer under its strict CSP; opting in gives a reference number", async () => {
    const tab = await openPage(suite.browser);
    try {
      const response = await tab.page.goto(app.origin + DEMO_PATH);
      assert.match(response!.headers()["content-security-policy"], /script-src 'self' 'nonce-/);
      await clickNode(tab, await waitForRole(tab, "checkbox", /purchase protection/i));
      const [accepted] = await waitForEvent(tab, "accepted");
      await waitFor(
        async () => (await tab.page.textContent("#events"))?.includes(accepted.detail.referenceNumber as string),
        { what: "event log on the page" },
      );
      assert.deepEqual(tab.pageErrors, []);
      assert.deepEqual(tab.console, []);
    } finally {
      await tab.close();
    }
  });
});
