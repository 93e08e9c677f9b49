import { embeddedLoader } from "../dashboard/embedded.server.ts";
import { loadPurchases } from "../dashboard/pages/purchases.server.ts";

export const loader = embeddedLoader("purchases", loadPurchases);
export { PurchasesPage as default } from "../dashboard/pages/PurchasesPage.tsx";
