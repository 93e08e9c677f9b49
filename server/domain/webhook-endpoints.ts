import { BASE62, newId, randomString } from "./ids.ts";
import { DomainError, notFound } from "./errors.ts";
import { TEST_EVENT_TYPE, type StoredEventType } from "../vocabulary/events.ts";
import { iso, type Services, type Tx } from "./context.ts";
import type { Actor } from "../vocabulary/actors.ts";
import type { Page, PageQuery } from "../vocabulary/pages.ts";
import { ALL_EVENTS, type EndpointEvents, type EndpointStatus } from "../vocabulary/webhook-endpoints.ts";
import {
  countEndpointsLocked,
  deleteEndpoint,
  findEndpoint,
  insertEndpoint,
  listEndpointsPage,
  replaceEndpointSecret,
  updateEndpoint,
  type EndpointRecord,
} from "../store/webhook-endpoints.ts";
import { deleteEndpointDeliveries } from "../store/webhook-deliveries.ts";
import type { Sealer } from "../secrets/sealer.ts";
import { AddressNotAllowedError, checkDestination } from "../webhooks/address-policy.ts";
import { DAY_MS } from "../vocabulary/time.ts";

// Webhook endpoints (docs/api.md "Webhooks"): a URL, the event types it subscribes to, and a signing secret shown
// once — at creation and at each rotation. A PATCH never rotates. After a rotation the old secret keeps signing
// beside the new one for 24 h. Secrets are stored sealed (AES-256-GCM).

const ROTATION_OVERLAP_MS = DAY_MS;
/** Most endpoints a merchant may have in one mode (as Stripe): each event is sent to every one of them. */
export const MAX_ENDPOINTS_PER_MODE = 16;

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

const newSecret = (services: Services) => `whsec_${randomString(BASE62, 40, services.random)}`;

/** The secrets that sign a delivery at `now`: the current one, then the previous one during the rotation overlap. */
export function signingSecrets(
  endpoint: Pick<EndpointRecord, "secretSealed" | "previousSecretSealed" | "previousSecretExpiresAt">,
  sealer: Sealer,
  now: number,
): string[] {
  const secrets = [sealer.open(endpoint.secretSealed)];
  const { previousSecretSealed, previousSecretExpiresAt } = endpoint;
  if (previousSecretSealed && previousSecretExpiresAt !== null && now < previousSecretExpiresAt)
    secrets.push(sealer.open(previousSecretSealed));
  return secrets;
}

/** Does the endpoint want events of this type? (A test event is sent only to the endpoint it tests.) */
export function subscribes(events: EndpointEvents, type: StoredEventType): boolean {
  if (type === TEST_EVENT_TYPE) return false;
  return events.includes(ALL_EVENTS) || events.includes(type);
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
    await checkDestination(url, actor.mode, {
      allowPrivateWebhookUrls: services.settings.allowPrivateWebhookUrls,
      resolveHost: services.resolveHost,
    });
  } catch (error) {
    if (!(error instanceof AddressNotAllowedError)) throw error;
    if (error.reason === "https_required") throw urlInvalid("Live-mode endpoints must use https.");
    throw new DomainError(
      "invalid",
      "url_not_allowed",
      `${MODE_NAME[actor.mode]} endpoints must reach a public address: ${error.message}.`,
      "url",
    );
  }
  return url.toString() as CheckedUrl;
}

export interface EndpointInput {
  url: CheckedUrl;
  events: EndpointEvents;
}

export async function createWebhookEndpoint(
  tx: Tx,
  services: Services,
  sealer: Sealer,
  actor: Actor,
  input: EndpointInput,
) {
  if ((await countEndpointsLocked(tx, actor)) >= MAX_ENDPOINTS_PER_MODE) {
    throw new DomainError(
      "conflict",
      "webhook_endpoint_limit_reached",
      `A merchant may have at most ${MAX_ENDPOINTS_PER_MODE} ${actor.mode}-mode webhook endpoints; delete one before creating another.`,
    );
  }
  const now = services.clock();
  const id = newId("we", now, services.random);
  const secret = newSecret(services);
  await insertEndpoint(tx, {
    id,
    merchantId: actor.merchantId,
    mode: actor.mode,
    url: input.url,
    events: normaliseEvents(input.events),
    secretSealed: sealer.seal(secret),
    status: "enabled",
    createdAt: now,
    updatedAt: now,
  });
  return { ...(await getWebhookEndpoint(tx, actor, id)), secret };
}

