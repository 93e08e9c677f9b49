import { standaloneLoader } from "../dashboard/standalone.server.ts";
import { loadAudit } from "../dashboard/pages/audit.server.ts";

export const loader = standaloneLoader("audit", loadAudit);
export { AuditPage as default } from "../dashboard/pages/AuditPage.tsx";
