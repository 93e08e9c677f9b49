// The claims console's changes run as a staff member authenticated inside their own transaction from the session
// token: a session that ended (signed out, expired, the account disabled) or a reviewer where an admin is needed
// changes nothing. The console answers a refusal as its pages do (app/ops/console.server.ts).
import type { CoreDeps } from "./deps.ts";
import type { Tx } from "../domain/context.ts";
import { authenticateStaff, type StaffPrincipal } from "../domain/staff.ts";
import type { AccountCaller } from "./accounts.ts";

/** A console request: its session token (the ops_session cookie) and the client's address for the audit log. */
export type StaffCaller = AccountCaller;

/** Why a console change was refused before it started: no live session, or not an admin. */
export class StaffRefused extends Error {
  readonly reason: "signed_out" | "not_admin";

  constructor(reason: "signed_out" | "not_admin") {
    super(reason === "signed_out" ? "The staff session has ended." : "Only an admin can do this.");
    this.name = "StaffRefused";
    this.reason = reason;
  }
}

export function asStaff<T>(
  { db, services }: CoreDeps,
  caller: StaffCaller,
  role: "any" | "admin",
  work: (tx: Tx, staff: StaffPrincipal) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const staff = await authenticateStaff(tx, services, caller.sessionToken);
    if (!staff) throw new StaffRefused("signed_out");
    if (role === "admin" && staff.role !== "admin") throw new StaffRefused("not_admin");
    return work(tx, staff);
  });
}
