// app/uninstalled: its job revokes the shop's keys and deletes its sessions; nothing of the payload is kept.
import { handledWebhook } from "./webhook.ts";

/** Shopify's Shop resource, which app/uninstalled sends (the fields a reader would check). */
export interface ShopifyShop {
  id: number;
  domain: string;
  myshopify_domain?: string;
}

export const appUninstalled = handledWebhook({
  topic: "app/uninstalled",
  job: "app/uninstalled",
  jobPayload: (_shop: ShopifyShop) => ({}),
});
