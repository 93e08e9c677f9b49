// The periodic purge, one task for the API process and for `npm run worker`: idempotency records past their 24 h,
// portal sessions past their 30 min, the claims team's and the dashboard team's spent sign-in links and sessions, and evidence bytes no claim
// names any more (server/domain/evidence-sweep.ts).
import type { Services } from "../domain/context.ts";
import type { Database } from "../store/database.ts";
import { deleteExpiredIdempotencyRecords } from "../store/idempotency.ts";
import { purgeExpiredPortalSessions } from "../domain/portal.ts";
import { sweepUnnamedEvidence } from "../domain/evidence-sweep.ts";
import { purgeStaleStaffCredentials } from "../domain/staff.ts";
import { purgeStaleMemberCredentials } from "../domain/members.ts";

/** Resolves to how many records, sessions and evidence files went. */
export async function purgeExpired(db: Database, services: Services): Promise<number> {
  const now = services.clock();
  const records = await db.transaction((tx) => deleteExpiredIdempotencyRecords(tx, now));
  const sessions = await db.transaction((tx) => purgeExpiredPortalSessions(tx, now));
  const staff = await db.transaction((tx) => purgeStaleStaffCredentials(tx, now));
  const members = await db.transaction((tx) => purgeStaleMemberCredentials(tx, now));
  const evidence = services.evidence ? await sweepUnnamedEvidence(db, services.evidence, now) : 0;
  return records + sessions + staff + members + evidence;
}
