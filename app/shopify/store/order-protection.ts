// What the post-purchase blocks (Thank-you and Order-status pages) show for one Shopify order: its plan as the
// shop's shopify_orders row names it, "pending" while the order's orders/create webhook has not made the plan yet, or
// nothing.
import type { PlanStatus, Queryable } from "../../../server/index.ts";

export type ShopifyOrderProtection =
  | { state: "plan"; referenceNumber: string; status: PlanStatus; freeLookEndsAt: number }
  | { state: "pending" }
  | { state: "none" };

/**
 * The order's protection as its shop sees it. With no row yet: "pending" while its orders/create job waits, or
 * while nothing at all is known of the order (the Thank-you page often loads before the webhook arrives; callers ask
 * only about orders that carry the opt-in); "none" once that job ran without making a plan, or when the order id is
 * another shop's.
 */
export async function findShopifyOrderProtection(
  tx: Queryable,
  shop: string,
  orderId: string,
): Promise<ShopifyOrderProtection> {
  const plan = await tx.get<{ reference_number: string; status: PlanStatus; free_look_ends_at: number }>(
    `SELECT p.reference_number, p.status, p.free_look_ends_at
     FROM shopify_orders s JOIN plans p ON p.id = s.plan_id
     WHERE s.shop = ? AND s.order_id = ?`,
    [shop, orderId],
  );
  if (plan)
    return {
      state: "plan",
      referenceNumber: plan.reference_number,
      status: plan.status,
      freeLookEndsAt: Number(plan.free_look_ends_at),
    };
  const job = await tx.get<{ status: string }>(
    `SELECT status FROM shopify_jobs WHERE shop = ? AND kind = 'orders/create' AND subject = ?
     ORDER BY CASE status WHEN 'pending' THEN 0 ELSE 1 END LIMIT 1`,
    [shop, orderId],
  );
  if (job) return { state: job.status === "pending" ? "pending" : "none" };
  const elsewhere = await tx.get("SELECT 1 AS found FROM shopify_orders WHERE order_id = ? AND shop <> ?", [
    orderId,
    shop,
  ]);
  return elsewhere ? { state: "none" } : { state: "pending" };
}
