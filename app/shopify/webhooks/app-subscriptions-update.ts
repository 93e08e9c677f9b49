// app_subscriptions/update: the app's subscription on the shop changed status (approved, declined, cancelled, frozen,
// expired) or had its capped amount raised; its job keeps the status and acts on it (app/shopify/billing.server.ts).
import type { SubscriptionStatus } from "../store/billing.ts";
import { handledWebhook } from "./webhook.ts";

/** Shopify's app_subscriptions/update payload (the fields a reader would check). */
export interface AppSubscriptionsUpdate {
  app_subscription: {
    admin_graphql_api_id: string;
    name: string;
    status: SubscriptionStatus;
    admin_graphql_api_shop_id: string;
    created_at: string;
    updated_at: string;
    currency: string;
    capped_amount?: string;
  };
}

export const appSubscriptionsUpdate = handledWebhook({
  topic: "app_subscriptions/update",
  job: "app_subscriptions/update",
  jobPayload: ({ app_subscription: subscription }: AppSubscriptionsUpdate) => ({
    subscriptionId: subscription.admin_graphql_api_id,
    status: subscription.status,
  }),
});
