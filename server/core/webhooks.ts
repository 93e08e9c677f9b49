// Developers → Webhooks: the endpoints of the caller's mode, their deliveries, and the changes the dashboard makes —
// create (its signing secret is in the answer once), update, rotate the secret, delete, send a test event, redeliver
// an event. Each change is audited with the endpoint's id and URL host, never a secret, in its transaction.
import { z } from "zod";
import type { CoreDeps } from "./deps.ts";
import { actorOf, type MerchantCaller } from "./callers.ts";
import type { Actor } from "../vocabulary/actors.ts";
import { parseInput } from "../domain/accounts.ts";
import { EVENT_TYPES } from "../vocabulary/events.ts";
import { appendMerchantAudit } from "../domain/merchant-audit.ts";
import {
  checkEndpointUrl,
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  rotateWebhookSecret,
  updateWebhookEndpoint,
} from "../domain/webhook-endpoints.ts";
import { listWebhookAttempts, redeliverEvent, sendTestEvent } from "../domain/webhook-deliveries.ts";

const endpointSchema = z.object({
  url: z.string().trim().min(1, "Enter the URL events are sent to.").max(2048, "At most 2,048 characters."),
  events: z.array(z.enum(["*", ...EVENT_TYPES])).min(1, "Choose at least one event type, or all of them."),
});

export interface EndpointForm {
  url: unknown;
  events: unknown;
}

export function webhooksArea({ db, services, sealer }: CoreDeps) {
  /** The URL (checked as the API checks it) and events of an endpoint, or a DomainError naming the field. */
  async function endpointFields(actor: Actor, input: EndpointForm) {
    const parsed = parseInput(endpointSchema, input);
    return { url: await checkEndpointUrl(services, actor, parsed.url), events: parsed.events };
  }
  return {
    list: (actor: Actor) => listWebhookEndpoints(db, actor, { limit: 100 }),
    get: (actor: Actor, endpointId: string) => getWebhookEndpoint(db, actor, endpointId),
    attempts: (actor: Actor, endpointId: string, page: { limit: number; startingAfter?: string }) =>
      listWebhookAttempts(db, actor, endpointId, page),
    async create(caller: MerchantCaller, input: EndpointForm) {
      const actor = actorOf(caller);
      const fields = await endpointFields(actor, input);
      return db.transaction(async (tx) => {
        const created = await createWebhookEndpoint(tx, services, sealer, actor, fields);
        await appendMerchantAudit(tx, services, caller, {
          action: "webhook_endpoint.created",
          subject: created.id,
          detail: { host: new URL(created.url).host },
        });
        return created;
      });
    },
    /** As the API's PATCH: the signing secret never changes; enabling a failing or disabled endpoint restarts delivery. */
    async update(caller: MerchantCaller, endpointId: string, input: EndpointForm & { status: unknown }) {
      const actor = actorOf(caller);
      const { url, events } = await endpointFields(actor, input);
      const status = input.status === "disabled" ? "disabled" : "enabled";
      return db.transaction(async (tx) => {
        const updated = await updateWebhookEndpoint(tx, services, actor, endpointId, { url, events, status });
        await appendMerchantAudit(tx, services, caller, {
          action: "webhook_endpoint.updated",
          subject: endpointId,
          detail: { host: new URL(updated.url).host, events: updated.events.join(" "), status: updated.status },
        });
        return updated;
      });
    },
    rotateSecret: (caller: MerchantCaller, endpointId: string) =>
      db.transaction(async (tx) => {
        const rotated = await rotateWebhookSecret(tx, services, sealer, actorOf(caller), endpointId);
        await appendMerchantAudit(tx, services, caller, {
          action: "webhook_endpoint.secret_rotated",
          subject: endpointId,
        });
        return rotated;
      }),
    delete: (caller: MerchantCaller, endpointId: string) =>
      db.transaction(async (tx) => {
        const deleted = await deleteWebhookEndpoint(tx, actorOf(caller), endpointId);
        await appendMerchantAudit(tx, services, caller, { action: "webhook_endpoint.deleted", subject: endpointId });
        return deleted;
      }),
    sendTest: (caller: MerchantCaller, endpointId: string) =>
      db.transaction((tx) => sendTestEvent(tx, services, actorOf(caller), endpointId)),
    redeliver: (caller: MerchantCaller, endpointId: string, eventId: string) =>
      db.transaction((tx) => redeliverEvent(tx, services, actorOf(caller), eventId, endpointId)),
  };
}
