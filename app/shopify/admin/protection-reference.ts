// Writes the reference number onto the order (orderUpdate: its custom attributes and an app metafield).
import { adminOperation, type UserError } from "./graphql.ts";

export interface OrderInput {
  id: string;
  customAttributes: { key: string; value: string }[];
  metafields: { namespace: string; key: string; type: string; value: string }[];
}

export interface ProtectionReferenceResult {
  orderUpdate: { order: { id: string } | null; userErrors: UserError[] };
}

export const protectionReference = adminOperation<{ input: OrderInput }, ProtectionReferenceResult>(
  `mutation ProtectionReference($input: OrderInput!) {
    orderUpdate(input: $input) { order { id } userErrors { field message } }
  }`,
);
