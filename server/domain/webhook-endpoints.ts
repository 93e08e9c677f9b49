import { BASE62, newId, randomString } from "./ids.ts";
import { DomainError, notFound } from "./errors.ts";
import type { EventType } from "./events.ts";
import { iso, type Actor, type Services, type Tx } from "./context.ts";
import { listPage, type Page, type PageQuery } from "./pagination.ts";
import { forUpdate } from "../store/database.ts";
import type { Sealer } from "../secrets/sealer.ts";
import { AddressNotAllowedError, checkDestination } from "../webhooks/address-policy.ts";

// Webhook endpoints (README "Webhooks"): a URL, the event types it subscribes to, and a signing secret shown
// once — at creation and at each rotation. A PATCH never rotates. After a rotation the old secret keeps signing
// beside the new one for 24 h. Secrets are stored sealed (AES-256-GCM).

const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;
/** Most endpoints a merchant may have in one mode (as Stripe): each event is sent to every one of them. */
export const MAX_ENDPOINTS_PER_MODE = 16;
const ALL_EVENTS = "*";
export type EndpointStatus = "enabled" | "disabled" | "failing";
export type EndpointEvents = (EventType | typeof ALL_EVENTS)[];

export interface WebhookEndpoint {
  id: string;
  object: "webhook_endpoint";
  url: string;
  events: EndpointEvents;
  status: EndpointStatus;
  /** When the current run of failed deliveries began (null while deliveries succeed). */
  failingSince: string | null;
  /** Until when the secret before the last rotation still signs beside the current one. */
  previousSecretExpiresAt: string | null;
  livemode: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface EndpointRow {
  id: string;
  merchant_id: string;
  mode: string;
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

const newSecret = (services: Services) => `whsec_${randomString(BASE62, 40, services.random)}`;

/** The secrets that sign a delivery at `now`: the current one, then the previous one during the rotation overlap. */
export function signingSecrets(row: Pick<EndpointRow, "secret_sealed" | "previous_secret_sealed" | "previous_secret_expires_at">, sealer: Sealer, now: number): string[] {
  const secrets = [sealer.open(row.secret_sealed)];
  if (row.previous_secret_sealed && row.previous_secret_expires_at !== null && now < row.previous_secret_expires_at) secrets.push(sealer.open(row.previous_secret_sealed));
  return secrets;
}

/** Does the endpoint want events of this type? */
export function subscribes(events: string, type: string): boolean {
  const list = JSON.parse(events) as string[];
  return list.includes(ALL_EVENTS) || list.includes(type);
}

const MODE_NAME = { test: "Test-mode", live: "Live-mode" } as const;
const urlInvalid = (message: string) => new DomainError("invalid", "url_invalid", message, "url");

/** A URL that passed checkEndpointUrl: the only kind the endpoint operations accept. */
export type CheckedUrl = string & { readonly __checked: unique symbol };

/**
 * http(s) only, no credentials in it; then where the mode may deliver (server/webhooks/address-policy.ts): live
 * mode https only; both modes only to hosts that resolve to public addresses (no loopback, private, link-local or
 * metadata address), unless the operator lets test mode reach private ones. It may wait on DNS, so callers run it
 * before opening a transaction.
 */
export async function checkEndpointUrl(services: Services, actor: Actor, raw: string): Promise<CheckedUrl> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw urlInvalid("The url is not an absolute URL.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw urlInvalid("The url must be http or https.");
  if (url.username || url.password) throw urlInvalid("The url must not contain credentials.");
  try {
    await checkDestination(url, actor.mode, { allowPrivateWebhookUrls: services.settings.allowPrivateWebhookUrls, resolveHost: services.resolveHost });
  } catch (error) {
    if (!(error instanceof AddressNotAllowedError)) throw error;
    if (error.reason === "https_required") throw urlInvalid("Live-mode endpoints must use https.");
    throw new DomainError("invalid", "url_not_allowed", `${MODE_NAME[actor.mode]} endpoints must reach a public address: ${error.message}.`, "url");
  }
  return url.toString() as CheckedUrl;
}

export interface EndpointInput {
  url: CheckedUrl;
  events: EndpointEvents;
}

export async function createWebhookEndpoint(tx: Tx, services: Services, sealer: Sealer, actor: Actor, input: EndpointInput) {
  // The merchant row's lock serialises concurrent creations on PostgreSQL, so they cannot all count 15 and insert.
  await tx.get(`SELECT id FROM merchants WHERE id = ?${forUpdate(tx)}`, [actor.merchantId]);
  const existing = await tx.get<{ n: number | string }>("SELECT COUNT(*) AS n FROM webhook_endpoints WHERE merchant_id = ? AND mode = ?", [actor.merchantId, actor.mode]);
  if (Number(existing!.n) >= MAX_ENDPOINTS_PER_MODE) {
    throw new DomainError(
      "conflict", "webhook_endpoint_limit_reached",
      `A merchant may have at most ${MAX_ENDPOINTS_PER_MODE} ${actor.mode}-mode webhook endpoints; delete one before creating another.`,
    );
  }
  const now = services.clock();
  const id = newId("we", now, services.random);
  const secret = newSecret(services);
  await tx.run(
    "INSERT INTO webhook_endpoints (id, merchant_id, mode, url, events, secret_sealed, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'enabled', ?, ?)",
    [id, actor.merchantId, actor.mode, input.url, JSON.stringify(normaliseEvents(input.events)), sealer.seal(secret), now, now],
  );
  return { ...(await getWebhookEndpoint(tx, actor, id)), secret };
}

export async function loadEndpointRow(db: Tx, actor: Actor, id: string, lock = ""): Promise<EndpointRow> {
  const row = await db.get<EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = ? AND merchant_id = ? AND mode = ?${lock}`, [
    id, actor.merchantId, actor.mode,
  ]);
  if (!row) throw notFound("webhook endpoint", id);
  return row;
}

export async function getWebhookEndpoint(db: Tx, actor: Actor, id: string): Promise<WebhookEndpoint> {
  return toEndpoint(await loadEndpointRow(db, actor, id));
}

export function listWebhookEndpoints(db: Tx, actor: Actor, query: PageQuery): Promise<Page<WebhookEndpoint>> {
  return listPage(db, actor, "webhook_endpoints", ENDPOINT_COLUMNS, [], query, toEndpoint);
}

export interface EndpointChanges {
  url?: CheckedUrl;
  events?: EndpointEvents;
  /** The merchant may disable an endpoint, or enable one that was disabled or failing (which restarts delivery). */
  status?: "enabled" | "disabled";
}

/** Changes url, events and/or status. Never touches the signing secret (README "Webhooks"). */
export async function updateWebhookEndpoint(tx: Tx, services: Services, actor: Actor, id: string, changes: EndpointChanges): Promise<WebhookEndpoint> {
  const row = await loadEndpointRow(tx, actor, id);
  const url = changes.url ?? row.url;
  const events = changes.events === undefined ? row.events : JSON.stringify(normaliseEvents(changes.events));
  const status = changes.status ?? row.status;
  const failingSince = changes.status === "enabled" ? null : row.failing_since;
  await tx.run("UPDATE webhook_endpoints SET url = ?, events = ?, status = ?, failing_since = ?, updated_at = ? WHERE id = ?", [
    url, events, status, failingSince, services.clock(), id,
  ]);
  return getWebhookEndpoint(tx, actor, id);
}

/** Removes the endpoint and every delivery not yet made to it; the attempt log stays. */
export async function deleteWebhookEndpoint(tx: Tx, actor: Actor, id: string) {
  await loadEndpointRow(tx, actor, id);
  await tx.run("DELETE FROM webhook_deliveries WHERE endpoint_id = ?", [id]);
  await tx.run("DELETE FROM webhook_endpoints WHERE id = ?", [id]);
  return { id, object: "webhook_endpoint" as const, deleted: true };
}

/** A new secret, revealed once; the current one becomes the previous one and keeps signing for 24 h. */
export async function rotateWebhookSecret(tx: Tx, services: Services, sealer: Sealer, actor: Actor, id: string) {
  const row = await loadEndpointRow(tx, actor, id);
  const now = services.clock();
  const secret = newSecret(services);
  await tx.run(
    "UPDATE webhook_endpoints SET secret_sealed = ?, previous_secret_sealed = ?, previous_secret_expires_at = ?, updated_at = ? WHERE id = ?",
    [sealer.seal(secret), row.secret_sealed, now + ROTATION_OVERLAP_MS, now, id],
  );
  return { ...(await getWebhookEndpoint(tx, actor, id)), secret };
}

function normaliseEvents(events: EndpointEvents): EndpointEvents {
  return events.includes(ALL_EVENTS) ? [ALL_EVENTS] : [...new Set(events)].sort();
}

function toEndpoint(row: EndpointRow): WebhookEndpoint {
  const overlapEnds = row.previous_secret_expires_at;
  return {
    id: row.id,
    object: "webhook_endpoint",
    url: row.url,
    events: JSON.parse(row.events),
    status: row.status,
    failingSince: row.failing_since === null ? null : iso(row.failing_since),
    previousSecretExpiresAt: overlapEnds === null ? null : iso(overlapEnds),
    livemode: row.mode === "live",
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}
