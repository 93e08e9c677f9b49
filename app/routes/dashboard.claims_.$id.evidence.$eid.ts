// /dashboard/claims/<id>/evidence/<file id>: a claim's file, for a signed-in member.
import { standaloneLoader } from "../dashboard/standalone.server.ts";
import { loadClaimEvidence } from "../dashboard/pages/claim.server.ts";

export const loader = standaloneLoader("claims", loadClaimEvidence);
