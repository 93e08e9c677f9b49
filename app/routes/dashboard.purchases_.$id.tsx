import { standaloneAction, standaloneLoader } from "../dashboard/standalone.server.ts";
import { loadPurchase, purchaseAction } from "../dashboard/pages/purchases.server.ts";

export const loader = standaloneLoader("purchases", loadPurchase);
export const action = standaloneAction("purchases", purchaseAction);
export { PurchasePage as default } from "../dashboard/pages/PurchasePage.tsx";
