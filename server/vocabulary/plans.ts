// A plan's vocabulary: the consent kept with it, the order it binds, and the ways to name one.
import type { Surface } from "./actors.ts";

/** A plan's state: active until voided (its order cancelled) or cancelled (by the buyer in the free look). */
export type PlanStatus = "active" | "voided" | "cancelled";

/**
 * Who pays for a program's protection (docs/api.md "Who pays"): the buyer (an offer at checkout), the merchant (every
 * order protected, no choice for the buyer) or split (the buyer pays the program's buyer share of the fee).
 */
export const PAYERS = ["buyer", "merchant", "split"] as const;
export type Payer = (typeof PAYERS)[number];

/** Who pays which part of a fee: the parts sum to the fee. */
export interface FeeParts {
  payer: Payer;
  buyerFeeCents: number;
  merchantFeeCents: number;
}

/** What the buyer saw and agreed to, kept with the plan for disputes. */
export interface ConsentRecord {
  quoteId: string;
  surface: Surface;
  disclosureText: string;
  feeCents: number;
  coveredAmountCents: number;
  currency: string;
  coveredReasons: readonly string[];
  termsUrl: string;
  acceptedAt: string;
  /**
   * Who paid and which part (absent on plans made before payers existed: the buyer paid the whole fee). `buyerShown`
   * is what the buyer was given: a choice (buyer and split: the buyer accepted an offer) or a notice (merchant: the
   * merchant protected the order; the buyer chose nothing and paid nothing).
   */
  payer?: Payer;
  buyerFeeCents?: number;
  merchantFeeCents?: number;
  buyerShown?: "choice" | "notice";
  /**
   * A server confirm's grounds: what on the platform's order shows the buyer chose protection (docs/shopify.md
   * "When the opt-in and the protection line disagree"). Absent where the buyer confirmed in the browser, and on
   * plans made before it was kept.
   */
  evidence?: readonly ConsentEvidence[];
}

/**
 * What a server confirm can rest on: the order's choice attribute (`_protection=accepted`, written by the widget or the
 * checkout block when the buyer ticked the offer), the checkout block's choice metafield copied from the cart to the
 * order, and the protection line the buyer's cart carried at its price.
 */
export const CONSENT_EVIDENCE = ["choice_attribute", "checkout_metafield", "protection_line"] as const;
export type ConsentEvidence = (typeof CONSENT_EVIDENCE)[number];

/**
 * The binding order a confirm carries (docs/api.md "Offers"): a versioned document whose fields keep their snake_case
 * names. server/domain/order-context.ts's schema reads it and is checked against this type.
 */
export interface OrderContext {
  schema_version: string;
  order: { id: string; purchased_at: string; currency: string; covered_amount_cents: number };
  participants: { mode: "unnamed" };
}

/** A plan named by its id, its reference number or its order. */
export type PlanSelector = { planId: string } | { referenceNumber: string } | { orderId: string };

/** What the buyer of a plan paid in their own currency when it is not the plan's (a Shopify Markets order). */
export interface PlanPresentmentRecord {
  currency: string;
  /** The covered goods in the buyer's currency (its minor units). */
  coveredAmountCents: number;
  /** What the buyer paid for the protection in their currency; null without a protection line. */
  buyerPaidCents: number | null;
  /** Plan currency per unit of the buyer's currency: a decimal string. */
  exchangeRate: string;
}
