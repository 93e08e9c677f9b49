// /dashboard/analytics.csv: the Analytics page's series as a download, for the signed-in member.
import { standaloneLoader } from "../dashboard/standalone.server.ts";
import { loadAnalyticsCsv } from "../dashboard/pages/analytics.server.ts";

export const loader = standaloneLoader("analytics", loadAnalyticsCsv);
