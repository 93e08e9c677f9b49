// The order's fulfillment orders, with each line's remaining quantity and product.
import { adminOperation } from "./graphql.ts";

export interface FulfillmentOrderNode {
  id: string;
  status: "OPEN" | "IN_PROGRESS" | "SCHEDULED" | "ON_HOLD" | "INCOMPLETE" | "CANCELLED" | "CLOSED";
  lineItems: { nodes: { id: string; remainingQuantity: number; lineItem: { product: { id: string } | null } }[] };
}

export interface ProtectionFulfillmentOrdersResult {
  order: { fulfillmentOrders: { nodes: FulfillmentOrderNode[] } } | null;
}

export const protectionFulfillmentOrders = adminOperation<{ id: string }, ProtectionFulfillmentOrdersResult>(
  `query ProtectionFulfillmentOrders($id: ID!) {
    order(id: $id) {
      fulfillmentOrders(first: 10) {
        nodes { id status lineItems(first: 50) { nodes { id remainingQuantity lineItem { product { id } } } } }
      }
    }
  }`,
);
