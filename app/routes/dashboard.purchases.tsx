import { standaloneLoader } from "../dashboard/standalone.server.ts";
import { loadPurchases } from "../dashboard/pages/purchases.server.ts";

export const loader = standaloneLoader("purchases", loadPurchases);
export { PurchasesPage as default } from "../dashboard/pages/PurchasesPage.tsx";
