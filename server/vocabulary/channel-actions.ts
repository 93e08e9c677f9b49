// What a sales channel's app did for the merchant and gave up on, which the merchant then does by hand in the channel's
// admin: the core lists them among what needs the merchant (server/domain/merchant-actions.ts); the app finds them in
// its own tables (app/shopify/channel-actions.server.ts) and hands them over through the core's services.

/** An approved claim the app could not pay on the order. */
export interface StuckClaimPayout {
  claimId: string;
  referenceNumber: string;
  orderId: string;
  remedy: "refund" | "replacement";
  amountCents: number;
  currency: string;
  lastError: string;
}

/** A free-look fee the app could not refund on the order. */
export interface StuckFeeRefund {
  planId: string;
  referenceNumber: string;
  orderId: string;
  amountCents: number;
  currency: string;
  lastError: string;
}
