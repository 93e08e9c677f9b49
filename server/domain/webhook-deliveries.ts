import { newId } from "./ids.ts";
import { DomainError, notFound } from "./errors.ts";
import { iso, type Services, type Tx } from "./context.ts";
import type { Actor } from "../vocabulary/actors.ts";
import type { Page, PageQuery } from "../vocabulary/pages.ts";
import { appendEvent } from "./events.ts";
import { TEST_EVENT_TYPE } from "../vocabulary/events.ts";
import { getWebhookEndpoint, loadEndpoint, subscribes } from "./webhook-endpoints.ts";
import { findEvent } from "../store/events.ts";
import { listDeliverableEndpoints } from "../store/webhook-endpoints.ts";
import { insertDeliveries, listAttemptsPage, type AttemptRecord } from "../store/webhook-deliveries.ts";

// Deliveries (one event to one endpoint) and their attempt log. The worker (server/webhooks/) makes the attempts.

export interface DeliveryEvent {
  id: string;
  seq: number;
}

/** Queues events for endpoints, due now; resolves to the new deliveries' ids, in the order given. */
export async function queueDeliveries(
  tx: Tx,
  services: Pick<Services, "clock" | "random">,
  queued: { endpointId: string; event: DeliveryEvent }[],
): Promise<string[]> {
  const now = services.clock();
  const ids = queued.map(() => newId("wd", now, services.random));
  await insertDeliveries(
    tx,
    queued.map(({ endpointId, event }, i) => ({ id: ids[i], endpointId, eventId: event.id, eventSeq: event.seq })),
    now,
  );
  return ids;
}

export interface Redelivery {
  object: "redelivery";
  eventId: string;
  deliveries: { id: string; endpointId: string }[];
}

/**
 * Queues an event again: for one endpoint (which must subscribe to its type), or for every subscribed endpoint
 * that is not disabled. It goes out in event order behind anything still pending for that endpoint.
 */
export async function redeliverEvent(
  tx: Tx,
  services: Services,
  actor: Actor,
  eventId: string,
  endpointId?: string,
): Promise<Redelivery> {
  const event = await findEvent(tx, actor, eventId);
  if (!event) throw notFound("event", eventId);
  let endpoints: { id: string }[];
  if (endpointId) {
    const endpoint = await loadEndpoint(tx, actor, endpointId);
    if (!subscribes(endpoint.events, event.type) && !testsEndpoint(event, endpointId)) {
      throw new DomainError(
        "invalid",
        "endpoint_not_subscribed",
        `Webhook endpoint '${endpointId}' does not subscribe to ${event.type}.`,
        "endpointId",
      );
    }
    endpoints = [endpoint];
  } else {
    endpoints = (await listDeliverableEndpoints(tx, actor)).filter((endpoint) =>
      subscribes(endpoint.events, event.type),
    );
  }
  const ids = await queueDeliveries(
    tx,
    services,
    endpoints.map((endpoint) => ({ endpointId: endpoint.id, event })),
  );
  return {
    object: "redelivery",
    eventId,
    deliveries: endpoints.map((endpoint, i) => ({ id: ids[i], endpointId: endpoint.id })),
  };
}

/** A test event goes again only to the endpoint it tested. */
const testsEndpoint = (event: { type: string; data: unknown }, endpointId: string) =>
  event.type === TEST_EVENT_TYPE && (event.data as { id?: unknown } | null)?.id === endpointId;

/**
 * Sends the endpoint a `webhook_endpoint.test` event carrying the endpoint itself, signed and logged like any other,
 * so a merchant can check their receiver before real events arrive. It queues behind what is pending for the endpoint.
 */
export async function sendTestEvent(
  tx: Tx,
  services: Services,
  actor: Actor,
  endpointId: string,
): Promise<{ eventId: string; deliveryId: string }> {
  const endpoint = await getWebhookEndpoint(tx, actor, endpointId);
  const eventId = await appendEvent(tx, services, actor, TEST_EVENT_TYPE, endpoint);
  const event = (await findEvent(tx, actor, eventId))!;
  const [deliveryId] = await queueDeliveries(tx, services, [{ endpointId, event }]);
  return { eventId, deliveryId };
}

export interface WebhookAttempt {
  id: string;
  object: "webhook_attempt";
  deliveryId: string;
  eventId: string;
  outcome: "succeeded" | "failed";
  /** The receiver's HTTP status; null when no response came (timeout, refused, address not allowed). */
  statusCode: number | null;
  error: string | null;
  /** The first 500 characters of the receiver's answer. */
  responseExcerpt: string | null;
  durationMs: number;
  attemptedAt: string;
}

/** The attempt log of an endpoint, newest first. */
export async function listWebhookAttempts(
  db: Tx,
  actor: Actor,
  endpointId: string,
  query: PageQuery,
): Promise<Page<WebhookAttempt>> {
  await loadEndpoint(db, actor, endpointId);
  const page = await listAttemptsPage(db, actor, endpointId, query);
  return { ...page, data: page.data.map(toAttempt) };
}

function toAttempt(attempt: AttemptRecord): WebhookAttempt {
  return {
    id: attempt.id,
    object: "webhook_attempt",
    deliveryId: attempt.deliveryId,
    eventId: attempt.eventId,
    outcome: attempt.outcome,
    statusCode: attempt.statusCode,
    error: attempt.error,
    responseExcerpt: attempt.responseExcerpt,
    durationMs: attempt.durationMs,
    attemptedAt: iso(attempt.attemptedAt),
  };
}
