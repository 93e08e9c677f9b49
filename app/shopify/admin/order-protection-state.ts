// Writes the protection's state onto the order in one call: app-owned metafields (metafieldsSet: each one replaced
// whole) and its tags (tagsAdd and tagsRemove leave a tag already so alone; each left out when it has nothing to do).
// ProtectionReference (protection-reference.ts) sends the same fields with the reference.
import { adminOperation, type UserError } from "./graphql.ts";
import type { MetafieldsSetInput } from "./storefront-config.ts";

export interface OrderStateVariables {
  /** The order's gid, which the tags go on (the metafields name it as their owner). */
  id: string;
  metafields: MetafieldsSetInput[];
  addTags: string[];
  adding: boolean;
  removeTags: string[];
  removing: boolean;
}

export interface OrderStateResult {
  metafieldsSet: { metafields: { id: string }[] | null; userErrors: UserError[] };
  /** Absent when it had no tag to add (`adding` false). */
  tagsAdd?: { node: { id: string } | null; userErrors: UserError[] };
  /** Absent when it had no tag to remove (`removing` false). */
  tagsRemove?: { node: { id: string } | null; userErrors: UserError[] };
}

/** The variables and root fields of the state's write, for a mutation that sends it. */
export const ORDER_STATE_VARIABLES =
  "$id: ID!, $metafields: [MetafieldsSetInput!]!, $addTags: [String!]!, $adding: Boolean!, $removeTags: [String!]!, $removing: Boolean!";
export const ORDER_STATE_FIELDS = `
    metafieldsSet(metafields: $metafields) { metafields { id } userErrors { field message code } }
    tagsAdd(id: $id, tags: $addTags) @include(if: $adding) { node { id } userErrors { field message } }
    tagsRemove(id: $id, tags: $removeTags) @include(if: $removing) { node { id } userErrors { field message } }`;

export const orderProtectionState = adminOperation<OrderStateVariables, OrderStateResult>(
  `mutation OrderProtectionState(${ORDER_STATE_VARIABLES}) {${ORDER_STATE_FIELDS}
  }`,
);
