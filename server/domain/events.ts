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
  "order.merchant_refunded",
  "claim.created",
  "claim.updated",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface ServiceEvent {
  id: string;
  object: "event";
  type: EventType;
  created: number;
  livemode: boolean;
  data: { object: unknown };
}

/** Appends to the outbox. Call it inside the transaction that makes the change the event describes. */
export async function appendEvent(
  tx: Tx,
  services: Services,
  actor: Actor,
  type: EventType,
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
  query: PageQuery & { type?: EventType },
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
