// Claims: the buyers' refund requests on the viewer's protected purchases (the spec's dashboard "yes"; the API's
// GET /merchant/claims), newest first, filtered by status or reference number, a page at a time.
import { z } from "zod";
import { CLAIM_STATUSES, claimTitle, listClaims } from "../../../server/index.ts";
import type { PageContext } from "../viewer.ts";
import { parseListFilters } from "../list-filters.server.ts";
import { REASON_NAMES } from "../reason-names.server.ts";

const filtersSchema = z.object({
  status: z.enum(CLAIM_STATUSES, "Choose a status.").optional(),
  reference: z.string().trim().min(1).max(32, "At most 32 characters.").optional(),
  after: z.string().min(1).max(255).optional(),
});

export async function loadClaims({ runtime, viewer, request }: PageContext) {
  const { filters, query, errors } = parseListFilters(filtersSchema, request, ["status", "reference"]);
  if (!query)
    return { filters, errors, statuses: CLAIM_STATUSES, claims: [], nextAfter: null, reasonNames: REASON_NAMES };
  const page = await listClaims(
    runtime.db,
    { merchantId: viewer.merchantId, mode: viewer.mode },
    { limit: 25, startingAfter: query.after, status: query.status, referenceNumber: query.reference },
  );
  return {
    filters,
    errors,
    statuses: CLAIM_STATUSES,
    // Named as the buyer names it on the phone: "Claim 2 on CLM-…".
    claims: page.data.map((claim) => ({ ...claim, title: claimTitle(claim.referenceNumber, claim.number) })),
    nextAfter: page.hasMore ? page.nextCursor : null,
    reasonNames: REASON_NAMES,
  };
}

export type ClaimsData = Awaited<ReturnType<typeof loadClaims>>;
