// app/scopes_update: the merchant granted or revoked access scopes; its job stores the current ones on the sessions.
import { handledWebhook } from "./webhook.ts";

export interface AppScopesUpdate {
  id: number;
  /** Since API version 2025-07. */
  shop_id?: number;
  previous: string[];
  current: string[];
  updated_at: string;
}

export const appScopesUpdate = handledWebhook({
  topic: "app/scopes_update",
  job: "app/scopes_update",
  jobPayload: (update: AppScopesUpdate) => ({ current: update.current ?? [] }),
});
