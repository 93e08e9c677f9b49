// The Program page's "Who pays for protection" in Chromium over the process `npm run demo` starts (the demo merchant's
// owner signs in with the link the demo prints; `npm run build` first): the buyer, the merchant or a split with the
// buyer's share, the EU/UK recommendation, the fee preview split as the quotes split it, a refused share said next to
// its field and changing nothing, and the audit entry naming the change. axe-core 0; screenshots at 390 and 1280 px
// under test-artifacts/dashboard/program-payer-*.
import { describe, it, beforeAll } from "vitest";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { DemoProcess } from "../support/demo-process.ts";
import { demoBrowserSuite } from "../support/demo-browser.ts";

describe("the Program page's who pays (Chromium, `npm run demo`)", () => {
  const suite = demoBrowserSuite({ screenshots: "program-payer-" });
  const { row, rows, merchantId, hydrated, load, check } = suite;
  let demo: DemoProcess;
  let page: Page;
  beforeAll(() => {
    ({ demo, page } = suite);
  });

  const program = () =>
    row<{ payer: string; buyer_share_bps: number | null; rate_bps: number }>(
      "SELECT payer, buyer_share_bps, rate_bps FROM protection_programs WHERE merchant_id = ? AND mode = 'test' AND active = 1",
      merchantId(),
    );
  const save = () => page.click("button:has-text('Save the terms')");
  // Polaris draws its own radio over the input: a person clicks the label.
  const choose = (label: string) => page.click(`label:has-text('${label}')`);

  it("offers the buyer, the merchant or a split, recommends paying in the EU and UK, refuses a bad share, saves and audits the change", async () => {
    const link = demo.output.match(/\/dashboard\/sign-in\/[A-Za-z0-9_-]{43}/)![0];
    await load(link);
    await Promise.all([page.waitForURL(`${demo.origin}/dashboard`), page.click("button:has-text('Sign in')")]);
    await hydrated();

    await load("/dashboard/program");
    assert.ok(await page.isVisible("legend:has-text('Who pays for protection')"));
    assert.ok(
      await page.isChecked("input[name=payer][value=buyer]"),
      "the buyer pays until the merchant says otherwise",
    );
    assert.ok(
      await page.isVisible(
        "text=In the EU and UK the seller carries transit risk until delivery: consider paying for protection yourself rather than selling buyers cover against it.",
      ),
    );
    assert.equal(await page.locator("input[name=buyerSharePercent]").count(), 0, "the share only with split");
    // docs/api.md "Who pays": the widget shows the notice; the merchant's server confirms each order.
    assert.ok(
      await page.isVisible(
        "text=The widget shows buyers a notice that your store protects the order, with no checkbox or price; confirm every order from your server with the headless API.",
      ),
    );

    // Split without a share, then with a share out of range: said next to the field, nothing saved.
    const before = program();
    await choose("Split (the buyer pays a share)");
    await page.fill("input[name=buyerSharePercent]", "");
    await save();
    await page.waitForSelector("#buyerSharePercentError:has-text('Enter the share of the fee the buyer pays')");
    assert.deepEqual(program(), before);
    await page.fill("input[name=buyerSharePercent]", "100");
    await save();
    await page.waitForSelector("#buyerSharePercentError:has-text('at most 99.99 %')");
    assert.deepEqual(program(), before);
    await check("refused");

    // 40 %: saved as 4,000 bps; the preview splits the fee of the sample order as quotes do. The demo's program takes
    // 3 % (rate_bps 300): $100.00 costs $3.00, the buyer pays 40 % = $1.20 and the merchant the other $1.80.
    assert.equal(before.rate_bps, 300);
    await page.fill("input[name=buyerSharePercent]", "40");
    await save();
    await page.waitForSelector("text=Saved: offers quoted from now on use these terms.");
    assert.deepEqual({ ...program() }, { ...before, payer: "split", buyer_share_bps: 4_000 });
    await load("/dashboard/program?sample=%24100");
    assert.ok(await page.isChecked("input[name=payer][value=split]"));
    assert.equal(await page.inputValue("input[name=buyerSharePercent]"), "40");
    await page.waitForSelector(
      "text=for a fee of $3.00 under the saved terms: the buyer pays $1.20 and you pay $1.80.",
    );
    await check("split");

    // The merchant pays: the share is dropped; the preview says the buyer pays nothing.
    await choose("You, the merchant");
    await save();
    await page.waitForSelector("text=Saved: offers quoted from now on use these terms.");
    assert.deepEqual({ ...program() }, { ...before, payer: "merchant", buyer_share_bps: null });
    await load("/dashboard/program?sample=%24100");
    await page.waitForSelector("text=for a fee of $3.00 under the saved terms, which you pay: the buyer pays nothing.");
    await check("merchant");

    // Each save is one audit entry that names the payer.
    const audits = rows<{ detail: string }>(
      "SELECT detail FROM merchant_audit_log WHERE merchant_id = ? AND action = 'program.updated' ORDER BY created_at, id",
      merchantId(),
    );
    assert.deepEqual(
      audits.map(({ detail }) => (({ payer, buyerShareBps }) => [payer, buyerShareBps])(JSON.parse(detail))),
      [
        ["split", 4_000],
        ["merchant", null],
      ],
    );
  }, 300_000);
});
