import { embeddedLoader } from "../dashboard/embedded.server.ts";
import { loadAudit } from "../dashboard/pages/audit.server.ts";

export const loader = embeddedLoader("audit", loadAudit);
export { AuditPage as default } from "../dashboard/pages/AuditPage.tsx";
