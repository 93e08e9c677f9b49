// POST /portal/sign-out: forgets the session (the cookie; the API's token expires by itself within 30 minutes).
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { checkCsrf, endSession } from "../portal/session.server.ts";

export async function action({ request }: ActionFunctionArgs) {
  await checkCsrf(request, await request.formData());
  return redirect("/portal?notice=signed-out", { headers: { "Set-Cookie": await endSession(request) } });
}

export const loader = () => redirect("/portal");
