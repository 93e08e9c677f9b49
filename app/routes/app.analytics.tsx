import { embeddedLoader } from "../dashboard/embedded.server.ts";
import { loadAnalytics } from "../dashboard/pages/analytics.server.ts";

export const loader = embeddedLoader("analytics", loadAnalytics);
export { AnalyticsPage as default } from "../dashboard/pages/AnalyticsPage.tsx";
