// Fulfills the given fulfillment-order lines (fulfillmentCreate).
import { adminOperation, type UserError } from "./graphql.ts";

export interface FulfillmentOrderLines {
  fulfillmentOrderId: string;
  fulfillmentOrderLineItems: { id: string; quantity: number }[];
}

export interface FulfillProtectionResult {
  fulfillmentCreate: { fulfillment: { id: string; status: string } | null; userErrors: UserError[] };
}

export const fulfillProtection = adminOperation<
  { fulfillment: { lineItemsByFulfillmentOrder: FulfillmentOrderLines[]; notifyCustomer: boolean } },
  FulfillProtectionResult
>(
  `mutation FulfillProtection($fulfillment: FulfillmentInput!) {
    fulfillmentCreate(fulfillment: $fulfillment) { fulfillment { id status } userErrors { field message } }
  }`,
);
