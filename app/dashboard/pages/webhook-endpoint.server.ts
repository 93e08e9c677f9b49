// A webhook endpoint's page: its deliveries log (each attempt's outcome, status code, latency, error and the start of
// the receiver's answer), newest first; sending an event of the log to this endpoint again; sending it a test event;
// and changing its URL, events and status (as the API's PATCH: the signing secret never changes, and enabling a
// failing or disabled endpoint restarts delivery).
import { EVENT_TYPES } from "../../../server/index.ts";
import { field, formAction } from "../../form-actions.server.ts";
import type { PageAction, PageContext } from "../viewer.ts";

const endpointIdOf = (request: Request) => decodeURIComponent(new URL(request.url).pathname.split("/").at(-1) ?? "");

export async function loadWebhookEndpoint({ runtime, viewer, request }: PageContext) {
  const actor = { merchantId: viewer.merchantId, mode: viewer.mode };
  const endpointId = endpointIdOf(request);
  const after = new URL(request.url).searchParams.get("after") ?? undefined;
  const [endpoint, attempts] = await Promise.all([
    runtime.core.webhooks.get(actor, endpointId),
    runtime.core.webhooks.attempts(actor, endpointId, { limit: 50, startingAfter: after?.slice(0, 255) || undefined }),
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
  const { webhooks } = runtime.core;
  const endpointId = endpointIdOf(request);
  const intent = field(form, "intent");
  if (intent === "update") {
    const values = { url: field(form, "url"), status: field(form, "status") };
    const result = await formAction(
      "update",
      { url: "url", events: "events", status: "status" },
      () =>
        webhooks.update(viewer, endpointId, { url: values.url, events: form.getAll("events"), status: values.status }),
      values,
    );
    return result.ok
      ? { ok: true, form: "update", message: "The endpoint is saved. Its secret is unchanged." }
      : result.response;
  }
  if (intent === "test") {
    const result = await formAction("test", {}, () => webhooks.sendTest(viewer, endpointId));
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
    webhooks.redeliver(viewer, endpointId, eventId),
  );
  return result.ok
    ? { ok: true, form: "redeliver", message: `${eventId} is queued for this endpoint again (same event id).` }
    : result.response;
};
