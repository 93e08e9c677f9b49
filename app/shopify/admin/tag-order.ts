// Adds tags to the order (tagsAdd: a tag it has already is left as it is).
import { adminOperation, type UserError } from "./graphql.ts";

export interface TagOrderResult {
  tagsAdd: { node: { id: string } | null; userErrors: UserError[] };
}

export const tagOrder = adminOperation<{ id: string; tags: string[] }, TagOrderResult>(
  `mutation TagOrder($id: ID!, $tags: [String!]!) {
    tagsAdd(id: $id, tags: $tags) { node { id } userErrors { field message } }
  }`,
);
