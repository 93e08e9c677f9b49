import { standaloneLoader } from "../dashboard/standalone.server.ts";
import { loadSettlements } from "../dashboard/pages/settlements.server.ts";

export const loader = standaloneLoader("settlements", loadSettlements);
export { SettlementsPage as default } from "../dashboard/pages/SettlementsPage.tsx";