/** The actor's endpoint, or not_found. */
export async function loadEndpoint(db: Tx, actor: Actor, id: string): Promise<EndpointRecord> {
  const endpoint = await findEndpoint(db, actor, id);
  if (!endpoint) throw notFound("webhook endpoint", id);
  return endpoint;
}

export async function getWebhookEndpoint(db: Tx, actor: Actor, id: string): Promise<WebhookEndpoint> {
  return toEndpoint(await loadEndpoint(db, actor, id));
}

export async function listWebhookEndpoints(db: Tx, actor: Actor, query: PageQuery): Promise<Page<WebhookEndpoint>> {
  const page = await listEndpointsPage(db, actor, query);
  return { ...page, data: page.data.map(toEndpoint) };
}

export interface EndpointChanges {
  url?: CheckedUrl;
  events?: EndpointEvents;
  /** The merchant may disable an endpoint, or enable one that was disabled or failing (which restarts delivery). */
  status?: "enabled" | "disabled";
}

/** Changes url, events and/or status. Never touches the signing secret (docs/api.md "Webhooks"). */
export async function updateWebhookEndpoint(
  tx: Tx,
  services: Services,
  actor: Actor,
  id: string,
  changes: EndpointChanges,
): Promise<WebhookEndpoint> {
  const endpoint = await loadEndpoint(tx, actor, id);
  await updateEndpoint(tx, id, {
    url: changes.url ?? endpoint.url,
    events: changes.events === undefined ? endpoint.events : normaliseEvents(changes.events),
    status: changes.status ?? endpoint.status,
    failingSince: changes.status === "enabled" ? null : endpoint.failingSince,
    updatedAt: services.clock(),
  });
  return getWebhookEndpoint(tx, actor, id);
}

/** Removes the endpoint and every delivery not yet made to it; the attempt log stays. */
export async function deleteWebhookEndpoint(tx: Tx, actor: Actor, id: string) {
  await loadEndpoint(tx, actor, id);
  await deleteEndpointDeliveries(tx, id);
  await deleteEndpoint(tx, id);
  return { id, object: "webhook_endpoint" as const, deleted: true };
}

/** A new secret, revealed once; the current one becomes the previous one and keeps signing for 24 h. */
export async function rotateWebhookSecret(tx: Tx, services: Services, sealer: Sealer, actor: Actor, id: string) {
  const endpoint = await loadEndpoint(tx, actor, id);
  const now = services.clock();
  const secret = newSecret(services);
  await replaceEndpointSecret(tx, id, {
    secretSealed: sealer.seal(secret),
    previousSecretSealed: endpoint.secretSealed,
    previousSecretExpiresAt: now + ROTATION_OVERLAP_MS,
    updatedAt: now,
  });
  return { ...(await getWebhookEndpoint(tx, actor, id)), secret };
}

function normaliseEvents(events: EndpointEvents): EndpointEvents {
  return events.includes(ALL_EVENTS) ? [ALL_EVENTS] : [...new Set(events)].sort();
}

function toEndpoint(endpoint: EndpointRecord): WebhookEndpoint {
  const overlapEnds = endpoint.previousSecretExpiresAt;
  return {
    id: endpoint.id,
    object: "webhook_endpoint",
    url: endpoint.url,
    events: endpoint.events,
    status: endpoint.status,
    failingSince: endpoint.failingSince === null ? null : iso(endpoint.failingSince),
    previousSecretExpiresAt: overlapEnds === null ? null : iso(overlapEnds),
    livemode: endpoint.mode === "live",
    createdAt: iso(endpoint.createdAt),
    updatedAt: iso(endpoint.updatedAt),
  };
}
