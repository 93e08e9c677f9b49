// The claims team's accounts (admins, /ops/staff): invite, change a role, disable, reactivate; each audited in the
// transaction that checks the admin again, so a demoted or disabled admin changes nothing.
import type { CoreDeps } from "./deps.ts";
import { asStaff, type StaffCaller } from "./staff-session.ts";
import { changeStaffRole, disableStaff, inviteStaff, reactivateStaff } from "../domain/staff.ts";

export function staffArea(deps: CoreDeps) {
  const { services } = deps;
  return {
    invite: (caller: StaffCaller, input: { email: unknown; name: unknown; role: unknown }) =>
      asStaff(deps, caller, "admin", (tx, admin) => inviteStaff(tx, services, admin, input, caller.ip ?? "")),
    changeRole: (caller: StaffCaller, input: { staffId: unknown; role: unknown }) =>
      asStaff(deps, caller, "admin", (tx, admin) => changeStaffRole(tx, services, admin, input, caller.ip ?? "")),
    disable: (caller: StaffCaller, staffId: string) =>
      asStaff(deps, caller, "admin", (tx, admin) => disableStaff(tx, services, admin, staffId, caller.ip ?? "")),
    reactivate: (caller: StaffCaller, staffId: string) =>
      asStaff(deps, caller, "admin", (tx, admin) => reactivateStaff(tx, services, admin, staffId, caller.ip ?? "")),
  };
}
