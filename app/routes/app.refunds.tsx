import { embeddedAction, embeddedLoader } from "../dashboard/embedded.server.ts";
import { loadRefunds, refundsAction } from "../dashboard/pages/refunds.server.ts";

export const loader = embeddedLoader("refunds", loadRefunds);
export const action = embeddedAction("refunds", refundsAction);
export { RefundsPage as default } from "../dashboard/pages/RefundsPage.tsx";
