// A webhook endpoint's page: its deliveries log (each attempt's outcome, status code, latency, error and the start of
// the receiver's answer), newest first, and sending an event of the log to this endpoint again.
import { getWebhookEndpoint, listWebhookAttempts, redeliverEvent } from "../../../server/index.ts";
import { field, formAction } from "../../form-actions.server.ts";
import type { PageAction, PageContext } from "../viewer.ts";

const endpointIdOf = (request: Request) => decodeURIComponent(new URL(request.url).pathname.split("/").at(-1) ?? "");

export async function loadWebhookEndpoint({ runtime, viewer, request }: PageContext) {
  const actor = { merchantId: viewer.merchantId, mode: viewer.mode };
  const endpointId = endpointIdOf(request);
  const after = new URL(request.url).searchParams.get("after") ?? undefined;
  const [endpoint, attempts] = await Promise.all([
    getWebhookEndpoint(runtime.db, actor, endpointId),
    listWebhookAttempts(runtime.db, actor, endpointId, { limit: 50, startingAfter: after?.slice(0, 255) || undefined }),
  ]);
  return { endpoint, attempts: attempts.data, nextAfter: attempts.hasMore ? attempts.nextCursor : null };
}

export type WebhookEndpointData = Awaited<ReturnType<typeof loadWebhookEndpoint>>;

export const webhookEndpointAction: PageAction<unknown> = async ({ runtime, viewer, request, form }) => {
  const eventId = field(form, "eventId");
  const result = await formAction("redeliver", { endpointId: "eventId" }, () =>
    runtime.db.transaction((tx) =>
      redeliverEvent(
        tx,
        runtime.services,
        { merchantId: viewer.merchantId, mode: viewer.mode },
        eventId,
        endpointIdOf(request),
      ),
    ),
  );
  return result.ok
    ? { ok: true, form: "redeliver", message: `${eventId} is queued for this endpoint again (same event id).` }
    : result.response;
};
