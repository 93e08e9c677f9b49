// A claim's statuses (docs/api.md "Claims"); which transitions they allow is server/domain/claim-decisions.ts's.

export const CLAIM_STATUSES = ["submitted", "under_review", "needs_information", "approved", "paid", "denied"] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

/** A claim's risk level (server/domain/claim-risk.ts), lowest first. */
export const RISK_LEVELS = ["low", "elevated", "high"] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

/** Where the app's Shopify payout of a claim stands: pending (queued or retrying), done, or dead (it gave up). */
export type ClaimPayoutState = "pending" | "done" | "dead";
