// Writes the reference number onto the order (orderUpdate: its custom attributes and an app metafield), and in the
// same call the protection's state as it stands (order-protection-state.ts's fields): one Admin call per new plan.
import { adminOperation, type UserError } from "./graphql.ts";
import {
  ORDER_STATE_FIELDS,
  ORDER_STATE_VARIABLES,
  type OrderStateResult,
  type OrderStateVariables,
} from "./order-protection-state.ts";

export interface OrderInput {
  id: string;
  customAttributes: { key: string; value: string }[];
  metafields: { namespace: string; key: string; type: string; value: string }[];
}

export interface ProtectionReferenceResult extends OrderStateResult {
  orderUpdate: { order: { id: string } | null; userErrors: UserError[] };
}

export const protectionReference = adminOperation<
  { input: OrderInput } & OrderStateVariables,
  ProtectionReferenceResult
>(
  `mutation ProtectionReference($input: OrderInput!, ${ORDER_STATE_VARIABLES}) {
    orderUpdate(input: $input) { order { id } userErrors { field message } }${ORDER_STATE_FIELDS}
  }`,
);
