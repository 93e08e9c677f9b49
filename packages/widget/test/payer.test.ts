// docs/api.md "Who pays" at the storefront: a split program's offer shows and prices the buyer's part; a merchant-paid
// program is not offered (the widget cannot show its notice yet): the API refuses the page's quote and nothing shows.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { widgetAttributes } from "../../../test/support/widget/stack.ts";
import { waitForEvent, waitForRole } from "../../../test/support/widget/browser.ts";
import { assertNothingShown } from "../../../test/support/widget/fail-open.ts";
import { chromiumSuite, withCheckout } from "../../../test/support/widget/suite.ts";
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

  it("a merchant-paid program: unavailable {reason: payer_requires_server_confirm}, nothing shown", async () => {
    const attributes = await paidBy("merchant", null);
    await withCheckout(suite, { attributes }, async (tab) => {
      const [event] = await waitForEvent(tab, "unavailable");
      assert.deepEqual(event.detail, { reason: "payer_requires_server_confirm" });
      await assertNothingShown(tab);
    });
  });
});
