// refunds/create: its job counts the refund and reports the order refunded once the goods amount is (the app's own
// refund of a claim, which its note names, is not the merchant's).
import { handledWebhook } from "./webhook.ts";

/** One of a refund's transactions (Shopify's Transaction resource, the fields the app reads). */
export interface RefundTransaction {
  id: number;
  kind: "authorization" | "capture" | "sale" | "void" | "refund" | "change" | "emv_authorization";
  status: "pending" | "failure" | "success" | "error";
  /** A decimal string in the order's currency. */
  amount: string;
  currency: string;
}

/** Shopify's Refund webhook body. */
export interface ShopifyRefund {
  id: number;
  order_id: number;
  created_at: string;
  note?: string | null;
  transactions?: RefundTransaction[];
}

export const refundsCreate = handledWebhook({
  topic: "refunds/create",
  job: "refunds/create",
  jobPayload: (refund: ShopifyRefund) => ({
    id: String(refund.id),
    order_id: String(refund.order_id),
    note: refund.note ?? null,
    transactions: refund.transactions ?? [],
  }),
});
