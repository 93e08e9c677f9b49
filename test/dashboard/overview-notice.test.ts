// The dashboard overview's notice of buyers who chose protection but got no plan because the merchant's page sent no
// address (confirms refused with customer_email_required in the last 30 days): the overview loader's count, and the
// page both shells render (app/dashboard/pages/OverviewPage.tsx) from it.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { createQuote } from "../support/api-assertions.ts";
import { confirmBody } from "../support/protection-flows.ts";
import { renderDashboardPage } from "../support/dashboard-page.ts";
import { loadOverview, type OverviewData } from "../../app/dashboard/pages/overview.server.ts";
import type { PageContext } from "../../app/dashboard/viewer.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
const TITLE = /(\d+) buyers? chose protection but got no plan: your page sent no buyer e-mail/;

describe.each(DIALECTS)("the overview's notice of buyers without a plan (%s)", (dialect) => {
  let t: TestApi;
  beforeAll(async () => (t = await startTestApi({ dialect })));
  afterAll(() => t.close());

  const overviewOf = (merchantId: string) =>
    loadOverview({
      runtime: { db: t.database.db, services: t.services },
      viewer: { merchantId, mode: "test" },
      request: new Request("http://app.test/dashboard?days=90"),
    } as unknown as PageContext);
  const render = (data: OverviewData) =>
    renderDashboardPage(data, { file: "dashboard._index.tsx", path: "/dashboard" });

  /** A widget confirm without an address: refused, the quote open. Returns what a retry needs. */
  async function refusedConfirm(publishableKey: string, programId: string) {
    const widget = apiClient(t.baseUrl, publishableKey);
    const { quote, token } = await createQuote(widget, programId, { customer_email: undefined });
    const refused = await widget.post("/offers/confirm", confirmBody(quote, token));
    assert.equal(refused.status, 422, refused.text);
    return { widget, quote, token };
  }

  it("counts the refused confirms of the last 30 days that never became a plan, for the merchant and mode only; none, no notice", async () => {
    const merchant = await t.createMerchant("Notice Store");
    const quiet = await overviewOf(merchant.merchantId);
    assert.equal(quiet.buyersWithoutAddress, 0);
    assert.doesNotMatch(await render(quiet), TITLE);

    await refusedConfirm(merchant.publishableKey, merchant.programId); // 31 days before the others: out of the window
    t.clock.advance(31 * DAY_MS);
    await refusedConfirm(merchant.publishableKey, merchant.programId);
    await refusedConfirm(merchant.publishableKey, merchant.programId);
    // Refused, then confirmed with the address: that buyer has a plan, so is not counted.
    const retried = await refusedConfirm(merchant.publishableKey, merchant.programId);
    const confirmed = await retried.widget.post("/offers/confirm", {
      ...confirmBody(retried.quote, retried.token),
      customer_email: "late@example.com",
    });
    assert.equal(confirmed.status, 200, confirmed.text);
    // Another merchant's refusal is not this one's.
    await refusedConfirm(t.merchant.publishableKey, t.merchant.programId);

    const data = await overviewOf(merchant.merchantId);
    assert.equal(data.buyersWithoutAddress, 2);
    const html = await render(data);
    assert.equal(TITLE.exec(html)?.[1], "2");
    assert.ok(html.includes("customer_email"), "says what to pass");
    assert.ok(html.includes("The buyer&#x27;s address"), "names the API reference's section");

    t.clock.advance(31 * DAY_MS);
    assert.equal((await overviewOf(merchant.merchantId)).buyersWithoutAddress, 0, "30 days later it is gone");
  });

  it("says one buyer in the singular", async () => {
    const merchant = await t.createMerchant("Singular Store");
    await refusedConfirm(merchant.publishableKey, merchant.programId);
    const html = await render(await overviewOf(merchant.merchantId));
    assert.match(html, /\b1 buyer chose protection but got no plan/);
  });
});
