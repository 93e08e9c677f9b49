// The order's fulfillment orders, with each line's remaining quantity and product.
import { adminOperation } from "./graphql.ts";

export interface FulfillmentOrderNode {
  id: string;
  status: "OPEN" | "IN_PROGRESS" | "SCHEDULED" | "ON_HOLD" | "INCOMPLETE" | "CANCELLED" | "CLOSED";
  lineItems: { nodes: { id: string; remainingQuantity: number; lineItem: { product: { id: string } | null } }[] };
}

export interface FulfillmentOrders {
  fulfillmentOrders: { nodes: FulfillmentOrderNode[] };
}

/**
 * An order's fulfillment orders as a field of its selection, with `directives` (the reference write-back's mutation
 * reads them too, on condition).
 */
export const fulfillmentOrdersField = (directives = "") => `fulfillmentOrders(first: 10)${directives} {
        nodes { id status lineItems(first: 50) { nodes { id remainingQuantity lineItem { product { id } } } } }
      }`;

export interface ProtectionFulfillmentOrdersResult {
  order: FulfillmentOrders | null;
}

export const protectionFulfillmentOrders = adminOperation<{ id: string }, ProtectionFulfillmentOrdersResult>(
  `query ProtectionFulfillmentOrders($id: ID!) {
    order(id: $id) {
      ${fulfillmentOrdersField()}
    }
  }`,
);
