// /app/settlements/<id>/entries.csv: a statement's entries as a download, in the Shopify admin (fetched through App
// Bridge), ending with a row for its charge through Shopify when it has one.
import { embeddedLoader } from "../dashboard/embedded.server.ts";
import { loadSettlementCsv } from "../dashboard/pages/settlements.server.ts";
import { loadStatementCharge, statementChargeCsvRow } from "../shopify/dashboard.server.ts";

export const loader = embeddedLoader("settlements", async (context) => {
  const csv = await loadSettlementCsv(context);
  const statementId = decodeURIComponent(new URL(context.request.url).pathname.split("/").at(-2) ?? "");
  const charge = await loadStatementCharge(context.deps.db, context.shop, statementId);
  if (!charge) return csv;
  const headers = new Headers(csv.headers);
  headers.delete("Content-Length");
  return new Response((await csv.text()) + statementChargeCsvRow(statementId, charge), { status: csv.status, headers });
});
