// Completes a claim's replacement draft order (draftOrderComplete): nothing is left to pay, so it becomes a paid order.
import { adminOperation, type UserError } from "./graphql.ts";
import type { ClaimReplacementDraft } from "./claim-replacement-drafts.ts";

export interface CompleteClaimReplacementResult {
  draftOrderComplete: { draftOrder: ClaimReplacementDraft | null; userErrors: UserError[] };
}

export const completeClaimReplacement = adminOperation<{ id: string }, CompleteClaimReplacementResult>(
  `mutation CompleteClaimReplacement($id: ID!) {
    draftOrderComplete(id: $id) {
      draftOrder { id status tags order { id } }
      userErrors { field message }
    }
  }`,
);
