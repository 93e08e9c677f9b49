// docs/api.md "Offer experiments" at the storefront: under a running experiment each cart's offer comes with its
// variant's price and approved wording, and the box is unticked under every variant, whatever the wording.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { OFFER_WORDINGS } from "@purchase-protection/contract";
import { widgetAttributes } from "../../../test/support/widget/stack.ts";
import { waitForEvent, waitForRole } from "../../../test/support/widget/browser.ts";
import { chromiumSuite, withCheckout } from "../../../test/support/widget/suite.ts";
import { assignVariant, startExperiment } from "../../../server/domain/experiments.ts";

describe("<service-widget>: offer experiments (Chromium)", () => {
  const suite = chromiumSuite();

  it("shows each cart its variant's price and wording, never ticked", async () => {
    const { api } = suite.stack;
    const merchant = await api.createMerchant("Experimenting store");
    const experiment = await api.database.db.transaction((tx) =>
      startExperiment(
        tx,
        api.services,
        { merchantId: merchant.merchantId, mode: "test", actor: { id: "mem_1", email: "o@example.com" }, ip: "" },
        {
          variants: [
            { control: true },
            { control: false, ratePercent: "3.6", offerWording: "protect_order" },
            { control: false, ratePercent: "2.4", offerWording: "cover_transit" },
          ],
        },
      ),
    );
    // $129.99: 3 % is 390 (standard), 3.6 % 468 (protect_order), 2.4 % 312 (cover_transit).
    const expected = {
      A: ["standard", "$3.90"],
      B: ["protect_order", "$4.68"],
      C: ["cover_transit", "$3.12"],
    } as const;
    const seen = new Set<string>();
    for (let i = 0; seen.size < 3; i++) {
      const cartId = `cart-${i}`;
      const key = assignVariant(experiment.id, cartId, ["A", "B", "C"] as const);
      if (seen.has(key)) continue;
      seen.add(key);
      const attributes = await widgetAttributes(suite.stack, {
        "publishable-key": merchant.publishableKey,
        "program-id": merchant.programId,
        "cart-id": cartId,
      });
      await withCheckout(suite, { attributes }, async (tab) => {
        const box = await waitForRole(tab, "checkbox", /\$/);
        const [wording, price] = expected[key];
        assert.equal(box.name, OFFER_WORDINGS[wording].replace("{price}", price), `variant ${key}`);
        assert.equal(box.properties.checked, "false", `variant ${key}: never pre-selected`);
        const [offer] = await waitForEvent(tab, "offer");
        const row = await api.database.db.get<{ experiment_variant: string }>(
          "SELECT experiment_variant FROM quotes WHERE id = ?",
          [offer.detail.quoteId as string],
        );
        assert.equal(row?.experiment_variant, key);
      });
    }
  });
});
