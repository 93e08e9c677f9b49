// The draft orders tagged with a claim's id (search syntax `tag:<claim id>`): a replacement made before the process
// died or its answer was lost is found, and completed or reused, never made twice.
import { adminOperation } from "./graphql.ts";

export type DraftOrderStatus = "OPEN" | "INVOICE_SENT" | "COMPLETED";

export interface ClaimReplacementDraft {
  id: string;
  status: DraftOrderStatus;
  tags: string[];
  /** The order it became, once completed. */
  order: { id: string } | null;
}

export interface ClaimReplacementDraftsResult {
  draftOrders: { nodes: ClaimReplacementDraft[] };
}

export const claimReplacementDrafts = adminOperation<{ query: string }, ClaimReplacementDraftsResult>(
  `query ClaimReplacementDrafts($query: String!) {
    draftOrders(first: 10, query: $query) { nodes { id status tags order { id } } }
  }`,
);
