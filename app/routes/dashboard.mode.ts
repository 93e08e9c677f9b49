// POST /dashboard/mode: which data the session's pages show (test or live); back to the page it was sent from.
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { protectionRuntime } from "../protection-api.server.ts";
import { standaloneMemberAction } from "../dashboard/standalone.server.ts";
import { answeringRefusals } from "../form-actions.server.ts";

export async function action(args: ActionFunctionArgs) {
  const { member, form } = await standaloneMemberAction(args);
  await answeringRefusals(() => protectionRuntime().core.team.switchMode(member, form.get("mode")));
  const from = URL.parse(args.request.headers.get("Referer") ?? "")?.pathname;
  const back = from?.startsWith("/dashboard") ? from : "/dashboard";
  return redirect(back);
}

export const loader = () => redirect("/dashboard");
