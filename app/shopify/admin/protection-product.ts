// The shop's currency and the protection product, if it exists (found by its handle).
import { adminOperation } from "./graphql.ts";

export interface ProtectionProductVariables {
  handle: string;
}

export interface ProtectionProductResult {
  shop: { currencyCode: string };
  productByIdentifier: { id: string } | null;
}

export const protectionProduct = adminOperation<ProtectionProductVariables, ProtectionProductResult>(
  `query ProtectionProduct($handle: String!) {
    shop { currencyCode }
    productByIdentifier(identifier: { handle: $handle }) { id }
  }`,
);
