// Defines one of the app's order metafields: typed, shown to the merchant read-only, filterable in the order list.
import { adminOperation, type UserError } from "./graphql.ts";

export interface MetafieldDefinitionInput {
  namespace: string;
  key: string;
  name: string;
  description: string;
  type: string;
  ownerType: "ORDER";
  access: { admin: "MERCHANT_READ" };
  capabilities?: { adminFilterable?: { enabled: boolean }; cartToOrderCopyable?: { enabled: boolean } };
}

export interface CreateOrderMetafieldDefinitionResult {
  metafieldDefinitionCreate: { createdDefinition: { id: string } | null; userErrors: UserError[] };
}

export const createOrderMetafieldDefinition = adminOperation<
  { definition: MetafieldDefinitionInput },
  CreateOrderMetafieldDefinitionResult
>(
  `mutation CreateOrderMetafieldDefinition($definition: MetafieldDefinitionInput!) {
    metafieldDefinitionCreate(definition: $definition) { createdDefinition { id } userErrors { field message code } }
  }`,
);
