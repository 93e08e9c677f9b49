// POST /dashboard/action-emails: the signed-in member's own choice of the digest e-mails of what needs action (the
// overview's "E-mail me what needs action"; an unticked box sends no field: off). Back to the overview.
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { chooseActionEmails } from "../../server/index.ts";
import { protectionRuntime } from "../protection-api.server.ts";
import { standaloneMemberAction } from "../dashboard/standalone.server.ts";
import { answeringRefusals } from "../form-actions.server.ts";

export async function action(args: ActionFunctionArgs) {
  const { member, form } = await standaloneMemberAction(args);
  const runtime = protectionRuntime();
  await answeringRefusals(() =>
    chooseActionEmails(runtime.db, runtime.services, member, { wanted: form.get("actionEmails") ?? "off" }),
  );
  return redirect("/dashboard");
}

export const loader = () => redirect("/dashboard");
