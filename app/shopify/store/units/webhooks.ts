// Receiving a webhook (app/shopify/webhooks.server.ts) as one unit of work: its receipt and the job that does its
// topic's work commit together, so a duplicate adds no job and an accepted webhook never lacks one.
import type { Database, Services } from "../../../../server/index.ts";
import { enqueueJob, type Job } from "../../jobs.server.ts";
import { insertShopifyWebhookReceipt, type ShopifyWebhookReceipt } from "../webhook-receipts.ts";

/**
 * Records the receipt and adds its job (`jobFor`, read only for a fresh receipt: a duplicate's payload is never
 * looked at), claimed by the caller, who runs it at once. Undefined, and no job, for a webhook id received before.
 */
export function saveWebhookReceipt(
  db: Database,
  services: Services,
  receipt: ShopifyWebhookReceipt,
  jobFor: () => { kind: string; subject: string | undefined; payload: unknown },
): Promise<Job | undefined> {
  return db.transaction(async (tx) => {
    if (!(await insertShopifyWebhookReceipt(tx, receipt))) return undefined;
    return enqueueJob(tx, services, { shop: receipt.shop, ...jobFor(), claimed: true });
  });
}
