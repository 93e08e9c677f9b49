import { embeddedLoader } from "../dashboard/embedded.server.ts";
import { loadClaims } from "../dashboard/pages/claims.server.ts";

export const loader = embeddedLoader("claims", loadClaims);
export { ClaimsPage as default } from "../dashboard/pages/ClaimsPage.tsx";
