import { standaloneAction, standaloneLoader } from "../dashboard/standalone.server.ts";
import { loadWebhookEndpoint, webhookEndpointAction } from "../dashboard/pages/webhook-endpoint.server.ts";

export const loader = standaloneLoader("webhooks", loadWebhookEndpoint);
export const action = standaloneAction("webhooks", webhookEndpointAction);
export { WebhookEndpointPage as default } from "../dashboard/pages/WebhookEndpointPage.tsx";
