// The statement's lines in words (app/dashboard/BalanceCard.tsx, the running balance and a closed statement's page in
// both shells): the fees a merchant paid for protecting its own orders are their own line, "Protection you paid for
// your orders", shown when there are any (docs/api.md "Who pays").
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { AppProvider } from "@shopify/polaris";
import en from "@shopify/polaris/locales/en.json" with { type: "json" };
import { StatementLines, type StatementFigures } from "../../app/dashboard/BalanceCard.tsx";

/** The lines as [label, amount] pairs, read from the rendered table. */
function lines(figures: StatementFigures): [string, string][] {
  const html = renderToStaticMarkup(
    createElement(
      AppProvider,
      { i18n: en },
      createElement(StatementLines, { figures, counterparty: "Acme", label: "USD" }),
    ),
  );
  return [...html.matchAll(/<th scope="row"[^>]*>([^<]*)<\/th><td[^>]*>([^<]*)<\/td>/g)].map((m) => [
    m[1].replaceAll("&#x27;", "'"),
    m[2],
  ]);
}

const figures = (totals: Record<string, number>): StatementFigures => {
  const net = Object.values(totals).reduce((sum, cents) => sum + cents, 0);
  return {
    currency: "USD",
    totals,
    merchantShareBps: 2_000,
    lateEntries: { count: 0, amountCents: 0 },
    netCents: net,
    openingBalanceCents: 0,
    balanceCents: net,
  };
};

describe("the statement's lines", () => {
  it("show the protection the merchant paid for as its own line, counted in the net", () => {
    // test/api/who-pays.test.ts's week: a buyer-paid, a merchant-paid and a split order of $123.45 (fee $3.70 each):
    // collected −3.70 − 1.23 = −$4.93, shares 0.74 + 0.25 = $0.99, paid by the merchant −3.70 − 2.47 = −$6.17;
    // net −4.93 + 0.99 − 6.17 = −$10.11.
    const shown = lines(
      figures({
        fee_collected: -493,
        merchant_fee_share: 99,
        merchant_paid_fee: -617,
        fee_refunded: 0,
        claim_reimbursement: 0,
      }),
    );
    assert.deepEqual(shown.slice(0, 3), [
      ["Fees you collected for Acme", "-$4.93"],
      ["Your share of those fees (your share: 20 %)", "+$0.99"],
      ["Protection you paid for your orders", "-$6.17"],
    ]);
    assert.deepEqual(
      shown.find(([label]) => label === "Net this period"),
      ["Net this period", "-$10.11"],
    );
  });

  it("leave the line out when the merchant paid for none", () => {
    const shown = lines(figures({ fee_collected: -370, merchant_fee_share: 74, merchant_paid_fee: 0 }));
    assert.equal(shown.filter(([label]) => label.startsWith("Protection you paid")).length, 0);
  });
});
