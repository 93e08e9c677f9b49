import { standaloneAction, standaloneLoader } from "../dashboard/standalone.server.ts";
import { goLiveAction, loadGoLive } from "../dashboard/pages/go-live.server.ts";

export const loader = standaloneLoader("goLive", loadGoLive);
export const action = standaloneAction("goLive", goLiveAction);
export { GoLivePage as default } from "../dashboard/pages/GoLivePage.tsx";
