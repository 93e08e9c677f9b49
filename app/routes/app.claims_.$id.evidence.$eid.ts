// /app/claims/<id>/evidence/<file id>: a claim's file, in the Shopify admin (fetched through App Bridge).
import { embeddedLoader } from "../dashboard/embedded.server.ts";
import { loadClaimEvidence } from "../dashboard/pages/claim.server.ts";

export const loader = embeddedLoader("claims", loadClaimEvidence);
