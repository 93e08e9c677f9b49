// The protection product's price tiers (docs/shopify.md "Shopify app", fee tiers) in the shop's currency: from the
// program's minimum fee there to the fee of its largest covered amount there, within one page of variants, for every
// currency a program's limits may be in (issue 33: KWD and the other three-decimal currencies).
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { MAX_TIERS, tierPrices } from "../../app/shopify/fee-tiers.ts";
import { DEFAULT_CURRENCY_LIMITS } from "../../server/domain/programs.ts";
import { SUPPORTED_CURRENCIES } from "../../server/vocabulary/money.ts";

const program = { rateBps: 300, currencyLimits: DEFAULT_CURRENCY_LIMITS };

describe("fee tiers per currency", () => {
  it("every supported currency's default range fits one page of variants, from its minimum fee to its highest fee", () => {
    for (const currency of SUPPORTED_CURRENCIES) {
      const prices = tierPrices(program, currency);
      const limit = DEFAULT_CURRENCY_LIMITS[currency];
      assert.ok(prices.length <= MAX_TIERS, `${currency}: ${prices.length} tiers`);
      assert.equal(prices[0], limit.minFeeCents, currency);
      assert.equal(prices.at(-1), Math.round((limit.maxCoveredCents * 300) / 10_000), currency);
    }
  });

  it("steps by the currency's major unit: 0.05 steps in dollars, 0.050 in dinars, 5 yen in yen", () => {
    assert.deepEqual(tierPrices(program, "USD").slice(0, 3), [100, 105, 110]);
    // KWD 0.300, 0.350, 0.400: the dollar's 0.05 steps, in fils.
    assert.deepEqual(tierPrices(program, "KWD").slice(0, 3), [300, 350, 400]);
    assert.deepEqual(tierPrices(program, "JPY").slice(0, 3), [150, 155, 160]);
  });

  it("a currency the program does not offer has no tiers", () => {
    assert.throws(
      () => tierPrices({ rateBps: 300, currencyLimits: { USD: DEFAULT_CURRENCY_LIMITS.USD } }, "KWD"),
      /offers no protection in the shop's currency, KWD/,
    );
  });
});
