// Claims: the buyers' refund requests on the viewer's protected purchases (the spec's dashboard "yes"; the API's
// GET /merchant/claims), newest first, filtered by status or reference number, a page at a time.
import { z } from "zod";
import { CLAIM_STATUSES, listClaims } from "../../../server/index.ts";
import type { PageContext } from "../viewer.ts";

const filtersSchema = z.object({
  status: z.enum(CLAIM_STATUSES, "Choose a status.").optional(),
  reference: z.string().trim().min(1).max(32, "At most 32 characters.").optional(),
  after: z.string().min(1).max(255).optional(),
});

export async function loadClaims({ runtime, viewer, request }: PageContext) {
  const params = new URL(request.url).searchParams;
  const filters = { status: params.get("status") ?? "", reference: params.get("reference") ?? "" };
  const parsed = filtersSchema.safeParse(Object.fromEntries([...params].filter(([, value]) => value !== "")));
  if (!parsed.success) {
    const errors = Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
    return { filters, errors, statuses: CLAIM_STATUSES, claims: [], nextAfter: null };
  }
  const page = await listClaims(
    runtime.db,
    { merchantId: viewer.merchantId, mode: viewer.mode },
    { limit: 25, startingAfter: parsed.data.after, status: parsed.data.status, referenceNumber: parsed.data.reference },
  );
  return {
    filters,
    errors: {} as Record<string, string>,
    statuses: CLAIM_STATUSES,
    claims: page.data,
    nextAfter: page.hasMore ? page.nextCursor : null,
  };
}

export type ClaimsData = Awaited<ReturnType<typeof loadClaims>>;
