// POST /portal/sign-out: ends the session on the server (POST /api/v1/portal/sign-out: its token stops working at
// once, in every process) and forgets the cookie.
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { buyerOf, portal } from "../portal/buyer.server.ts";
import { checkCsrf, endSession, sessionToken } from "../portal/session.server.ts";
import { portalTextFor } from "../portal/locale.server.ts";
import { readForm } from "../form.server.ts";

export async function action({ request, context }: ActionFunctionArgs) {
  await checkCsrf(request, await readForm(request));
  const token = await sessionToken(request);
  // An already-ended or expired session (401) is signed out all the same; any other failure is the page's error.
  const result = token ? await portal().signOut(buyerOf(request, context, token)) : undefined;
  if (result && !result.ok && result.status !== 401)
    throw new Response((await portalTextFor(request)).t("signOutFailed"), { status: 503 });
  return redirect("/portal?notice=signed-out", { headers: await endSession(request) });
}

export const loader = () => redirect("/portal");
