import { standaloneAction, standaloneLoader } from "../dashboard/standalone.server.ts";
import { loadRefunds, refundsAction } from "../dashboard/pages/refunds.server.ts";

export const loader = standaloneLoader("refunds", loadRefunds);
export const action = standaloneAction("refunds", refundsAction);
export { RefundsPage as default } from "../dashboard/pages/RefundsPage.tsx";
