// Settlements: the open period's running balance per currency (loadBalances), then the viewer's closed statements (what we owe the merchant or they owe us, per currency and period),
// newest first, and each one's entries as the CSV the API serves (GET /settlements/{id}/entries.csv).
import { getSettlement, listSettlements, settlementEntriesCsv } from "../../../server/index.ts";
import { downloadResponse } from "../../downloads.server.ts";
import type { PageContext } from "../viewer.ts";
import { loadBalances } from "../balance.server.ts";

export async function loadSettlements({ runtime, viewer, request }: PageContext) {
  const after = new URL(request.url).searchParams.get("after") ?? undefined;
  const [page, balances] = await Promise.all([
    listSettlements(
      runtime.db,
      { merchantId: viewer.merchantId, mode: viewer.mode },
      { limit: 25, startingAfter: after?.slice(0, 255) || undefined },
    ),
    loadBalances({ runtime, viewer }),
  ]);
  return { ...balances, statements: page.data, nextAfter: page.hasMore ? page.nextCursor : null };
}

export type SettlementsData = Awaited<ReturnType<typeof loadSettlements>>;

/** One closed statement with its entries, oldest first (its id is the URL's last segment). */
export async function loadStatement({ runtime, viewer, request }: PageContext) {
  const statementId = decodeURIComponent(new URL(request.url).pathname.split("/").pop() ?? "");
  const statement = await getSettlement(runtime.db, { merchantId: viewer.merchantId, mode: viewer.mode }, statementId);
  return { statement, counterparty: runtime.services.settings.companyName };
}

export type StatementData = Awaited<ReturnType<typeof loadStatement>>;

/** The statement's entries as a CSV attachment (its id is the URL's second-to-last segment). */
export async function loadSettlementCsv({ runtime, viewer, request }: PageContext): Promise<Response> {
  const statementId = decodeURIComponent(new URL(request.url).pathname.split("/").at(-2) ?? "");
  return downloadResponse(
    await settlementEntriesCsv(runtime.db, { merchantId: viewer.merchantId, mode: viewer.mode }, statementId),
  );
}
