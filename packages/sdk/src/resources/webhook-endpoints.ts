import { pathSegment, type Transport } from "../request.ts";
import type {
  DeletedWebhookEndpoint,
  WebhookAttempt,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from "../responses.ts";
import type { PageQuery, WebhookEndpointCreateParams, WebhookEndpointUpdateParams } from "../types.ts";
import { Pages } from "./lists.ts";

/** /webhooks/endpoints (secret key). A signing secret (whsec_…) is revealed only by create and rotateSecret. */
export class WebhookEndpoints extends Pages<WebhookEndpoint, PageQuery> {
  constructor(transport: Transport) {
    super(transport, "/webhooks/endpoints");
  }

  async create(payload: WebhookEndpointCreateParams, idempotencyKey?: string): Promise<WebhookEndpointWithSecret> {
    return this.transport.body({
      method: "POST",
      path: "/webhooks/endpoints",
      body: JSON.stringify(payload),
      idempotencyKey,
    });
  }

  async retrieve(endpointId: string): Promise<WebhookEndpoint> {
    return this.transport.body({ method: "GET", path: endpointPath(endpointId) });
  }

  /** Change the URL, the events and/or the status; never rotates the secret. */
  async update(
    endpointId: string,
    payload: WebhookEndpointUpdateParams,
    idempotencyKey?: string,
  ): Promise<WebhookEndpoint> {
    return this.transport.body({
      method: "PATCH",
      path: endpointPath(endpointId),
      body: JSON.stringify(payload),
      idempotencyKey,
    });
  }

  /** Deliveries not yet made to the endpoint are dropped. */
  async delete(endpointId: string, idempotencyKey?: string): Promise<DeletedWebhookEndpoint> {
    return this.transport.body({ method: "DELETE", path: endpointPath(endpointId), idempotencyKey });
  }

  /** A new signing secret; the old one keeps signing beside it for 24 h. */
  async rotateSecret(endpointId: string, idempotencyKey?: string): Promise<WebhookEndpointWithSecret> {
    return this.transport.body({
      method: "POST",
      path: `${endpointPath(endpointId)}/secret/rotate`,
      body: "{}",
      idempotencyKey,
    });
  }

  /** The endpoint's delivery attempts: `client.webhookEndpoints.deliveries(id).list()`, `.pages()`, `.all()`. */
  deliveries(endpointId: string): Pages<WebhookAttempt, PageQuery> {
    return new Pages(this.transport, `${endpointPath(endpointId)}/deliveries`);
  }
}

const endpointPath = (endpointId: string) => `/webhooks/endpoints/${pathSegment("endpointId", endpointId)}`;
