import { embeddedLoader } from "../dashboard/embedded.server.ts";
import { loadStatement } from "../dashboard/pages/settlements.server.ts";

export const loader = embeddedLoader("settlements", loadStatement);
export { StatementPage as default } from "../dashboard/pages/StatementPage.tsx";
