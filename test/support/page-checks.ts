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

/**
 * Full-page screenshots of `page` as it is now at each of PAGE_WIDTHS, written to `file(width)`: its own width first
 * (no viewport call that leaves the size as it was), then back to its viewport. `atWidth` runs at each width before
 * the screenshot.
 */
export async function screenshotAtWidths(
  page: Page,
  file: (width: number) => string,
  atWidth: (width: number) => Promise<void> = async () => {},
) {
  const viewport = page.viewportSize() ?? { width: 1280, height: 900 };
  const widths = [...PAGE_WIDTHS].sort((a, b) => Number(b === viewport.width) - Number(a === viewport.width));
  for (const width of widths) {
    if (width !== page.viewportSize()?.width) await page.setViewportSize({ width, height: viewport.height });
    await atWidth(width);
    await page.screenshot({ path: file(width), fullPage: true });
  }
  if (page.viewportSize()?.width !== viewport.width) await page.setViewportSize(viewport);
}

/** Checks `page` as it is now and writes `<dir>/<name>-<width>.png`, 900 px high; leaves it at 1280 × 900 px. */
export async function checkPage(page: Page, name: string, options: { dir: string; pageErrors?: string[] }) {
  assert.deepEqual(await axeViolations({ page } as TestPage), [], `${name}: axe-core`);
  const desk = { width: 1280, height: 900 };
  const viewport = page.viewportSize();
  if (viewport?.width !== desk.width || viewport.height !== desk.height) await page.setViewportSize(desk);
  await screenshotAtWidths(
    page,
    (width) => path.join(options.dir, `${name}-${width}.png`),
    async (width) =>
      assert.ok(
        (await page.evaluate(() => document.documentElement.scrollWidth)) <= width,
        `${name}: no sideways scroll at ${width} px`,
      ),
  );
  if (options.pageErrors) assert.deepEqual(options.pageErrors, [], `${name}: no page errors`);
}
