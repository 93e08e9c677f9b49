// Over the process `npm run demo` starts: the claims console's printed sign-in link signs the demo admin in, and the
// claim waiting in the queue (the sample order's) shows the buyer's photo in place — a thumbnail and the large view,
// drawn by Chromium — with its order beside it. axe-core on the claim page.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { axeViolations, launchBrowser, type TestPage } from "../support/widget/browser.ts";
import { demoEnvironment, startDemo, type DemoProcess } from "../support/demo-process.ts";

describe("the demo's claims console shows the sample claim's evidence", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-demo-console-"));
  let demo: DemoProcess;
  let browser: Browser;

  beforeAll(async () => {
    [demo, browser] = await Promise.all([startDemo(demoEnvironment(dir)), launchBrowser()]);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    demo?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("the printed console link → the queue → the waiting claim's photo, drawn inline", async () => {
    const link = demo.output.match(/Claims console:\s+(http:\/\/\S+\/ops\/sign-in\/[\w-]+)/)?.[1];
    assert.ok(link, `the demo prints the console's sign-in link:\n${demo.output}`);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(link);
    await Promise.all([page.waitForURL(`${demo.origin}/ops`), page.click("button:has-text('Sign in')")]);
    await page.click("tbody tr a[href^='/ops/claims/'] >> nth=0");
    await page.waitForSelector("#files-title");
    const drawn = () =>
      page.waitForFunction(
        (css) => {
          const images = [...document.querySelectorAll<HTMLImageElement>(css)];
          return images.length > 0 && images.every((image) => image.complete && image.naturalWidth > 0);
        },
        ".evidence-grid img, .evidence-large img",
        { timeout: 10_000 },
      );
    await drawn();
    assert.match((await page.textContent(".evidence-grid"))!, /parcel\.png/);
    assert.match((await page.textContent("section[aria-labelledby='order-title']"))!, /The store's own cart/);
    assert.deepEqual(await axeViolations({ page } as TestPage), []);
    await Promise.all([page.waitForURL(/\/view$/), page.click(".evidence-grid a.evidence-thumb >> nth=0")]);
    await drawn();
    assert.equal(
      await page.evaluate(() => document.querySelector<HTMLImageElement>(".evidence-large img")!.naturalWidth),
      320,
    );
    await context.close();
  });
});
