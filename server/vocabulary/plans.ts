// A plan's vocabulary: the consent kept with it, the order it binds, and the ways to name one.
import type { Surface } from "./actors.ts";

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
}

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
