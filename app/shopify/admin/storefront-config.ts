// Writes the storefront config's metafields (metafieldsSet).
import { adminOperation, type UserError } from "./graphql.ts";

export interface MetafieldsSetInput {
  ownerId: string;
  namespace: string;
  key: string;
  type: string;
  value: string;
}

export interface StorefrontConfigResult {
  metafieldsSet: { metafields: { id: string }[]; userErrors: UserError[] };
}

export const storefrontConfig = adminOperation<{ metafields: MetafieldsSetInput[] }, StorefrontConfigResult>(
  `mutation StorefrontConfig($metafields: [MetafieldsSetInput!]!) {
    metafieldsSet(metafields: $metafields) { metafields { id } userErrors { field message code } }
  }`,
);
