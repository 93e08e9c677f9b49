// POST /dashboard/sign-out: signs the member out on every device (all their sessions are revoked).
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { protectionRuntime } from "../protection-api.server.ts";
import { endDashboardSession, standaloneMemberAction } from "../dashboard/standalone.server.ts";

export async function action(args: ActionFunctionArgs) {
  const { sessionToken, ip } = await standaloneMemberAction(args);
  await protectionRuntime().core.accounts.signOut("merchant", { sessionToken, ip });
  return redirect("/dashboard/sign-in?notice=signed-out", {
    headers: { "Set-Cookie": await endDashboardSession(args.request) },
  });
}

export const loader = () => redirect("/dashboard");
