// Go live in the Shopify admin: the dashboard's checklist and switch, where the switch also moves the shop's
// installation to live keys and the live program (app/shopify/go-live.server.ts), and the order-confirmation snippet
// to paste into Shopify's notification.
import { embeddedAction, embeddedLoader, type ShopPageContext } from "../dashboard/embedded.server.ts";
import { goLiveAction, loadGoLive } from "../dashboard/pages/go-live.server.ts";
import { goLiveShop, shopGoLiveState } from "../shopify/go-live.server.ts";
import { orderConfirmationSnippet } from "../shopify/email-snippet.ts";

export const loader = embeddedLoader("goLive", async (context) => ({
  ...(await loadGoLive(context)),
  shopify: {
    ...shopGoLiveState(context.installation),
    emailSnippet: orderConfirmationSnippet(context.runtime.services.settings),
  },
}));

export const action = embeddedAction(
  "goLive",
  goLiveAction(({ deps, shop, viewer }: ShopPageContext, input) => goLiveShop(deps, shop, viewer, input)),
);
export { GoLivePage as default } from "../dashboard/pages/GoLivePage.tsx";
