// Developers → Webhooks: the viewer's endpoints in the mode it shows, with their status; create one (its signing
// secret is in the answer once), rotate its secret (the new one once; the old one keeps signing for 24 hours), delete
// one (only from the page's confirmation step). Each change is audited with the endpoint's id and URL host, never a secret.
import { EVENT_TYPES } from "../../../server/index.ts";
import { field, formAction } from "../../form-actions.server.ts";
import type { PageAction, PageContext } from "../viewer.ts";
import { unconfirmed } from "../confirmation.server.ts";

export async function loadWebhooks({ runtime, viewer }: PageContext) {
  const page = await runtime.core.webhooks.list({ merchantId: viewer.merchantId, mode: viewer.mode });
  return { endpoints: page.data, eventTypes: EVENT_TYPES };
}

export type WebhooksData = Awaited<ReturnType<typeof loadWebhooks>>;

export const webhooksAction: PageAction<unknown> = async ({ runtime, viewer, form }) => {
  const { webhooks } = runtime.core;
  const intent = field(form, "intent");
  if (intent === "create") {
    const values = { url: field(form, "url") };
    const result = await formAction(
      "create",
      { url: "url", events: "events" },
      () => webhooks.create(viewer, { url: values.url, events: form.getAll("events") }),
      values,
    );
    if (!result.ok) return result.response;
    return { ok: true, form: "create", revealed: { url: result.value.url, secret: result.value.secret } };
  }
  const endpointId = field(form, "endpointId");
  if (intent === "rotate") {
    const result = await formAction("rotate", { id: "endpointId" }, () => webhooks.rotateSecret(viewer, endpointId));
    if (!result.ok) return result.response;
    return { ok: true, form: "rotate", revealed: { url: result.value.url, secret: result.value.secret } };
  }
  const refused = unconfirmed(form, "delete", "Nothing was deleted.");
  if (refused) return refused;
  const result = await formAction("delete", { id: "endpointId" }, () => webhooks.delete(viewer, endpointId));
  return result.ok
    ? { ok: true, form: "delete", message: "The endpoint is deleted; nothing more is sent to it." }
    : result.response;
};
