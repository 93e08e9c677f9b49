import { embeddedAction, embeddedLoader } from "../dashboard/embedded.server.ts";
import { loadWebhooks, webhooksAction } from "../dashboard/pages/webhooks.server.ts";

export const loader = embeddedLoader("webhooks", loadWebhooks);
export const action = embeddedAction("webhooks", webhooksAction);
export { WebhooksPage as default } from "../dashboard/pages/WebhooksPage.tsx";
