// The Shopify side's runtime: the handlers' dependencies and a started job queue that runs every handler. The app
// process creates one (app/shopify.server.ts) from the protection runtime and shopifyApp().
import { billingHandlers, statementChargeTask } from "./billing.server.ts";
import { claimPayoutHandlers, claimPayoutOutcomes, claimPayoutTask } from "./claim-payouts.server.ts";
import { deliveryHandlers } from "./deliveries.server.ts";
import { createShopifyDeps, type DepsInput, type ShopifyDeps } from "./deps.server.ts";
import { feeRefundHandlers, feeRefundTask } from "./fee-refunds.server.ts";
import { createJobQueue, type JobQueue } from "./jobs.server.ts";
import { queueHandlers } from "./named-jobs.ts";
import { offlineTokenTask } from "./offline-tokens.server.ts";
import { orderHandlers } from "./orders.server.ts";
import { orderEventsTask, orderStateHandlers } from "./order-states.server.ts";
import { orderRiskHandlers } from "./order-risk.server.ts";
import { shopLifecycleHandlers } from "./shop-lifecycle.server.ts";

export interface ShopifyRuntime {
  deps: ShopifyDeps;
  queue: JobQueue;
}

export function createShopifyRuntime(input: Omit<DepsInput, "wakeJobs">): ShopifyRuntime {
  // The handlers wake the queue only once they run, after it exists.
  const deps = createShopifyDeps({ ...input, wakeJobs: () => queue.wake() });
  const queue = createJobQueue({
    db: deps.db,
    services: deps.services,
    logger: deps.logger,
    handlers: queueHandlers({
      ...orderHandlers(deps),
      ...deliveryHandlers(deps),
      ...shopLifecycleHandlers(deps),
      ...feeRefundHandlers(deps),
      ...claimPayoutHandlers(deps),
      ...billingHandlers(deps),
      ...orderStateHandlers(deps),
      ...orderRiskHandlers(deps),
    }),
    periodicTasks: [
      feeRefundTask(deps),
      claimPayoutTask(deps),
      orderEventsTask(deps),
      offlineTokenTask(deps),
      statementChargeTask(deps),
    ],
    outcomeRecorders: claimPayoutOutcomes(),
  });
  queue.start();
  return { deps, queue };
}
