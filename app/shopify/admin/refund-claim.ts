// Refunds an approved claim's amount on the original order (refundCreate): money only, no line refunded or restocked,
// as REFUND transactions whose parents are the order's sales or captures, each on its parent's gateway.
import { adminOperation, type UserError } from "./graphql.ts";
import type { RefundInput } from "./refund-protection-fee.ts";
import type { MoneyV2 } from "./protection-refund-order.ts";

export interface RefundClaimResult {
  refundCreate: {
    refund: { id: string; totalRefundedSet: { presentmentMoney: MoneyV2 } } | null;
    userErrors: UserError[];
  };
}

export const refundClaim = adminOperation<{ input: RefundInput }, RefundClaimResult>(
  `mutation RefundClaim($input: RefundInput!) {
    refundCreate(input: $input) {
      refund { id totalRefundedSet { presentmentMoney { amount currencyCode } } }
      userErrors { field message }
    }
  }`,
);
