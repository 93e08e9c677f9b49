// GET /portal/claims/:id/evidence/:eid: a claim's file (the claim by its number on the plan, as the claim's page
// addresses it), downloaded with the buyer's session. The bytes and headers
// come from GET /api/v1/portal/claims/:id/evidence/:eid (Content-Type from the stored row, attachment, nosniff,
// no-store); this route only adds the session and passes them on.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { portalApi } from "../portal/portal-api.server.ts";
import { expiredRedirect, requireSession } from "../portal/session.server.ts";

const PASSED_HEADERS = [
  "Content-Type",
  "Content-Length",
  "Content-Disposition",
  "X-Content-Type-Options",
  "Cache-Control",
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const token = await requireSession(request);
  const ctx = { request, context };
  const claimId = await portalApi.claimId(ctx, token, params.id ?? "");
  if (!claimId.ok && claimId.status === 401) return expiredRedirect(request);
  if (!claimId.ok) return new Response("Not found", { status: claimId.status === 429 ? 429 : 404 });
  const upstream = await portalApi.evidence(ctx, token, claimId.data, params.eid ?? "");
  if (upstream.status === 401) {
    await upstream.body?.cancel();
    return expiredRedirect(request);
  }
  if (!upstream.ok) {
    await upstream.body?.cancel();
    return new Response("Not found", { status: upstream.status === 429 ? 429 : 404 });
  }
  const headers = new Headers({ "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store" });
  for (const name of PASSED_HEADERS) {
    const value = upstream.headers.get(name);
    if (value) headers.set(name, value);
  }
  return new Response(upstream.body, { status: 200, headers });
}
