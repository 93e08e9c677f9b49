import { standaloneLoader } from "../dashboard/standalone.server.ts";
import { loadClaims } from "../dashboard/pages/claims.server.ts";

export const loader = standaloneLoader("claims", loadClaims);
export { ClaimsPage as default } from "../dashboard/pages/ClaimsPage.tsx";
