import { embeddedAction, embeddedLoader } from "../dashboard/embedded.server.ts";
import { loadPurchase, purchaseAction } from "../dashboard/pages/purchases.server.ts";

export const loader = embeddedLoader("purchases", loadPurchase);
export const action = embeddedAction("purchases", purchaseAction);
export { PurchasePage as default } from "../dashboard/pages/PurchasePage.tsx";
