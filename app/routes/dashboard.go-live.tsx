import { currentMember, standaloneAction, standaloneLoader } from "../dashboard/standalone.server.ts";
import { goLiveAction, loadGoLive, switchMerchantLive } from "../dashboard/pages/go-live.server.ts";
import type { PageContext } from "../dashboard/viewer.ts";

export const loader = standaloneLoader("goLive", loadGoLive);
export const action = standaloneAction(
  "goLive",
  goLiveAction<PageContext>(async (context, input) => {
    await switchMerchantLive(context, input);
    // Whoever went live wants to see live: the session shows live data from this answer on, so the mode banner (and
    // every page) follows at once instead of still saying "test data" until the member switches by hand.
    const member = await currentMember(context.request);
    if (member) await context.runtime.core.team.switchMode(member, "live");
  }),
);
export { GoLivePage as default } from "../dashboard/pages/GoLivePage.tsx";
