// Writes the protection's state onto the order as app-owned metafields (metafieldsSet: each one replaced whole).
import { adminOperation, type UserError } from "./graphql.ts";
import type { MetafieldsSetInput } from "./storefront-config.ts";

export interface OrderProtectionStateResult {
  metafieldsSet: { metafields: { id: string }[] | null; userErrors: UserError[] };
}

export const orderProtectionState = adminOperation<{ metafields: MetafieldsSetInput[] }, OrderProtectionStateResult>(
  `mutation OrderProtectionState($metafields: [MetafieldsSetInput!]!) {
    metafieldsSet(metafields: $metafields) { metafields { id } userErrors { field message code } }
  }`,
);
