// docs/api.md "Who pays" at the storefront: a split program's offer shows and prices the buyer's part; a merchant-paid
// program shows its notice ("Protected by {store}", the terms link, the disclosure): no box, no price, no choice to
// record or confirm, and the page's order goes on untouched (the merchant's server confirms it). French, axe-core and
// screenshots at 390 and 1280 px.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { checkoutPage, element, widgetAttributes } from "../../../test/support/widget/stack.ts";
import {
  axeViolations,
  documentScrollWidth,
  eventsOf,
  everythingInTheDom,
  findByRole,
  waitForEvent,
  waitForRole,
  type TestPage,
} from "../../../test/support/widget/browser.ts";
import { waitFor } from "../../../test/support/wait.ts";
import { chromiumSuite, scriptTag, withCheckout } from "../../../test/support/widget/suite.ts";

const SCREENSHOTS = path.resolve(import.meta.dirname, "../../../test-artifacts/widget-payer");
import type { Payer } from "../../../server/vocabulary/plans.ts";

describe("<service-widget>: who pays (Chromium)", () => {
  const suite = chromiumSuite();
  /** The attributes of a widget for a new merchant whose program is paid as given. */
  async function paidBy(payer: Payer, buyerShareBps: number | null) {
    const { api } = suite.stack;
    const merchant = await api.createMerchant(`Paid by ${payer}`);
    await api.database.db.run("UPDATE protection_programs SET payer = ?, buyer_share_bps = ? WHERE id = ?", [
      payer,
      buyerShareBps,
      merchant.programId,
    ]);
    return widgetAttributes(suite.stack, {
      "publishable-key": merchant.publishableKey,
      "program-id": merchant.programId,
    });
  }

  it("a split program: the box offers the buyer's part, and the offer event carries it", async () => {
    // $129.99 at 3 %: a fee of 389.97 → $3.90; the buyer pays 25 % of it, 97.5 → 98 cents (half up).
    const attributes = await paidBy("split", 2_500);
    await withCheckout(suite, { attributes }, async (tab) => {
      const box = await waitForRole(tab, "checkbox", /purchase protection/i);
      assert.equal(box.name, "Add purchase protection for $0.98");
      const [offer] = await waitForEvent(tab, "offer");
      assert.equal(offer.detail.feeCents, 98);
    });
  });

  /** A checkout page whose content is in a main landmark, as a shop's is, with the widget and its script. */
  const landmarkedPage = (attributes: Record<string, string>) =>
    checkoutPage({ widget: element(attributes), script: scriptTag(suite.stack) })
      .replace("<body>", "<body><main>")
      .replace("</body>", "</main></body>");

  /** The notice of a merchant-paid program in `locale`: its sentence and terms link, no box, no offer, no confirm. */
  async function showsNotice(tab: TestPage, notice: RegExp, termsLink: RegExp, name: string) {
    await waitFor(async () => notice.test(await everythingInTheDom(tab)), { what: String(notice) });
    await waitForRole(tab, "link", termsLink);
    assert.equal(await findByRole(tab, "checkbox"), undefined, "no box to tick");
    const dom = await everythingInTheDom(tab);
    assert.doesNotMatch(
      dom,
      /purchase protection for|protection d’achat pour|No thanks|Non merci/,
      "no offer, no decline",
    );
    assert.deepEqual(await axeViolations(tab), []);
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    for (const width of [390, 1280]) {
      await tab.page.setViewportSize({ width, height: 700 });
      await tab.page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
      assert.ok((await documentScrollWidth(tab)) <= width, `${name} fits ${width} px`);
    }
    // Nothing to record or confirm: no offer or choice event, confirm() refused, the page's order goes on.
    const refused = await tab.page.evaluate(() =>
      (document.querySelector("service-widget") as HTMLElement & { confirm(): Promise<string> })
        .confirm()
        .catch((error: Error) => error.message),
    );
    assert.equal(refused, "not_accepted");
    await tab.page.click("#pay");
    for (const event of ["offer", "choice", "accepted", "unavailable"])
      assert.deepEqual(await eventsOf(tab, event), [], `no ${event} event`);
    assert.deepEqual(tab.pageErrors, []);
  }

  it("a merchant-paid program: the notice 'Protected by {store}' with the terms link, no box, no price, nothing confirmed; axe-core 0", async () => {
    const attributes = await paidBy("merchant", null);
    await withCheckout(suite, { html: landmarkedPage(attributes) }, (tab) =>
      showsNotice(tab, /^Protected by Paid by merchant$/m, /^See what is covered$/, "merchant-paid-en"),
    );
  });

  it("a merchant-paid program in French: « Protégé par {store} »", async () => {
    const attributes = await paidBy("merchant", null);
    await withCheckout(suite, { html: landmarkedPage({ ...attributes, locale: "fr" }) }, (tab) =>
      showsNotice(tab, /^Protégé par Paid by merchant$/m, /^Voir ce qui est couvert$/, "merchant-paid-fr"),
    );
  });
});
