import { standaloneLoader } from "../dashboard/standalone.server.ts";
import { loadAnalytics } from "../dashboard/pages/analytics.server.ts";

export const loader = standaloneLoader("analytics", loadAnalytics);
export { AnalyticsPage as default } from "../dashboard/pages/AnalyticsPage.tsx";
