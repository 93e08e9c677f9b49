// refunds/create: its job counts the refund and reports the order refunded once the goods amount is (the app's own
// refund of a claim, which its note names, is not the merchant's).
import { handledWebhook } from "./webhook.ts";
import type { ShopifyRefund } from "./shopify-refund.ts";

export const refundsCreate = handledWebhook({
  topic: "refunds/create",
  job: "refunds/create",
  jobPayload: (refund: ShopifyRefund) => ({
    id: String(refund.id),
    order_id: String(refund.order_id),
    note: refund.note ?? null,
    transactions: refund.transactions ?? [],
  }),
});
