import { newId } from "./ids.ts";
import { DomainError, notFound } from "./errors.ts";
import { iso, type Actor, type Services, type Tx } from "./context.ts";
import { listPage, type Page, type PageQuery } from "./pagination.ts";
import { loadEndpointRow, subscribes } from "./webhook-endpoints.ts";

// Deliveries (one event to one endpoint) and their attempt log. The worker (server/webhooks/) makes the attempts.

export interface DeliveryEvent {
  id: string;
  seq: number;
}

/** Queues events for endpoints, due at `now`: one statement per 100 rows (a round trip per row dominated fan-out). */
export async function insertDeliveries(
  tx: Tx, services: Pick<Services, "clock" | "random">, queued: { endpointId: string; event: DeliveryEvent }[],
): Promise<string[]> {
  const now = services.clock();
  const ids = queued.map(() => newId("wd", now, services.random));
  for (let start = 0; start < queued.length; start += 100) {
    const chunk = queued.slice(start, start + 100);
    await tx.run(
      `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_seq, status, attempts, next_attempt_at, created_at, updated_at)
       VALUES ${chunk.map(() => "(?, ?, ?, ?, 'pending', 0, ?, ?, ?)").join(", ")}`,
      chunk.flatMap(({ endpointId, event }, i) => [ids[start + i], endpointId, event.id, event.seq, now, now, now]),
    );
  }
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
export async function redeliverEvent(tx: Tx, services: Services, actor: Actor, eventId: string, endpointId?: string): Promise<Redelivery> {
  const event = await tx.get<{ id: string; seq: number; type: string }>("SELECT id, seq, type FROM events WHERE id = ? AND merchant_id = ? AND mode = ?", [
    eventId, actor.merchantId, actor.mode,
  ]);
  if (!event) throw notFound("event", eventId);
  let endpoints: { id: string; events: string }[];
  if (endpointId) {
    const row = await loadEndpointRow(tx, actor, endpointId);
    if (!subscribes(row.events, event.type)) {
      throw new DomainError("invalid", "endpoint_not_subscribed", `Webhook endpoint '${endpointId}' does not subscribe to ${event.type}.`, "endpoint_id");
    }
    endpoints = [row];
  } else {
    const rows = await tx.all<{ id: string; events: string }>("SELECT id, events FROM webhook_endpoints WHERE merchant_id = ? AND mode = ? AND status <> 'disabled' ORDER BY id", [
      actor.merchantId, actor.mode,
    ]);
    endpoints = rows.filter((row) => subscribes(row.events, event.type));
  }
  const ids = await insertDeliveries(tx, services, endpoints.map((endpoint) => ({ endpointId: endpoint.id, event })));
  return { object: "redelivery", eventId, deliveries: endpoints.map((endpoint, i) => ({ id: ids[i], endpointId: endpoint.id })) };
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
  durationMs: number;
  attemptedAt: string;
}

interface AttemptRow {
  id: string;
  delivery_id: string;
  event_id: string;
  outcome: "succeeded" | "failed";
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  attempted_at: number;
}

/** The attempt log of an endpoint, newest first. */
export async function listWebhookAttempts(db: Tx, actor: Actor, endpointId: string, query: PageQuery): Promise<Page<WebhookAttempt>> {
  await loadEndpointRow(db, actor, endpointId);
  return listPage(
    db, actor, "webhook_attempts", "id, delivery_id, event_id, outcome, status_code, error, duration_ms, attempted_at",
    [["endpoint_id = ?", endpointId]], query,
    (row: AttemptRow): WebhookAttempt => ({
      id: row.id,
      object: "webhook_attempt",
      deliveryId: row.delivery_id,
      eventId: row.event_id,
      outcome: row.outcome,
      statusCode: row.status_code,
      error: row.error,
      durationMs: row.duration_ms,
      attemptedAt: iso(row.attempted_at),
    }),
  );
}
