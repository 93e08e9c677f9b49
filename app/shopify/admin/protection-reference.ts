// Writes the reference number onto the order (orderUpdate: its custom attributes and an app metafield), and in the
// same call the protection's state as it stands (order-protection-state.ts's fields): one Admin call per new plan.
// With `fulfilling`, the updated order's fulfillment orders come back in the answer, so fulfilling the protection
// line needs no read of its own.
import { adminOperation, type UserError } from "./graphql.ts";
import {
  ORDER_STATE_FIELDS,
  ORDER_STATE_VARIABLES,
  type OrderStateResult,
  type OrderStateVariables,
} from "./order-protection-state.ts";
import { fulfillmentOrdersField, type FulfillmentOrders } from "./protection-fulfillment-orders.ts";

export interface OrderInput {
  id: string;
  customAttributes: { key: string; value: string }[];
  metafields: { namespace: string; key: string; type: string; value: string }[];
}

export interface ProtectionReferenceResult extends OrderStateResult {
  /** The order's fulfillment orders only with `fulfilling`. */
  orderUpdate: { order: ({ id: string } & Partial<FulfillmentOrders>) | null; userErrors: UserError[] };
}

export const protectionReference = adminOperation<
  { input: OrderInput; fulfilling: boolean } & OrderStateVariables,
  ProtectionReferenceResult
>(
  `mutation ProtectionReference($input: OrderInput!, $fulfilling: Boolean!, ${ORDER_STATE_VARIABLES}) {
    orderUpdate(input: $input) {
      order { id ${fulfillmentOrdersField(" @include(if: $fulfilling)")} }
      userErrors { field message }
    }${ORDER_STATE_FIELDS}
  }`,
);
