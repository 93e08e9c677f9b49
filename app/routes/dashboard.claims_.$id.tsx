import { standaloneAction, standaloneLoader } from "../dashboard/standalone.server.ts";
import { claimAction, loadClaim } from "../dashboard/pages/claim.server.ts";

export const loader = standaloneLoader("claims", loadClaim);
export const action = standaloneAction("claims", claimAction);
export { ClaimPage as default } from "../dashboard/pages/ClaimPage.tsx";
