// Removes tags from the order (tagsRemove: a tag it does not have is no error).
import { adminOperation, type UserError } from "./graphql.ts";

export interface UntagOrderResult {
  tagsRemove: { node: { id: string } | null; userErrors: UserError[] };
}

export const untagOrder = adminOperation<{ id: string; tags: string[] }, UntagOrderResult>(
  `mutation UntagOrder($id: ID!, $tags: [String!]!) {
    tagsRemove(id: $id, tags: $tags) { node { id } userErrors { field message } }
  }`,
);
