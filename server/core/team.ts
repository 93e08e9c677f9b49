// A merchant's team (owners, by the role table): invite by e-mail (the sign-in link is in the answer, for the app to
// send), change a role, disable; and which data a member's session shows (test or live). Each change is audited in
// its transaction (the domain's).
import type { CoreDeps } from "./deps.ts";
import {
  changeMemberRole,
  disableMember,
  inviteMember,
  switchDashboardMode,
  type MemberPrincipal,
  type TeamActor,
} from "../domain/members.ts";

export function teamArea({ db, services }: CoreDeps) {
  return {
    invite: (by: TeamActor, input: { email: unknown; role: unknown }, ip: string) =>
      db.transaction((tx) => inviteMember(tx, services, by, input, ip)),
    changeRole: (by: TeamActor, input: { memberId: unknown; role: unknown }, ip: string) =>
      db.transaction((tx) => changeMemberRole(tx, services, by, input, ip)),
    disable: (by: TeamActor, memberId: string, ip: string) =>
      db.transaction((tx) => disableMember(tx, services, by, memberId, ip)),
    switchMode: (member: MemberPrincipal, mode: unknown) =>
      db.transaction((tx) => switchDashboardMode(tx, member, mode)),
  };
}
