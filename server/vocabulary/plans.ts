// A plan's vocabulary: the consent kept with it, the order it binds, and the ways to name one.
import type { Surface } from "./actors.ts";

/** A plan's state: active until voided (its order cancelled) or cancelled (by the buyer in the free look). */
export type PlanStatus = "active" | "voided" | "cancelled";

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
