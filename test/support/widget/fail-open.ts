import assert from "node:assert/strict";
import { findByRole, isBrowserNetworkLine, type TestPage } from "./browser.ts";
import { staysFalseFor } from "../wait.ts";

/** Failed open: nothing rendered, no space taken, no shift, nothing thrown or written; the page's own button works. */
export async function assertNothingShown(tab: TestPage): Promise<void> {
  await staysFalseFor(async () => (await findByRole(tab, "checkbox")) !== undefined, 400, { what: "an offer" });
  assert.equal(await findByRole(tab, "checkbox"), undefined, "no offer rendered");
  const box = await tab.page.locator("service-widget").boundingBox();
  assert.equal(box?.height ?? 0, 0, "the element takes no space");
  const observed = await tab.observed();
  assert.deepEqual(
    observed.shifts.filter((shift) => shift.byWidget),
    [],
    "no layout shift of the widget or what follows it",
  );
  assert.deepEqual(observed.errors, [], "no uncaught error or rejection");
  assert.deepEqual(tab.pageErrors, []);
  assert.deepEqual(
    tab.console.filter((line) => !isBrowserNetworkLine(line)),
    [],
    "nothing written to the console",
  );
  await tab.page.click("#pay");
}
