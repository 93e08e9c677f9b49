// /portal/coverage/:reference?token=…: the welcome e-mail's link. The loader trades the link's token for a portal
// session (POST /api/v1/portal/coverage-link), sets the cookie and goes to the coverage page; a bad or expired link
// goes to the look-up with a sentence saying so. Without a token (the merchant's order e-mail links to
// <portal>/coverage/<reference>: only we can make tokens) it is the look-up with the reference filled in.
import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { portalApi } from "../portal/portal-api.server.ts";
import { startSession } from "../portal/session.server.ts";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const referenceNumber = params.reference ?? "";
  const token = new URL(request.url).searchParams.get("token") ?? "";
  if (!token) return redirect(`/portal?${new URLSearchParams({ reference: referenceNumber.slice(0, 64) })}`);
  const result =
    referenceNumber && token
      ? await portalApi.coverageLink({ request, context }, { referenceNumber, token })
      : undefined;
  if (!result?.ok) {
    const query = new URLSearchParams({ notice: "link-failed", reference: referenceNumber.slice(0, 64) });
    return redirect(`/portal?${query}`);
  }
  return redirect("/portal/plan", {
    headers: { "Set-Cookie": await startSession(request, result.data.portalToken, result.data.expiresAt) },
  });
}
