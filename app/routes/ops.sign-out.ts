// POST /ops/sign-out: revokes the session (its row: the cookie opens nothing afterwards, even if kept) and clears the
// cookie. A GET only goes to the sign-in page.
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { signOutStaff } from "../../server/index.ts";
import { checkOrigin, clientIp, currentStaff, endSession, runtime } from "../ops/console.server.ts";

export async function action({ request, context }: ActionFunctionArgs) {
  checkOrigin(request);
  const { db, services } = runtime();
  await db.transaction(async (tx) => {
    const staff = await currentStaff(request, tx);
    if (staff) await signOutStaff(tx, services, staff, clientIp(request, context) ?? "");
  });
  return redirect("/ops/sign-in?notice=signed-out", { headers: { "Set-Cookie": await endSession(request) } });
}

export const loader = () => redirect("/ops/sign-in");
