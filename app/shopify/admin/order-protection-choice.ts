// The checkout block's choice as Shopify copied it from the cart to the order (the app's `$app:protection` / `choice`
// metafield): read only when the order's choice attribute is missing, as on an accelerated or a draft-order checkout.
import { CHOICE_METAFIELD } from "@purchase-protection/contract";
import { adminOperation } from "./graphql.ts";

export interface OrderProtectionChoiceResult {
  order: { metafield: { value: string } | null } | null;
}

export const orderProtectionChoice = adminOperation<{ id: string }, OrderProtectionChoiceResult>(
  `query OrderProtectionChoice($id: ID!) {
    order(id: $id) { metafield(namespace: "${CHOICE_METAFIELD.namespace}", key: "${CHOICE_METAFIELD.key}") { value } }
  }`,
);
