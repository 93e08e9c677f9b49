// A webhook endpoint's page: its deliveries log (each attempt's outcome, status code, latency, error and the start of
// the receiver's answer), newest first; sending an event of the log to this endpoint again; sending it a test event;
// and changing its URL, events and status (as the API's PATCH: the signing secret never changes, and enabling a
// failing or disabled endpoint restarts delivery).
import {
  appendMerchantAudit,
  EVENT_TYPES,
  getWebhookEndpoint,
  listWebhookAttempts,
  redeliverEvent,
  sendTestEvent,
  updateWebhookEndpoint,
} from "../../../server/index.ts";
import { field, formAction } from "../../form-actions.server.ts";
import type { PageAction, PageContext } from "../viewer.ts";
import { endpointFields } from "./webhooks.server.ts";

const endpointIdOf = (request: Request) => decodeURIComponent(new URL(request.url).pathname.split("/").at(-1) ?? "");

export async function loadWebhookEndpoint({ runtime, viewer, request }: PageContext) {
  const actor = { merchantId: viewer.merchantId, mode: viewer.mode };
  const endpointId = endpointIdOf(request);
  const after = new URL(request.url).searchParams.get("after") ?? undefined;
  const [endpoint, attempts] = await Promise.all([
    getWebhookEndpoint(runtime.db, actor, endpointId),
    listWebhookAttempts(runtime.db, actor, endpointId, { limit: 50, startingAfter: after?.slice(0, 255) || undefined }),
  ]);
  return {
    endpoint,
    attempts: attempts.data,
    nextAfter: attempts.hasMore ? attempts.nextCursor : null,
    eventTypes: EVENT_TYPES,
  };
}

export type WebhookEndpointData = Awaited<ReturnType<typeof loadWebhookEndpoint>>;

export const webhookEndpointAction: PageAction<unknown> = async ({ runtime, viewer, request, form }) => {
  const { db, services } = runtime;
  const actor = { merchantId: viewer.merchantId, mode: viewer.mode };
  const endpointId = endpointIdOf(request);
  const intent = field(form, "intent");
  if (intent === "update") {
    const values = { url: field(form, "url"), status: field(form, "status") };
    const result = await formAction(
      "update",
      { url: "url", events: "events", status: "status" },
      async () => {
        const { url, events } = await endpointFields(services, actor, form);
        const status = values.status === "disabled" ? "disabled" : "enabled";
        return db.transaction(async (tx) => {
          const updated = await updateWebhookEndpoint(tx, services, actor, endpointId, { url, events, status });
          await appendMerchantAudit(tx, services, viewer, {
            action: "webhook_endpoint.updated",
            subject: endpointId,
            detail: { host: new URL(updated.url).host, events: updated.events.join(" "), status: updated.status },
          });
          return updated;
        });
      },
      values,
    );
    return result.ok
      ? { ok: true, form: "update", message: "The endpoint is saved. Its secret is unchanged." }
      : result.response;
  }
  if (intent === "test") {
    const result = await formAction("test", {}, () =>
      db.transaction((tx) => sendTestEvent(tx, services, actor, endpointId)),
    );
    return result.ok
      ? {
          ok: true,
          form: "test",
          message: `Test event ${result.value.eventId} is on its way; its delivery appears below in a few seconds.`,
        }
      : result.response;
  }
  const eventId = field(form, "eventId");
  const result = await formAction("redeliver", { endpointId: "eventId" }, () =>
    db.transaction((tx) => redeliverEvent(tx, services, actor, eventId, endpointId)),
  );
  return result.ok
    ? { ok: true, form: "redeliver", message: `${eventId} is queued for this endpoint again (same event id).` }
    : result.response;
};
