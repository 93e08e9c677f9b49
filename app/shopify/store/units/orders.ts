// The order jobs' units of work (app/shopify/orders.server.ts): each one transaction, which also marks the job done
// where it is the job's last write. (orders/create's plan and its rows are the core's unit: deps.shopify.protectOrder.)
import type { Database, Services } from "../../../../server/index.ts";
import type { JobCompletion } from "../../jobs.server.ts";
import { enqueueNamedJobOnce, type NamedJobOnce } from "../../named-jobs.ts";
import { lockShopifyOrderRefunds, markShopifyOrderReferenceWritten, saveShopifyOrderRefunds } from "../orders.ts";

/** An order that gets no plan: the refund of its protection units is queued with the job's completion. */
export function queueUnitsRefund(
  db: Database,
  services: Services,
  refund: NamedJobOnce<"refund_protection_lines">,
  completion: JobCompletion,
): Promise<void> {
  return db.transaction(async (tx) => {
    await enqueueNamedJobOnce(tx, services, refund);
    await completion.markDone(tx);
  });
}

/** The reference number is on the order: its row says so, with the job's completion. */
export function saveReferenceWritten(
  db: Database,
  services: Services,
  order: { shop: string; orderId: string },
  completion: JobCompletion,
): Promise<void> {
  return db.transaction(async (tx) => {
    await markShopifyOrderReferenceWritten(tx, order.shop, order.orderId, services.clock());
    await completion.markDone(tx);
  });
}

/**
 * Counts a refund of the protected order once (by its id; the order's row locked, so concurrent refunds all count).
 * Returns what the counted refunds add up to.
 */
export function countOrderRefund(
  db: Database,
  services: Services,
  order: { shop: string; orderId: string },
  refund: { id: string; refundedCents: number },
): Promise<number> {
  const { shop, orderId } = order;
  return db.transaction(async (tx) => {
    const counted = (await lockShopifyOrderRefunds(tx, shop, orderId))!;
    if (counted.refundIds.includes(refund.id)) return counted.refundedCents;
    const sum = counted.refundedCents + refund.refundedCents;
    await saveShopifyOrderRefunds(
      tx,
      shop,
      orderId,
      { refundIds: [...counted.refundIds, refund.id], refundedCents: sum },
      services.clock(),
    );
    return sum;
  });
}
