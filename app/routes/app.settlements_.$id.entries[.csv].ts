// /app/settlements/<id>/entries.csv: a statement's entries as a download, in the Shopify admin (fetched through App Bridge).
import { embeddedLoader } from "../dashboard/embedded.server.ts";
import { loadSettlementCsv } from "../dashboard/pages/settlements.server.ts";

export const loader = embeddedLoader("settlements", loadSettlementCsv);
