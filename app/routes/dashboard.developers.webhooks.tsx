import { standaloneAction, standaloneLoader } from "../dashboard/standalone.server.ts";
import { loadWebhooks, webhooksAction } from "../dashboard/pages/webhooks.server.ts";

export const loader = standaloneLoader("webhooks", loadWebhooks);
export const action = standaloneAction("webhooks", webhooksAction);
export { WebhooksPage as default } from "../dashboard/pages/WebhooksPage.tsx";
