// What every people-facing page test checks, at a phone's and a desk's width: axe-core 0 violations, no sideways
// scroll, no uncaught page error, and a full-page screenshot at each width (looked at by hand).
import assert from "node:assert/strict";
import path from "node:path";
import type { Page } from "playwright-core";
import { axeViolations, type TestPage } from "./widget/browser.ts";

export const PAGE_WIDTHS = [390, 1280];

/**
 * Waits until the app's page for the address in the bar is drawn and hydrated (app/root.tsx marks it): after a
 * client-side navigation the URL changes a moment before React draws, and typed before hydration a value can be lost.
 */
export const pageDrawn = (page: Page) =>
  page.waitForFunction(() => document.documentElement.dataset.drawn === location.pathname + location.search);

/** Checks `page` as it is now and writes `<dir>/<name>-<width>.png`; leaves it at 1280 px. */
export async function checkPage(page: Page, name: string, options: { dir: string; pageErrors?: string[] }) {
  assert.deepEqual(await axeViolations({ page } as TestPage), [], `${name}: axe-core`);
  for (const width of PAGE_WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    assert.ok(
      (await page.evaluate(() => document.documentElement.scrollWidth)) <= width,
      `${name}: no sideways scroll at ${width} px`,
    );
    await page.screenshot({ path: path.join(options.dir, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  if (options.pageErrors) assert.deepEqual(options.pageErrors, [], `${name}: no page errors`);
}
