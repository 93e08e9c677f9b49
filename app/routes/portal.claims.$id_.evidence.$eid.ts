// GET /portal/claims/:id/evidence/:eid: a claim's file (the claim by its number on the plan, as the claim's page
// addresses it), downloaded with the buyer's session: its stored Content-Type, as an attachment, nosniff, no-store.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { buyerOf, portal, type ApiResult } from "../portal/buyer.server.ts";
import { expiredRedirect, requireSession } from "../portal/session.server.ts";
import { downloadResponse } from "../downloads.server.ts";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const buyer = buyerOf(request, context, await requireSession(request));
  const claimId = await portal().claimId(buyer, params.id ?? "");
  if (!claimId.ok) return refused(request, claimId);
  const file = await portal().evidence(buyer, claimId.data, params.eid ?? "");
  return file.ok ? downloadResponse(file.data) : refused(request, file);
}

/** A gone session goes to the look-up; anything else is a bare 404 (429 when limited). */
const refused = (request: Request, failure: Extract<ApiResult<unknown>, { ok: false }>) =>
  failure.status === 401
    ? expiredRedirect(request)
    : new Response("Not found", { status: failure.status === 429 ? 429 : 404 });
