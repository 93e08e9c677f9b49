// The outbox: events in the order they were written (seq, an auto-increment), read back by the API and fanned out
// to webhook endpoints (server/webhooks/fanout.ts). `data` is stored as JSON text and handed out parsed.
import { findOwnedRow, type Queryable } from "./database.ts";
import type { Actor } from "../vocabulary/actors.ts";
import type { StoredEventType } from "../vocabulary/events.ts";
import type { Mode } from "../vocabulary/ids.ts";
import type { Page, PageQuery } from "../vocabulary/pages.ts";
import { listPage } from "./pagination.ts";

export interface EventRecord {
  seq: number;
  id: string;
  merchantId: string;
  mode: Mode;
  type: StoredEventType;
  /** The resource the event is about. */
  data: unknown;
  createdAt: number;
}

/** What an event says: what its webhook carries. */
export type EventContent = Omit<EventRecord, "seq" | "merchantId">;

/** An event as the fan-out reads it: who it is for, not what it says. */
export type OutboxEntry = Omit<EventRecord, "data">;

interface EventRow {
  seq: number;
  id: string;
  merchant_id: string;
  mode: Mode;
  type: StoredEventType;
  data: string;
  created_at: number;
}

const COLUMNS = "seq, id, merchant_id, mode, type, data, created_at";

/** `id, mode, type, data, created_at` of an events row (also read joined to its deliveries). */
export function toEventContent(row: Omit<EventRow, "seq" | "merchant_id">): EventContent {
  return { id: row.id, mode: row.mode, type: row.type, data: JSON.parse(row.data), createdAt: row.created_at };
}

const fromRow = (row: EventRow): EventRecord => ({ ...toEventContent(row), seq: row.seq, merchantId: row.merchant_id });

export async function insertEvent(tx: Queryable, event: Omit<EventRecord, "seq">): Promise<void> {
  await tx.run("INSERT INTO events (id, merchant_id, mode, type, data, created_at) VALUES (?, ?, ?, ?, ?, ?)", [
    event.id,
    event.merchantId,
    event.mode,
    event.type,
    JSON.stringify(event.data),
    event.createdAt,
  ]);
}

export async function findEvent(tx: Queryable, owner: Actor, id: string): Promise<EventRecord | undefined> {
  const row = await findOwnedRow<EventRow>(tx, owner, "events", COLUMNS, id);
  return row && fromRow(row);
}

/** Newest first; only events of `type` when it is given. */
export function listEventsPage(
  tx: Queryable,
  owner: Actor,
  query: PageQuery,
  type?: StoredEventType,
): Promise<Page<EventRecord>> {
  return listPage(tx, owner, "events", COLUMNS, [["type = ?", type]], query, fromRow);
}

/** Whether any event was written after `seq`: a cheap read, so most polls of the fan-out need no write transaction. */
export async function hasEventsAfter(tx: Queryable, seq: number): Promise<boolean> {
  // ORDER BY keeps it an index seek even under a generic (prepared) plan, which cannot know `seq` is near the end.
  return (await tx.get("SELECT seq FROM events WHERE seq > ? ORDER BY seq LIMIT 1", [seq])) !== undefined;
}

/** Up to `limit` events after `seq`, in seq order. */
export async function listEventsAfter(tx: Queryable, seq: number, limit: number): Promise<OutboxEntry[]> {
  const rows = await tx.all<Omit<EventRow, "data">>(
    "SELECT seq, id, merchant_id, mode, type, created_at FROM events WHERE seq > ? ORDER BY seq LIMIT ?",
    [seq, limit],
  );
  return rows.map((row) => ({
    seq: row.seq,
    id: row.id,
    merchantId: row.merchant_id,
    mode: row.mode,
    type: row.type,
    createdAt: row.created_at,
  }));
}
