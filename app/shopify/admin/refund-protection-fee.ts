// Refunds the protection line of an order (refundCreate), through the order's original payment: a transaction of
// kind REFUND whose parent is the order's sale or capture, on that transaction's gateway.
import { adminOperation, type UserError } from "./graphql.ts";

export interface RefundInput {
  orderId: string;
  /** The presentment currency; required when it differs from the shop's. */
  currency?: string;
  note?: string;
  notify: boolean;
  refundLineItems: { lineItemId: string; quantity: number; restockType: "CANCEL" | "NO_RESTOCK" | "RETURN" }[];
  transactions: { orderId: string; parentId: string; gateway: string; kind: "REFUND"; amount: string }[];
}

export interface RefundProtectionFeeResult {
  refundCreate: {
    refund: { id: string; totalRefundedSet: { presentmentMoney: { amount: string; currencyCode: string } } } | null;
    userErrors: UserError[];
  };
}

export const refundProtectionFee = adminOperation<{ input: RefundInput }, RefundProtectionFeeResult>(
  `mutation RefundProtectionFee($input: RefundInput!) {
    refundCreate(input: $input) {
      refund { id totalRefundedSet { presentmentMoney { amount currencyCode } } }
      userErrors { field message }
    }
  }`,
);
