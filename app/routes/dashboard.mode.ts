// POST /dashboard/mode: which data the session's pages show (test or live); back to the page it was sent from.
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { switchDashboardMode } from "../../server/index.ts";
import { protectionRuntime } from "../protection-api.server.ts";
import { standaloneMemberAction } from "../dashboard/standalone.server.ts";

export async function action(args: ActionFunctionArgs) {
  const { member, form } = await standaloneMemberAction(args);
  await protectionRuntime().db.transaction((tx) => switchDashboardMode(tx, member, form.get("mode")));
  const from = args.request.headers.get("Referer");
  const back = from && new URL(from).pathname.startsWith("/dashboard") ? new URL(from).pathname : "/dashboard";
  return redirect(back);
}

export const loader = () => redirect("/dashboard");
