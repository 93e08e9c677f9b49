// What the buyer of a plan paid in their own currency when it is not the plan's (plan_presentments): a Shopify
// Markets order's presentment currency, its amounts and the rate to the plan's currency (docs/shopify.md "Shopify
// Markets: the buyer's currency"). The plan, its ledger and statements stay in the plan's currency.
import type { Queryable } from "./database.ts";
import type { PlanPresentmentRecord } from "../vocabulary/plans.ts";

/** Records the plan's presentment; a plan that has one keeps it (the job that made the plan may run again). */
export async function insertPlanPresentment(
  tx: Queryable,
  planId: string,
  presentment: PlanPresentmentRecord,
  at: number,
): Promise<void> {
  await tx.run(
    `INSERT INTO plan_presentments (plan_id, currency, covered_amount_cents, buyer_paid_cents, exchange_rate, created_at)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (plan_id) DO NOTHING`,
    [
      planId,
      presentment.currency,
      presentment.coveredAmountCents,
      presentment.buyerPaidCents,
      presentment.exchangeRate,
      at,
    ],
  );
}
