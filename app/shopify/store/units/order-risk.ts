// The order risk job's unit of work (app/shopify/order-risk.server.ts): Shopify's risk of a protected order recorded
// in the core, which assesses the plan's open claims again, in one transaction.
import { recordOrderRisk, type Actor, type Database, type OrderRisk, type Services } from "../../../../server/index.ts";

/** Returns false for an order the core does not know. */
export function saveOrderRisk(
  db: Database,
  services: Services,
  owner: Actor,
  orderId: string,
  risk: OrderRisk,
): Promise<boolean> {
  return db.transaction((tx) => recordOrderRisk(tx, services, owner, orderId, risk));
}
