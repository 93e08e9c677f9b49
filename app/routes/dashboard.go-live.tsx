import { standaloneAction, standaloneLoader } from "../dashboard/standalone.server.ts";
import { goLiveAction, loadGoLive, switchMerchantLive } from "../dashboard/pages/go-live.server.ts";

export const loader = standaloneLoader("goLive", loadGoLive);
export const action = standaloneAction("goLive", goLiveAction(switchMerchantLive));
export { GoLivePage as default } from "../dashboard/pages/GoLivePage.tsx";
