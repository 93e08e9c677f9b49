import { embeddedLoader } from "../dashboard/embedded.server.ts";
import { loadSettlements } from "../dashboard/pages/settlements.server.ts";

export const loader = embeddedLoader("settlements", loadSettlements);
export { SettlementsPage as default } from "../dashboard/pages/SettlementsPage.tsx";
