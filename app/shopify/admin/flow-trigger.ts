// Starts the merchant's Shopify Flow workflows that begin with one of the app's trigger extensions (extensions/flow-*).
import { adminOperation, type UserError } from "./graphql.ts";

export interface FlowTriggerResult {
  flowTriggerReceive: { userErrors: UserError[] };
}

export const flowTrigger = adminOperation<{ handle: string; payload: Record<string, unknown> }, FlowTriggerResult>(
  `mutation FlowTrigger($handle: String!, $payload: JSON!) {
    flowTriggerReceive(handle: $handle, payload: $payload) { userErrors { field message } }
  }`,
);
