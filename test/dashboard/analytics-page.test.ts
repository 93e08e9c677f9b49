// The Analytics page in Chromium over the process `npm run demo` starts (the demo merchant's owner signs in with the
// link the demo prints; `npm run build` first): the demo's sample order, protected today with a claim filed on it, in
// the last 30 days' tiles against the 30 days before; the bar chart with its table; claims by reason; a from–to period
// by month; a refused period said next to its field; the CSV download of the same series. axe-core 0; screenshots at
// 390 and 1280 px under test-artifacts/dashboard/analytics-*.
import { describe, it, beforeAll } from "vitest";
import assert from "node:assert/strict";
import { text } from "node:stream/consumers";
import type { Page } from "playwright-core";
import type { DemoProcess } from "../support/demo-process.ts";
import { demoBrowserSuite } from "../support/demo-browser.ts";

describe("the Analytics page (Chromium, `npm run demo`)", () => {
  const suite = demoBrowserSuite({ screenshots: "analytics-" });
  const { hydrated, load, check } = suite;
  let demo: DemoProcess;
  let page: Page;
  beforeAll(() => {
    ({ demo, page } = suite);
  });
  /** A tile's three lines: the figure, the previous period's and the change. */
  const tile = (label: string) => page.locator(`h3:text-is("${label}")`).locator("xpath=..").innerText();

  it("shows the period's figures against the previous period, the series with its table, claims by reason and the CSV", async () => {
    const link = demo.output.match(/\/dashboard\/sign-in\/[A-Za-z0-9_-]{43}/)![0];
    await load(link);
    await Promise.all([page.waitForURL(`${demo.origin}/dashboard`), page.click("button:has-text('Sign in')")]);
    await hydrated();

    await load("/dashboard");
    await Promise.all([
      page.waitForURL(`${demo.origin}/dashboard/analytics`),
      page.click("nav a:text-is('Analytics')"),
    ]);
    await hydrated();
    // The demo's four protected orders (its sample order today, three more in the last 17 days: $129.99 + $84.50 +
    // $249.00 + $56.00), two claims, one approved and paid $84.50; nothing in the 30 days before.
    assert.deepEqual((await tile("Offers shown")).split("\n").filter(Boolean), [
      "Offers shown",
      "4",
      "Before: 0 · change +4",
    ]);
    assert.match(await tile("Attach rate by orders"), /100\.0 %\s+Before: — · change —/);
    assert.match(await tile("Protected order value"), /\$519\.49\s+Before: \$0\.00 · change \+\$519\.49/);
    // Fees: the demo's buyers paid all $8.12; the merchant paid for none of its orders.
    assert.match(await tile("Fees buyers paid"), /\$8\.12\s+Before: \$0\.00 · change \+\$8\.12/);
    assert.match(await tile("Protection you paid for"), /\$0\.00\s+Before: \$0\.00 · change ±\$0\.00/);
    assert.match(await tile("Claims filed"), /2\s+Before: 0/);
    assert.match(await tile("Claim rate"), /50\.0 %/);
    assert.match(await tile("Amount paid"), /\$84\.50/);
    assert.match(await tile("Loss ratio"), /1040\.6 %/);
    assert.ok(await page.isVisible("text=0 abandoned offers (neither accepted nor declined) are in the denominators"));
    // The charts' numbers: 30 daily rows, their protected orders summing to the tile's, their fees to the fee tiles'.
    await page.click("summary:has-text('The numbers behind “Protected orders in USD per period”')");
    const rows = page.locator("[aria-label='Protected orders in USD per period'] tbody tr");
    assert.equal(await rows.count(), 30);
    const perDay = await rows.locator("td:nth-child(2)").allInnerTexts();
    assert.equal(
      perDay.map(Number).reduce((a, b) => a + b, 0),
      4,
    );
    await page.click("summary:has-text('The numbers behind “Fees in USD per period”')");
    const feeRows = page.locator("[aria-label='Fees in USD per period'] tbody tr");
    assert.deepEqual(await page.locator("[aria-label='Fees in USD per period'] th").allInnerTexts(), [
      "Period from",
      "Paid by buyers",
      "Paid by you",
    ]);
    const cents = async (column: number) =>
      (await feeRows.locator(`td:nth-child(${column})`).allInnerTexts())
        .map((shown) => Math.round(Number(shown.replace(/[$,]/g, "")) * 100))
        .reduce((a, b) => a + b, 0);
    assert.deepEqual([await cents(2), await cents(3)], [812, 0]);
    assert.deepEqual(await page.locator("svg[role=img] > title").allTextContents(), [
      "Protected orders in USD per period",
      "Fees in USD per period",
    ]);
    // A tile's comparison breaks between its two parts only, never inside "±$0.00" (at 390 px too).
    const parts = page.locator('h3:text-is("Protection you paid for") >> xpath=.. >> p span');
    await page.setViewportSize({ width: 390, height: 900 });
    assert.deepEqual(await parts.allInnerTexts(), ["Before: $0.00", "change ±$0.00"]);
    for (const part of await parts.all())
      assert.equal(await part.evaluate((span) => span.getClientRects().length), 1, await part.innerText());
    await page.setViewportSize({ width: 1280, height: 900 });
    assert.deepEqual(
      await page.locator("[aria-label='Claims filed by reason'] tbody tr").first().locator("td").allInnerTexts(),
      ["Damaged in transit", "2", "0"],
    );
    await check("last-30-days");

    // The CSV: the same series, one row per day, through the dashboard's own route (no API key).
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.click("a:has-text('Download the series (CSV)')"),
    ]);
    const csv = (await text(await download.createReadStream())).trim().split("\r\n");
    assert.equal(csv.length, 31);
    assert.match(csv[0], /^period_start,currency,offers_shown,confirmed,/);
    assert.equal(
      csv.slice(1).reduce((sum, line) => sum + Number(line.split(",")[3]), 0),
      4,
    );

    // A from–to period by month, in the URL: one bucket per month; a day before the first is refused next to its field.
    const today = new Date().toISOString().slice(0, 10);
    // 60 days back: past the demo's orders (made within the last 17 days) on any day of the year, and over 2–3 months.
    const from = new Date(Date.parse(today) - 60 * 86_400_000).toISOString().slice(0, 10);
    await page.fill("input[name=from]", from);
    await page.fill("input[name=to]", today);
    await page.selectOption("select[name=interval]", "month");
    await Promise.all([page.waitForURL(/interval=month/), page.click("button:has-text('Show')")]);
    await hydrated();
    const asked = new URL(page.url()).searchParams;
    assert.deepEqual([asked.get("from"), asked.get("to"), asked.get("interval")], [from, today, "month"]);
    const monthOf = (day: string) => Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7));
    const months = monthOf(today) - monthOf(from) + 1;
    // Remix swaps the page in a moment after the URL changes: wait for the month buckets before reading the page.
    await page.waitForFunction(
      (count) =>
        document.querySelectorAll("[aria-label='Protected orders in USD per period'] tbody tr").length === count,
      months,
    );
    assert.match(await tile("Protected order value"), /\$519\.49/);
    await check("from-to-month");
    // Choosing a ready-made period again clears the days, which would otherwise win.
    await page.selectOption("select[name=days]", "7");
    await Promise.all([page.waitForURL(/days=7/), page.click("button:has-text('Show')")]);
    await hydrated();
    const weekAgo = new Date(Date.parse(today) - 6 * 86_400_000).toISOString().slice(0, 10);
    await page.waitForSelector(`text=${weekAgo} to ${today} (UTC)`);
    assert.equal(new URL(page.url()).searchParams.get("from"), "");
    assert.equal(await page.inputValue("input[name=from]"), "");
    assert.equal(await page.inputValue("select[name=days]"), "7");

    await load(`/dashboard/analytics?from=${today}&to=2020-01-01`);
    assert.ok(await page.isVisible("text=Choose a day on or after the first day."));
    await check("refused");
  }, 120_000);
});
