import { embeddedAction, embeddedLoader } from "../dashboard/embedded.server.ts";
import { loadWebhookEndpoint, webhookEndpointAction } from "../dashboard/pages/webhook-endpoint.server.ts";

export const loader = embeddedLoader("webhooks", loadWebhookEndpoint);
export const action = embeddedAction("webhooks", webhookEndpointAction);
export { WebhookEndpointPage as default } from "../dashboard/pages/WebhookEndpointPage.tsx";
