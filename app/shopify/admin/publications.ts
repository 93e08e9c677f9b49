// The shop's sales channels (publications), to find the Online Store. A sales channel's publication belongs to an app
// catalog (catalogType APP: no market or B2B catalog crowds it out of the page), named by the catalog's title —
// Publication.name is deprecated for Catalog.title.
import { adminOperation } from "./graphql.ts";

export interface PublicationsResult {
  /** `catalog` is null for a publication created without one (Shopify allows it; such a publication sells nowhere). */
  publications: { nodes: { id: string; catalog: { title: string } | null }[] };
}

export const publications = adminOperation<void, PublicationsResult>(
  `query Publications { publications(first: 50, catalogType: APP) { nodes { id catalog { title } } } }`,
);
