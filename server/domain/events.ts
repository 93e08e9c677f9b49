import { newId } from "./ids.ts";
import { notFound } from "./errors.ts";
import type { Actor, Services, Tx } from "./context.ts";
import { listPage, type Page, type PageQuery } from "./pagination.ts";

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

export interface EventRow {
  id: string;
  mode: string;
  type: EventType;
  data: string;
  created_at: number;
}

/** Appends to the outbox. Call it inside the transaction that makes the change the event describes. */
export async function appendEvent(tx: Tx, services: Services, actor: Actor, type: EventType, object: unknown): Promise<string> {
  const now = services.clock();
  const id = newId("evt", now, services.random);
  await tx.run("INSERT INTO events (id, merchant_id, mode, type, data, created_at) VALUES (?, ?, ?, ?, ?, ?)", [
    id, actor.merchantId, actor.mode, type, JSON.stringify(object), now,
  ]);
  return id;
}

export async function getEvent(db: Tx, actor: Actor, id: string): Promise<ServiceEvent> {
  const row = await db.get<EventRow>("SELECT id, mode, type, data, created_at FROM events WHERE id = ? AND merchant_id = ? AND mode = ?", [
    id, actor.merchantId, actor.mode,
  ]);
  if (!row) throw notFound("event", id);
  return toEvent(row);
}

export async function listEvents(db: Tx, actor: Actor, query: PageQuery & { type?: EventType }): Promise<Page<ServiceEvent>> {
  return listPage(db, actor, "events", "id, mode, type, data, created_at", [["type = ?", query.type]], query, toEvent);
}

export function toEvent(row: EventRow): ServiceEvent {
  return {
    id: row.id,
    object: "event",
    type: row.type,
    created: Math.floor(row.created_at / 1000),
    livemode: row.mode === "live",
    data: { object: JSON.parse(row.data) },
  };
}
