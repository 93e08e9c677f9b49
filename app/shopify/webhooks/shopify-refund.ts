// Shopify's Refund webhook body (refunds/create), as documented for the REST Refund resource: the fields the app reads.

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
