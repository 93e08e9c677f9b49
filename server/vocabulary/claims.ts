// A claim's statuses (docs/api.md "Claims"); which transitions they allow is server/domain/claim-decisions.ts's.

export const CLAIM_STATUSES = ["submitted", "under_review", "needs_information", "approved", "paid", "denied"] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

/** A claim's risk level (server/domain/claim-risk.ts), lowest first. */
export const RISK_LEVELS = ["low", "elevated", "high"] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

/** Where the app's Shopify payout of a claim stands: pending (queued or retrying), done, or dead (it gave up). */
export type ClaimPayoutState = "pending" | "done" | "dead";

/** The 12 covered reasons of the rulebook (server/domain/rulebook-text.ts has their names in each language). */
export const COVERED_REASONS = [
  "lost_in_transit",
  "stolen_after_delivery",
  "damaged_in_transit",
  "arrived_defective",
  "wrong_item_delivered",
  "missing_items",
  "not_delivered_by_promised_date_plus_14_days",
  "merchant_closed_before_fulfilment",
  "item_recalled",
  "fraudulent_charge_dispute_resolved_against_buyer",
  "return_refused_within_merchant_policy",
  "carrier_returned_to_sender",
] as const;
export type CoveredReason = (typeof COVERED_REASONS)[number];

/** The codes of the published reasons a claim is denied for: the code the merchant's systems see. */
export const DENIAL_REASON_CODES = [
  "outside_claim_window",
  "plan_not_active",
  "amount_exceeds_coverage",
  "delivery_confirmed",
  "insufficient_evidence",
  "duplicate_claim",
  "excluded_by_terms",
] as const;

export type DenialReasonCode = (typeof DENIAL_REASON_CODES)[number];
