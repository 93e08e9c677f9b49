// Who pays an approved claim and by when: the one rule the buyer's e-mails, the portal and the API reference's rulebook say
// (docs/api.md "Resolving claims"). A Shopify shop's claims are paid by the app on the original order (refundCreate, or a
// replacement order), so the service can promise a business day; on any other cart the store refunds or reships in
// its own systems and confirms it, a program term the store accepts when it joins. Pure: no SQL, no HTTP, no clock.
import { utcDay } from "./utc-dates.ts";
import { DAY_MS } from "../vocabulary/time.ts";

/** Which cart the plan's order came through (the plan's merchant has a Shopify shop or not). */
export type PayoutChannel = "shopify" | "merchant";
export type PayoutRemedy = "refund" | "replacement";

/** On a Shopify shop the app pays within this many business days (Monday to Friday, UTC) of the approval. */
export const SHOPIFY_PAYOUT_BUSINESS_DAYS = 1;
/** On other carts the store refunds the buyer, or sends the replacement, within this many days of the approval. */
export const MERCHANT_PAYOUT_DAYS = 7;
/** What banks take to show a card refund: said to the buyer so a refund made today is not taken for a missing one. */
export const BANK_REFUND_BUSINESS_DAYS = "5–10";

export interface PayoutTerms {
  /** "shopify_refund": the app pays it on the original Shopify order; "merchant": the store pays it itself. */
  payer: "shopify_refund" | "merchant";
  remedy: PayoutRemedy;
  /** The end of the promise (UTC ms): the approval plus the channel's window. */
  dueByMs: number;
  /** The window as the rulebook says it: "1 business day", "7 days". */
  window: string;
  /** What the buyer reads: who pays, how, and by when (the merchant's name given as the caller shows it). */
  sentence(merchantName: string): string;
}

/** `ms` plus `days` business days (a day that starts on Saturday or Sunday, UTC, is skipped). */
export function addBusinessDays(ms: number, days: number): number {
  let due = ms;
  for (let left = days; left > 0;) {
    due += DAY_MS;
    const weekday = new Date(due).getUTCDay();
    if (weekday !== 0 && weekday !== 6) left -= 1;
  }
  return due;
}

/** "4 Dec 2026": the promise is a day (UTC), the time of day would be false precision. */
const formatDueDate = utcDay;

/** Who pays the claim approved at `approvedAtMs` on this channel, with this remedy, and by when. */
export function payoutTerms(
  channel: PayoutChannel,
  approvedAtMs: number,
  remedy: PayoutRemedy = "refund",
): PayoutTerms {
  if (channel === "shopify") {
    const dueByMs = addBusinessDays(approvedAtMs, SHOPIFY_PAYOUT_BUSINESS_DAYS);
    const by = formatDueDate(dueByMs);
    return {
      payer: "shopify_refund",
      remedy,
      dueByMs,
      window: `${SHOPIFY_PAYOUT_BUSINESS_DAYS} business day`,
      sentence: (merchantName) =>
        remedy === "replacement"
          ? `${merchantName} places a free replacement order for you automatically by ${by} (within ${SHOPIFY_PAYOUT_BUSINESS_DAYS} business day of the approval) and ships it like any order.`
          : `The refund goes back automatically to the payment method you used for the order, by ${by} (within ${SHOPIFY_PAYOUT_BUSINESS_DAYS} business day of the approval). Your bank can take ${BANK_REFUND_BUSINESS_DAYS} business days to show it.`,
    };
  }
  const dueByMs = approvedAtMs + MERCHANT_PAYOUT_DAYS * DAY_MS;
  const by = formatDueDate(dueByMs);
  return {
    payer: "merchant",
    remedy,
    dueByMs,
    window: `${MERCHANT_PAYOUT_DAYS} days`,
    sentence: (merchantName) =>
      remedy === "replacement"
        ? `${merchantName} sends you the replacement by ${by} (within ${MERCHANT_PAYOUT_DAYS} days of the approval).`
        : `${merchantName} refunds you directly by ${by} (within ${MERCHANT_PAYOUT_DAYS} days of the approval). Your bank can take ${BANK_REFUND_BUSINESS_DAYS} business days to show it.`,
  };
}
