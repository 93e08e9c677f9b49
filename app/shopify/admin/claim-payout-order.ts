// What paying a claim on a Shopify order needs from the order: its currencies; its transactions (the sales or captures
// a refund goes back through, and the refunds already taken from each); its refunds with their notes (a refund whose
// note names the claim means the claim was refunded: never a second one); and, for a replacement, its goods lines,
// the buyer's e-mail and shipping address.
import { adminOperation } from "./graphql.ts";
import type { MoneyV2, RefundOrderTransaction } from "./protection-refund-order.ts";

/** Shopify's MailingAddress: the fields a replacement order is shipped to. */
export interface MailingAddress {
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  provinceCode: string | null;
  countryCodeV2: string | null;
  zip: string | null;
  phone: string | null;
}

export interface ClaimPayoutLineItem {
  id: string;
  /** What is on the order now (after edits and removals). */
  currentQuantity: number;
  product: { id: string } | null;
  /** Null when the variant was deleted since (the line cannot be reordered). */
  variant: { id: string } | null;
}

export interface ClaimPayoutRefund {
  id: string;
  note: string | null;
  totalRefundedSet: { presentmentMoney: MoneyV2 };
}

export interface ClaimPayoutOrderResult {
  order: {
    id: string;
    currencyCode: string;
    presentmentCurrencyCode: string;
    email: string | null;
    shippingAddress: MailingAddress | null;
    lineItems: { nodes: ClaimPayoutLineItem[] };
    transactions: RefundOrderTransaction[];
    refunds: ClaimPayoutRefund[];
  } | null;
}

export const claimPayoutOrder = adminOperation<{ id: string }, ClaimPayoutOrderResult>(
  `query ClaimPayoutOrder($id: ID!) {
    order(id: $id) {
      id
      currencyCode
      presentmentCurrencyCode
      email
      shippingAddress { firstName lastName company address1 address2 city provinceCode countryCodeV2 zip phone }
      lineItems(first: 250) { nodes { id currentQuantity product { id } variant { id } } }
      transactions(first: 100) {
        id kind status gateway
        amountSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } }
        parentTransaction { id }
      }
      refunds(first: 100) { id note totalRefundedSet { presentmentMoney { amount currencyCode } } }
    }
  }`,
);
