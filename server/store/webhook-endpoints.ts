// Webhook endpoints (server/domain/webhook-endpoints.ts has the rules). `events` is stored as a JSON array and
// handed out parsed; the secrets stay sealed here.
import { findOwnedRow, forUpdate, type Queryable } from "./database.ts";
import type { Actor } from "../vocabulary/actors.ts";
import type { Mode } from "../vocabulary/ids.ts";
import type { EndpointEvents, EndpointStatus } from "../vocabulary/webhook-endpoints.ts";
import type { Page, PageQuery } from "../vocabulary/pages.ts";
import { listPage } from "./pagination.ts";

export interface EndpointRecord {
  id: string;
  merchantId: string;
  mode: Mode;
  url: string;
  events: EndpointEvents;
  secretSealed: string;
  /** The secret before the last rotation: it keeps signing beside the new one until previousSecretExpiresAt. */
  previousSecretSealed: string | null;
  previousSecretExpiresAt: number | null;
  status: EndpointStatus;
  /** When the current run of failed deliveries began (null while deliveries succeed). */
  failingSince: number | null;
  createdAt: number;
  updatedAt: number;
}

/** What the fan-out and redeliveries need of an endpoint that is not disabled. */
export type DeliverableEndpoint = Pick<EndpointRecord, "id" | "events" | "createdAt">;

export interface EndpointRow {
  id: string;
  merchant_id: string;
  mode: Mode;
  url: string;
  events: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: number | null;
  status: EndpointStatus;
  failing_since: number | null;
  created_at: number;
  updated_at: number;
}

export const ENDPOINT_COLUMNS =
  "id, merchant_id, mode, url, events, secret_sealed, previous_secret_sealed, previous_secret_expires_at, status, failing_since, created_at, updated_at";

export function toEndpointRecord(row: EndpointRow): EndpointRecord {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    mode: row.mode,
    url: row.url,
    events: JSON.parse(row.events),
    secretSealed: row.secret_sealed,
    previousSecretSealed: row.previous_secret_sealed,
    previousSecretExpiresAt: row.previous_secret_expires_at,
    status: row.status,
    failingSince: row.failing_since,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * How many endpoints the merchant has in the mode, counted under the merchant row's lock: concurrent creations are
 * serialised on PostgreSQL, so they cannot all count one below the cap and insert.
 */
export async function countEndpointsLocked(tx: Queryable, owner: Actor): Promise<number> {
  await tx.get(`SELECT id FROM merchants WHERE id = ?${forUpdate(tx)}`, [owner.merchantId]);
  const counted = await tx.get<{ n: number | string }>(
    "SELECT COUNT(*) AS n FROM webhook_endpoints WHERE merchant_id = ? AND mode = ?",
    [owner.merchantId, owner.mode],
  );
  return Number(counted!.n);
}

export async function insertEndpoint(
  tx: Queryable,
  endpoint: Pick<
    EndpointRecord,
    "id" | "merchantId" | "mode" | "url" | "events" | "secretSealed" | "status" | "createdAt" | "updatedAt"
  >,
): Promise<void> {
  await tx.run(
    "INSERT INTO webhook_endpoints (id, merchant_id, mode, url, events, secret_sealed, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    [
      endpoint.id,
      endpoint.merchantId,
      endpoint.mode,
      endpoint.url,
      JSON.stringify(endpoint.events),
      endpoint.secretSealed,
      endpoint.status,
      endpoint.createdAt,
      endpoint.updatedAt,
    ],
  );
}

export async function findEndpoint(tx: Queryable, owner: Actor, id: string): Promise<EndpointRecord | undefined> {
  const row = await findOwnedRow<EndpointRow>(tx, owner, "webhook_endpoints", ENDPOINT_COLUMNS, id);
  return row && toEndpointRecord(row);
}

/** Newest first. */
export function listEndpointsPage(tx: Queryable, owner: Actor, query: PageQuery): Promise<Page<EndpointRecord>> {
  return listPage(tx, owner, "webhook_endpoints", ENDPOINT_COLUMNS, [], query, toEndpointRecord);
}

/** The merchant's endpoints in the mode that are not disabled, by id. */
export async function listDeliverableEndpoints(tx: Queryable, owner: Actor): Promise<DeliverableEndpoint[]> {
  const rows = await tx.all<{ id: string; events: string; created_at: number }>(
    "SELECT id, events, created_at FROM webhook_endpoints WHERE merchant_id = ? AND mode = ? AND status <> 'disabled' ORDER BY id",
    [owner.merchantId, owner.mode],
  );
  return rows.map((row) => ({ id: row.id, events: JSON.parse(row.events), createdAt: row.created_at }));
}

export async function updateEndpoint(
  tx: Queryable,
  id: string,
  changes: Pick<EndpointRecord, "url" | "events" | "status" | "failingSince" | "updatedAt">,
): Promise<void> {
  await tx.run(
    "UPDATE webhook_endpoints SET url = ?, events = ?, status = ?, failing_since = ?, updated_at = ? WHERE id = ?",
    [changes.url, JSON.stringify(changes.events), changes.status, changes.failingSince, changes.updatedAt, id],
  );
}

/** Puts a new sealed secret in place; the one it replaces keeps signing until `previousSecretExpiresAt`. */
export async function replaceEndpointSecret(
  tx: Queryable,
  id: string,
  secrets: Pick<EndpointRecord, "secretSealed" | "previousSecretSealed" | "previousSecretExpiresAt" | "updatedAt">,
): Promise<void> {
  await tx.run(
    "UPDATE webhook_endpoints SET secret_sealed = ?, previous_secret_sealed = ?, previous_secret_expires_at = ?, updated_at = ? WHERE id = ?",
    [secrets.secretSealed, secrets.previousSecretSealed, secrets.previousSecretExpiresAt, secrets.updatedAt, id],
  );
}

export async function deleteEndpoint(tx: Queryable, id: string): Promise<void> {
  await tx.run("DELETE FROM webhook_endpoints WHERE id = ?", [id]);
}

// What delivery outcomes do to an endpoint (server/webhooks/queue.ts decides which).

/** A delivery succeeded: the endpoint's run of failures is over. */
export async function clearEndpointFailing(tx: Queryable, id: string): Promise<void> {
  await tx.run("UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ?", [id]);
}

/** The first failure of a run: when it began (kept if another already set it). */
export async function markEndpointFailingSince(tx: Queryable, id: string, at: number): Promise<void> {
  await tx.run("UPDATE webhook_endpoints SET failing_since = ? WHERE id = ? AND failing_since IS NULL", [at, id]);
}

/** Delivery to the endpoint stops: `disabled` (it answered 410 Gone) or `failing` (it failed for too long). */
export async function setEndpointStatus(
  tx: Queryable,
  id: string,
  status: "disabled" | "failing",
  at: number,
): Promise<void> {
  await tx.run("UPDATE webhook_endpoints SET status = ?, updated_at = ? WHERE id = ?", [status, at, id]);
}

/** How many of the merchant's endpoints in the mode are healthy (enabled: neither failing nor disabled). */
export async function countHealthyEndpoints(tx: Queryable, owner: Actor): Promise<number> {
  const row = await tx.get<{ n: number }>(
    "SELECT COUNT(*) AS n FROM webhook_endpoints WHERE merchant_id = ? AND mode = ? AND status = 'enabled'",
    [owner.merchantId, owner.mode],
  );
  return Number(row?.n ?? 0);
}
