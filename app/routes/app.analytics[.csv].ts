// /app/analytics.csv: the Analytics page's series as a download, in the Shopify admin (fetched through App Bridge).
import { embeddedLoader } from "../dashboard/embedded.server.ts";
import { loadAnalyticsCsv } from "../dashboard/pages/analytics.server.ts";

export const loader = embeddedLoader("analytics", loadAnalyticsCsv);
