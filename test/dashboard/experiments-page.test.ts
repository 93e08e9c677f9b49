// The Offer experiments page (docs/api.md "Offer experiments") in Chromium over the process `npm run demo` starts
// (`npm run build` first): off by default, a refused variant said next to its field and starting nothing, an
// experiment started from the form, rolled out (the program takes the variant's rate and wording, the experiment ends,
// audited), another started and stopped, and the Analytics page listing them. axe-core 0; screenshots at 390 and
// 1280 px under test-artifacts/dashboard/experiments-*.
import { describe, it, beforeAll } from "vitest";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { DemoProcess } from "../support/demo-process.ts";
import { demoBrowserSuite } from "../support/demo-browser.ts";

describe("the Offer experiments page (Chromium, `npm run demo`)", () => {
  const suite = demoBrowserSuite({ screenshots: "experiments-" });
  const { row, rows, merchantId, hydrated, load, check } = suite;
  let demo: DemoProcess;
  let page: Page;
  beforeAll(() => {
    ({ demo, page } = suite);
  });

  const experiments = () =>
    rows<{ state: string; variants: string; rolled_out_variant: string | null }>(
      "SELECT state, variants, rolled_out_variant FROM offer_experiments WHERE merchant_id = ? AND mode = 'test' ORDER BY started_at, id",
      merchantId(),
    );
  const program = () =>
    row<{ rate_bps: number; offer_wording: string }>(
      "SELECT rate_bps, offer_wording FROM protection_programs WHERE merchant_id = ? AND mode = 'test' AND active = 1",
      merchantId(),
    );
  const start = () => page.click("button:has-text('Start the experiment')");

  it("starts nothing by itself, refuses a bad variant, starts, rolls out, stops, and shows the results in Analytics", async () => {
    const link = demo.output.match(/\/dashboard\/sign-in\/[A-Za-z0-9_-]{43}/)![0];
    await load(link);
    await Promise.all([page.waitForURL(`${demo.origin}/dashboard`), page.click("button:has-text('Sign in')")]);
    await hydrated();

    // The Program page links to it; off by default: no experiment, every buyer offered the program.
    await load("/dashboard/program");
    await Promise.all([page.waitForURL(`${demo.origin}/dashboard/experiments`), page.click("text=Offer experiments")]);
    await hydrated();
    await page.waitForSelector("h2:has-text('Start an experiment')");
    assert.deepEqual(experiments(), []);
    assert.deepEqual({ ...program() }, { rate_bps: 300, offer_wording: "standard" });
    await check("off");

    // A rate outside half to one and a half times the program's 3 %: said next to the field, nothing started.
    await page.fill("input[name=variant2Rate]", "9");
    await start();
    await page.waitForSelector("#variant2RateError:has-text('Choose a rate from 1.5 % to 4.5 %')");
    assert.deepEqual(experiments(), []);
    // The same terms as the program: refused too.
    await page.fill("input[name=variant2Rate]", "3");
    await page.selectOption("select[name=variant2Wording]", "standard");
    await start();
    await page.waitForSelector("#variant2RateError:has-text('same rate and wording')");
    assert.deepEqual(experiments(), []);
    await check("refused");

    // A: the program; B: 3.6 %, "Protect this order"; C: 2.4 %, the transit wording.
    await page.fill("input[name=variant2Rate]", "3.6");
    await page.selectOption("select[name=variant2Wording]", "protect_order");
    await page.selectOption("select[name=variant3Kind]", "variant");
    await page.fill("input[name=variant3Rate]", "2.4");
    await page.selectOption("select[name=variant3Wording]", "cover_transit");
    await start();
    await page.waitForSelector("text=The experiment is running: each cart gets one variant from now on.");
    const [started] = experiments();
    assert.equal(started.state, "running");
    assert.deepEqual(JSON.parse(started.variants), [
      { key: "A", control: true, rateBps: null, offerWording: null },
      { key: "B", control: false, rateBps: 360, offerWording: "protect_order" },
      { key: "C", control: false, rateBps: 240, offerWording: "cover_transit" },
    ]);
    await page.waitForSelector("text=Too early to call");
    assert.equal(await page.locator("text=Start the experiment").count(), 0, "one running experiment at a time");
    await check("running");

    // Roll B out: asked first, then the program takes 3.6 % and its wording, and the experiment ends.
    await page.click("button:has-text('Roll out B')");
    await page.click("button:has-text('Yes, roll out B')");
    await page.waitForSelector("text=Variant B is rolled out: your program offers it from now on.");
    assert.deepEqual({ ...program() }, { rate_bps: 360, offer_wording: "protect_order" });
    assert.deepEqual(
      experiments().map((each) => [each.state, each.rolled_out_variant]),
      [["rolled_out", "B"]],
    );
    await page.waitForSelector("td:has-text('Rolled out B')");
    await check("rolled-out");

    // Another, against the new terms (3.6 %: 1.8–5.4 %), then stopped: the program stays as it is.
    await page.selectOption("select[name=variant2Wording]", "standard");
    await page.fill("input[name=variant2Rate]", "3");
    await start();
    await page.waitForSelector("text=The experiment is running");
    await page.click("button:has-text('Stop the experiment')");
    await page.click("button:has-text('Yes, stop it')");
    await page.waitForSelector("text=Stopped: offers use your program's own terms again.");
    assert.deepEqual(
      experiments().map((each) => each.state),
      ["rolled_out", "stopped"],
    );
    assert.deepEqual({ ...program() }, { rate_bps: 360, offer_wording: "protect_order" });

    // Each change is audited.
    assert.deepEqual(
      rows<{ action: string }>(
        "SELECT action FROM merchant_audit_log WHERE merchant_id = ? AND action LIKE 'offer_experiment.%' ORDER BY created_at, id",
        merchantId(),
      ).map((each) => each.action),
      [
        "offer_experiment.started",
        "offer_experiment.rolled_out",
        "offer_experiment.started",
        "offer_experiment.stopped",
      ],
    );

    // Analytics lists both, with their variants and the reading.
    await load("/dashboard/analytics");
    await page.waitForSelector("h2:has-text('Offer experiments')");
    assert.equal(await page.locator("[aria-label^='Variants of experiment']").count(), 2);
    assert.ok(await page.isVisible("text=variant B rolled out"));
    await check("analytics");
  }, 300_000);
});
