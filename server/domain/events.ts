import { newId } from "./ids.ts";
import { notFound } from "./errors.ts";
import type { Services, Tx } from "./context.ts";
import type { Actor } from "../vocabulary/actors.ts";
import type { Page, PageQuery } from "../vocabulary/pages.ts";
import type { StoredEventType } from "../vocabulary/events.ts";
import { findEvent, insertEvent, listEventsPage, type EventContent } from "../store/events.ts";

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
