// shop/redact (48 h after uninstall): its job erases the shop's merchant; nothing of the payload is kept.
import { handledWebhook } from "./webhook.ts";
import type { ShopRedact } from "./privacy-payloads.ts";

export const shopRedact = handledWebhook({
  topic: "shop/redact",
  job: "shop/redact",
  jobPayload: (_request: ShopRedact) => ({}),
});
