// The shop's sales channels (publications), to find the Online Store.
import { adminOperation } from "./graphql.ts";

export interface PublicationsResult {
  publications: { nodes: { id: string; name: string }[] };
}

export const publications = adminOperation<void, PublicationsResult>(
  `query Publications { publications(first: 50) { nodes { id name } } }`,
);
