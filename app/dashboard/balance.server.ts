// The open period's running balance, per currency, as the overview's card and the top of the Settlements page show
// it (docs/api.md "Settlement", "The running balance"): read from the ledger's open entries and the last closed statement.
import { runningBalances } from "../../server/index.ts";
import type { PageContext } from "./viewer.ts";

export async function loadBalances({ runtime, viewer }: Pick<PageContext, "runtime" | "viewer">) {
  const actor = { merchantId: viewer.merchantId, mode: viewer.mode };
  return {
    balances: await runningBalances(runtime.db, actor, runtime.services.clock()),
    /** Who the merchant settles with, as the sentences name it ("You owe Purchase Protection Inc. $12.40"). */
    counterparty: runtime.services.settings.companyName,
  };
}

export type BalancesData = Awaited<ReturnType<typeof loadBalances>>;
