// Creates the protection product or brings it back to exactly the given shape (productSet, synchronous).
import { adminOperation, type UserError } from "./graphql.ts";

export interface ProductSetInput {
  id?: string;
  title: string;
  handle: string;
  status: "ACTIVE" | "ARCHIVED" | "DRAFT";
  productType: string;
  descriptionHtml: string;
  productOptions: { name: string; values: { name: string }[] }[];
  variants: {
    optionValues: { optionName: string; name: string }[];
    price: string;
    /** The same on every tier: the orders/create delivery filter finds the protection line by it. */
    sku: string;
    taxable: boolean;
    inventoryPolicy: "CONTINUE" | "DENY";
    inventoryItem: { requiresShipping: boolean; tracked: boolean };
  }[];
  metafields: { namespace: string; key: string; type: string; value: string }[];
}

export interface ProtectionProductSetResult {
  productSet: {
    product: { id: string; variants: { nodes: { id: string; price: string }[] } };
    userErrors: UserError[];
  };
}

export const protectionProductSet = adminOperation<{ input: ProductSetInput }, ProtectionProductSetResult>(
  `mutation ProtectionProductSet($input: ProductSetInput!) {
    productSet(input: $input, synchronous: true) {
      product { id variants(first: 250) { nodes { id price } } }
      userErrors { field message code }
    }
  }`,
);
