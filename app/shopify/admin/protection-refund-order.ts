// What refunding the protection fee needs from the order: its currencies, its lines (to find the protection line, and
// its unit price), what the buyer still owes, its transactions (the sale or capture the refund goes back through) and
// the refunds already made (a refund that already covers the protection line means the fee was refunded: never a
// second one).
import { adminOperation } from "./graphql.ts";

export type OrderTransactionKind =
  "AUTHORIZATION" | "CAPTURE" | "CHANGE" | "EMV_AUTHORIZATION" | "REFUND" | "SALE" | "SUGGESTED_REFUND" | "VOID";

export type OrderTransactionStatus = "AWAITING_RESPONSE" | "ERROR" | "FAILURE" | "PENDING" | "SUCCESS" | "UNKNOWN";

export interface MoneyV2 {
  /** A decimal string. */
  amount: string;
  currencyCode: string;
}

export interface RefundOrderTransaction {
  id: string;
  kind: OrderTransactionKind;
  status: OrderTransactionStatus;
  gateway: string | null;
  amountSet: { shopMoney: MoneyV2; presentmentMoney: MoneyV2 };
  parentTransaction: { id: string } | null;
}

export interface ProtectionRefundOrderResult {
  order: {
    id: string;
    currencyCode: string;
    presentmentCurrencyCode: string;
    /** What the buyer has not paid yet (an order edit's balance, payment terms). */
    totalOutstandingSet: { presentmentMoney: MoneyV2 };
    lineItems: {
      nodes: {
        id: string;
        quantity: number;
        originalUnitPriceSet: { presentmentMoney: MoneyV2 };
        product: { id: string } | null;
      }[];
    };
    transactions: RefundOrderTransaction[];
    refunds: { id: string; refundLineItems: { nodes: { quantity: number; lineItem: { id: string } }[] } }[];
  } | null;
}

export const protectionRefundOrder = adminOperation<{ id: string }, ProtectionRefundOrderResult>(
  `query ProtectionRefundOrder($id: ID!) {
    order(id: $id) {
      id
      currencyCode
      presentmentCurrencyCode
      totalOutstandingSet { presentmentMoney { amount currencyCode } }
      lineItems(first: 250) {
        nodes { id quantity originalUnitPriceSet { presentmentMoney { amount currencyCode } } product { id } }
      }
      transactions(first: 100) {
        id kind status gateway
        amountSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } }
        parentTransaction { id }
      }
      refunds(first: 100) { id refundLineItems(first: 250) { nodes { quantity lineItem { id } } } }
    }
  }`,
);
