import { standaloneLoader } from "../dashboard/standalone.server.ts";
import { loadOverview } from "../dashboard/pages/overview.server.ts";

export const loader = standaloneLoader("overview", loadOverview);
export { OverviewPage as default } from "../dashboard/pages/OverviewPage.tsx";
