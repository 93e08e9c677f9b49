// POST /ops/sign-out: revokes the session (its row: the cookie opens nothing afterwards, even if kept) and clears the
// cookie. A GET only goes to the sign-in page.
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { asStaffMember, checkOrigin, endSession, runtime } from "../ops/console.server.ts";

export async function action({ request, context }: ActionFunctionArgs) {
  checkOrigin(request);
  await asStaffMember(request, context, (caller) => runtime().core.accounts.signOut("staff", caller));
  return redirect("/ops/sign-in?notice=signed-out", { headers: { "Set-Cookie": await endSession(request) } });
}

export const loader = () => redirect("/ops/sign-in");
