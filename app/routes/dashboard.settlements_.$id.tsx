import { standaloneLoader } from "../dashboard/standalone.server.ts";
import { loadStatement } from "../dashboard/pages/settlements.server.ts";

export const loader = standaloneLoader("settlements", loadStatement);
export { StatementPage as default } from "../dashboard/pages/StatementPage.tsx";
