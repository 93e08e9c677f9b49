// /dashboard/settlements/<id>/entries.csv: a statement's entries as a download, for the signed-in member.
import { standaloneLoader } from "../dashboard/standalone.server.ts";
import { loadSettlementCsv } from "../dashboard/pages/settlements.server.ts";

export const loader = standaloneLoader("settlements", loadSettlementCsv);
