// A claim's statuses (docs/api.md "Claims"); which transitions they allow is server/domain/claim-decisions.ts's.

export const CLAIM_STATUSES = ["submitted", "under_review", "needs_information", "approved", "paid", "denied"] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];
