// Team (owners only, by the role table): the merchant's members, invitations by e-mail, role changes, disabling; and
// who gets the e-mail of what needs action (each member chooses on the overview).
import { listTeam, teamActionEmails, type TeamActor } from "../../../server/index.ts";
import { field, formAction } from "../../form-actions.server.ts";
import { sendSignInLinks } from "../sign-in.server.ts";
import { unconfirmed } from "../confirmation.server.ts";
import type { DashboardViewer, PageAction, PageContext } from "../viewer.ts";

const teamActorOf = (viewer: DashboardViewer): TeamActor => ({
  id: viewer.actor.id,
  email: viewer.actor.email,
  role: viewer.role,
  merchantId: viewer.merchantId,
  merchantName: viewer.merchantName,
  mode: viewer.mode,
});

export async function loadTeam({ runtime, viewer }: PageContext) {
  const [members, actionEmails] = await Promise.all([
    listTeam(runtime.db, teamActorOf(viewer)),
    teamActionEmails(runtime.db, viewer.merchantId),
  ]);
  return { members, me: viewer.actor.id, actionEmails };
}

export type TeamData = Awaited<ReturnType<typeof loadTeam>>;

export const teamAction: PageAction<unknown> = async ({ runtime, viewer, form }) => {
  const { team } = runtime.core;
  const by = teamActorOf(viewer);
  const intent = field(form, "intent");
  if (intent === "invite") {
    const values = { email: field(form, "email"), role: field(form, "role") };
    const result = await formAction(
      "invite",
      { email: "email", role: "role" },
      () => team.invite(by, values, viewer.ip),
      values,
    );
    if (!result.ok) return result.response;
    sendSignInLinks(runtime, [result.value.link], viewer.actor.email);
    return {
      ok: true,
      form: "invite",
      message: `${result.value.member.email} is invited: a sign-in link is on its way.`,
    };
  }
  const memberId = field(form, "memberId");
  if (intent === "disable") {
    const refused = unconfirmed(form, "member", "Nobody was disabled.");
    if (refused) return refused;
  }
  const result = await formAction("member", { memberId: "memberId", role: "role" }, () =>
    intent === "disable"
      ? team.disable(by, memberId, viewer.ip)
      : team.changeRole(by, { memberId, role: field(form, "role") }, viewer.ip),
  );
  if (!result.ok) return result.response;
  return {
    ok: true,
    form: "member",
    message:
      intent === "disable"
        ? `${result.value.email} can no longer sign in; their sessions have ended.`
        : `${result.value.email} is now ${result.value.role}.`,
  };
};
