// A Shopify Markets order: the buyer saw and paid in the market's (presentment) currency, while the plan, its ledger
// and statements stay in the shop's (docs/shopify.md "Shopify Markets: the buyer's currency"). What the plan keeps of
// the buyer's side, and the rate between the two, come from the order's own amounts in both currencies.
import { minorDigits, parseDecimalAmount } from "@purchase-protection/contract";
import type { PlanPresentmentRecord } from "../../server/index.ts";
import type { OrderPayload } from "./named-jobs.ts";

/** Decimal places of a recorded rate. */
const RATE_DECIMALS = 10;

/** Units of the shop's currency per unit of the buyer's, from one amount in both: RATE_DECIMALS places, half up. */
export function exchangeRate(shopAmount: string, presentmentAmount: string): string {
  const [shop, shopScale] = scaled(shopAmount);
  const [presentment, presentmentScale] = scaled(presentmentAmount);
  if (presentment <= 0n) throw new Error(`no rate from a presentment amount of ${presentmentAmount}`);
  // shop / presentment, times 10^RATE_DECIMALS, computed in integers and rounded half up.
  const numerator = shop * 10n ** BigInt(presentmentScale + RATE_DECIMALS);
  const denominator = presentment * 10n ** BigInt(shopScale);
  const rate = (2n * numerator + denominator) / (2n * denominator);
  const digits = rate.toString().padStart(RATE_DECIMALS + 1, "0");
  return `${digits.slice(0, -RATE_DECIMALS)}.${digits.slice(-RATE_DECIMALS)}`;
}

/** A non-negative decimal string as an integer and its count of decimal places. */
function scaled(amount: string): [bigint, number] {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(amount);
  if (!match) throw new Error(`not a decimal amount: ${amount}`);
  const fraction = match[2] ?? "";
  return [BigInt(match[1] + fraction), fraction.length];
}

/** The plan's rate to the buyer's currency, as recorded with the plan (PlanPresentmentRecord). */
export interface BuyerCurrency {
  currency: string;
  exchangeRate: string;
}

/**
 * `cents` of the shop's currency in the buyer's minor units (`toBuyer`), or back: at the plan's recorded rate,
 * rounded half up to the target currency's minor unit.
 */
export function convertCents(cents: number, shopCurrency: string, buyer: BuyerCurrency, toBuyer: boolean): number {
  const [rate, rateScale] = scaled(buyer.exchangeRate);
  const [fromDigits, toDigits] = toBuyer
    ? [minorDigits(shopCurrency), minorDigits(buyer.currency)]
    : [minorDigits(buyer.currency), minorDigits(shopCurrency)];
  // shop = buyer × rate: to the buyer divides by the rate, back multiplies; each side's minor unit is 10^-digits.
  const [multiplier, divisor] = toBuyer ? [10n ** BigInt(rateScale), rate] : [rate, 10n ** BigInt(rateScale)];
  const numerator = BigInt(cents) * multiplier * 10n ** BigInt(toDigits);
  const denominator = divisor * 10n ** BigInt(fromDigits);
  return Number((2n * numerator + denominator) / (2n * denominator));
}

type OrderLine = OrderPayload["line_items"][number];

/**
 * What the buyer of a Markets order paid, in their currency: the goods (the subtotal less the protection lines) and
 * one unit of the protection line kept (`kept`), with the rate from the subtotal in both currencies; null when the
 * order is in the shop's currency.
 */
export function planPresentment(
  order: OrderPayload,
  protectionLines: readonly OrderLine[],
  kept: OrderLine | undefined,
): PlanPresentmentRecord | null {
  if (!order.presentment) return null;
  const { currency, subtotal_price } = order.presentment;
  const cents = (line: OrderLine) => parseDecimalAmount(line.presentment_price ?? "0", currency);
  const linesCents = protectionLines.reduce((sum, line) => sum + cents(line) * line.quantity, 0);
  return {
    currency,
    coveredAmountCents: parseDecimalAmount(subtotal_price, currency) - linesCents,
    buyerPaidCents: kept ? cents(kept) : null,
    exchangeRate: exchangeRate(order.subtotal_price, subtotal_price),
  };
}
