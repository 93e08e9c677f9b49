// A closed statement in the Shopify admin: the dashboard's statement page, with what was charged for it through
// Shopify (app/shopify/billing.server.ts) when it is one of the shop's live statements.
import { embeddedLoader } from "../dashboard/embedded.server.ts";
import { loadStatement } from "../dashboard/pages/settlements.server.ts";
import { loadStatementCharge } from "../shopify/dashboard.server.ts";

export const loader = embeddedLoader("settlements", async (context) => {
  const data = await loadStatement(context);
  return { ...data, shopifyCharge: await loadStatementCharge(context.deps.db, context.shop, data.statement.id) };
});
export { StatementPage as default } from "../dashboard/pages/StatementPage.tsx";
