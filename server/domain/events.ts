import { newId } from "./ids.ts";
import { notFound } from "./errors.ts";
import type { Actor, Services, Tx } from "./context.ts";
import type { Page, PageQuery } from "./pagination.ts";
import { findEvent, insertEvent, listEventsPage, type EventContent } from "../store/events.ts";

export const EVENT_TYPES = [
  "offer.declined",
  "protection.confirmed",
  "protection.voided",
  "protection.cancelled",
  // The merchant set or corrected the buyer's address (POST /purchases/{id}/customer-email); the address is not in it.
  "protection.updated",
  "order.merchant_refunded",
  "claim.created",
  "claim.updated",
] as const;
/** The event types endpoints subscribe to. */
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * "Send a test event" on the dashboard's Webhooks page: its data is the endpoint itself, and it goes to that endpoint
 * only, never fanned out, so no endpoint subscribes to it (server/domain/webhook-deliveries.ts sendTestEvent).
 */
export const TEST_EVENT_TYPE = "webhook_endpoint.test";

/** The type of any event in the outbox. */
export type StoredEventType = EventType | typeof TEST_EVENT_TYPE;

export interface ServiceEvent {
  id: string;
  object: "event";
  type: StoredEventType;
  created: number;
  livemode: boolean;
  data: { object: unknown };
}

/** Appends to the outbox. Call it inside the transaction that makes the change the event describes. */
export async function appendEvent(
  tx: Tx,
  services: Services,
  actor: Actor,
  type: StoredEventType,
  object: unknown,
): Promise<string> {
  const now = services.clock();
  const id = newId("evt", now, services.random);
  await insertEvent(tx, { id, merchantId: actor.merchantId, mode: actor.mode, type, data: object, createdAt: now });
  return id;
}

export async function getEvent(db: Tx, actor: Actor, id: string): Promise<ServiceEvent> {
  const event = await findEvent(db, actor, id);
  if (!event) throw notFound("event", id);
  return toEvent(event);
}

export async function listEvents(
  db: Tx,
  actor: Actor,
  query: PageQuery & { type?: StoredEventType },
): Promise<Page<ServiceEvent>> {
  const page = await listEventsPage(db, actor, query, query.type);
  return { ...page, data: page.data.map(toEvent) };
}

/** The event as the API shows it and webhooks carry it. */
export function toEvent(event: EventContent): ServiceEvent {
  return {
    id: event.id,
    object: "event",
    type: event.type,
    created: Math.floor(event.createdAt / 1000),
    livemode: event.mode === "live",
    data: { object: event.data },
  };
}
