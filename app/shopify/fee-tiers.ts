// The buyer pays the protection fee through a cart line of the hidden "Purchase Protection" product, whose variants
// are price tiers (docs/shopify.md "Shopify app", fee tiers). Fees are computed per order, so the line uses the smallest tier that covers the
// quoted fee; the ladder is fine where most fees fall and coarser above, and stays within one page of variants.
import { minorDigits } from "@purchase-protection/contract";
import { applyBps, type EditableProgram } from "../../server/index.ts";

/**
 * Step sizes (minor units of a two-decimal currency) by price band: 0.05 up to 5.00, 0.25 up to 20.00, 1.00 up to
 * 100.00, then 5.00. A three-decimal currency (KWD) takes the same steps of its major unit; yen take them as yen.
 */
const LADDER = [
  { upTo: 500, step: 5 },
  { upTo: 2_000, step: 25 },
  { upTo: 10_000, step: 100 },
  { upTo: Number.POSITIVE_INFINITY, step: 500 },
];

/** Admin GraphQL returns at most 250 variants per page; one page keeps install and reads simple. */
export const MAX_TIERS = 250;

/**
 * The tier prices for a program's fee range in the shop's currency: from its minimum fee there to the fee of its
 * largest covered amount there.
 */
export function tierPrices(program: Pick<EditableProgram, "rateBps" | "currencyLimits">, currency: string): number[] {
  const limit = program.currencyLimits[currency as keyof EditableProgram["currencyLimits"]];
  if (!limit) throw new Error(`the program offers no protection in the shop's currency, ${currency}`);
  const highest = Math.max(limit.minFeeCents, applyBps(limit.maxCoveredCents, program.rateBps));
  const prices: number[] = [];
  const scale = 10 ** Math.max(0, minorDigits(currency) - 2);
  let price = limit.minFeeCents;
  for (;;) {
    prices.push(price);
    if (price >= highest) break;
    const step = LADDER.find((band) => price < band.upTo * scale)!.step * scale;
    price = (Math.floor(price / step) + 1) * step;
  }
  if (prices.length > MAX_TIERS)
    throw new Error(`the fee range needs ${prices.length} price tiers, more than ${MAX_TIERS}`);
  return prices;
}
