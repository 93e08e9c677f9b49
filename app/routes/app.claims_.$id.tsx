import { embeddedAction, embeddedLoader } from "../dashboard/embedded.server.ts";
import { claimAction, loadClaim } from "../dashboard/pages/claim.server.ts";

export const loader = embeddedLoader("claims", loadClaim);
export const action = embeddedAction("claims", claimAction);
export { ClaimPage as default } from "../dashboard/pages/ClaimPage.tsx";
