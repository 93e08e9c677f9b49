// The from–to UTC days of the Purchases and Analytics pages' filters: both loaders read them with the one validator
// (app/dashboard/list-filters.server.ts), so a day the calendar lacks (2026-02-30) is refused with the same sentence on
// both, a leap day is taken, and both pages show the sentence at the field it belongs to.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { renderDashboardPage } from "../support/dashboard-page.ts";
import { loadPurchases } from "../../app/dashboard/pages/purchases.server.ts";
import { loadAnalytics } from "../../app/dashboard/pages/analytics.server.ts";
import type { PageContext } from "../../app/dashboard/viewer.ts";

const NO_SUCH_DAY = "There is no 2026-02-30: use a date such as 2026-11-25.";
const NOT_A_DAY = "Use a date such as 2026-11-25.";

describe("the dashboard's from–to UTC day filters", () => {
  let t: TestApi;
  beforeAll(async () => (t = await startTestApi({ dialect: "sqlite" })));
  afterAll(() => t.close());

  const context = (path: string) =>
    ({
      runtime: { db: t.database.db, services: t.services },
      viewer: { merchantId: t.merchant.merchantId, mode: "test" },
      request: new Request(`http://app.test${path}`),
    }) as unknown as PageContext;

  it("Purchases refuses a day the calendar lacks, says which, and takes a leap day", async () => {
    assert.deepEqual((await loadPurchases(context("/dashboard/purchases?from=2026-02-30"))).errors, {
      from: NO_SUCH_DAY,
    });
    assert.deepEqual((await loadPurchases(context("/dashboard/purchases?to=2026-02-30"))).errors, { to: NO_SUCH_DAY });
    assert.deepEqual((await loadPurchases(context("/dashboard/purchases?from=yesterday"))).errors, { from: NOT_A_DAY });
    assert.deepEqual((await loadPurchases(context("/dashboard/purchases?from=2024-02-29&to=2024-02-29"))).errors, {});
  });

  it("Analytics refuses a day the calendar lacks, says which, shows the last 30 days instead, and takes a leap day", async () => {
    const refused = await loadAnalytics(context("/dashboard/analytics?from=2026-02-01&to=2026-02-30"));
    assert.deepEqual(refused.errors, { to: NO_SUCH_DAY });
    assert.equal(refused.days, 30);
    assert.deepEqual((await loadAnalytics(context("/dashboard/analytics?from=2026-02-30&to=2026-03-05"))).errors, {
      from: NO_SUCH_DAY,
    });
    assert.deepEqual((await loadAnalytics(context("/dashboard/analytics?from=yesterday&to=2026-03-05"))).errors, {
      from: NOT_A_DAY,
    });
    const leap = await loadAnalytics(context("/dashboard/analytics?from=2024-02-01&to=2024-02-29"));
    assert.deepEqual(leap.errors, {});
    assert.equal(leap.days, null);
    assert.deepEqual(leap.analytics.period, { from: "2024-02-01T00:00:00.000Z", to: "2024-03-01T00:00:00.000Z" });
  });

  it("both pages show the from–to pair as date fields, the refusal at its own field", async () => {
    const pages = [
      {
        file: "dashboard.purchases.tsx",
        path: "/dashboard/purchases",
        data: await loadPurchases(context("/dashboard/purchases?to=2026-02-30")),
        labels: ["Created from (UTC)", "Created to (UTC)"],
      },
      {
        file: "dashboard.analytics.tsx",
        path: "/dashboard/analytics",
        data: await loadAnalytics(context("/dashboard/analytics?from=2026-02-01&to=2026-02-30")),
        labels: ["Or from (UTC day)", "To (UTC day, included)"],
      },
    ];
    for (const { file, path, data, labels } of pages) {
      const html = await renderDashboardPage(data, { file, path });
      for (const label of labels) assert.ok(html.includes(label), `${file}: ${label}`);
      const dateInputs = [...html.matchAll(/<input[^>]*type="date"[^>]*>/g)].map(([input]) => input);
      assert.deepEqual(
        dateInputs.map((input) => /name="(\w+)"/.exec(input)?.[1]),
        ["from", "to"],
        file,
      );
      assert.match(dateInputs[1], /value="2026-02-30"/, `${file}: the refused day is shown again`);
      assert.match(dateInputs[1], /aria-invalid="true"/, file);
      assert.doesNotMatch(dateInputs[0], /aria-invalid="true"/, file);
      assert.ok(html.includes(NO_SUCH_DAY), `${file}: the sentence is on the page`);
    }
  });
});
