// Developers → Webhooks: the viewer's endpoints in the mode it shows, with their status; create one (its signing
// secret is in the answer once), rotate its secret (the new one once; the old one keeps signing for 24 hours), delete
// one (only from the page's confirmation step). Each change is audited with the endpoint's id and URL host, never a secret.
import { z } from "zod";
import {
  appendMerchantAudit,
  checkEndpointUrl,
  createSealer,
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  DomainError,
  EVENT_TYPES,
  listWebhookEndpoints,
  rotateWebhookSecret,
  type Actor,
  type Services,
} from "../../../server/index.ts";
import { field, formAction } from "../../form-actions.server.ts";
import type { PageAction, PageContext } from "../viewer.ts";
import { unconfirmed } from "../confirmation.server.ts";

export async function loadWebhooks({ runtime, viewer }: PageContext) {
  const page = await listWebhookEndpoints(
    runtime.db,
    { merchantId: viewer.merchantId, mode: viewer.mode },
    { limit: 100 },
  );
  return { endpoints: page.data, eventTypes: EVENT_TYPES };
}

export type WebhooksData = Awaited<ReturnType<typeof loadWebhooks>>;

const endpointSchema = z.object({
  url: z.string().trim().min(1, "Enter the URL events are sent to.").max(2048, "At most 2,048 characters."),
  events: z.array(z.enum(["*", ...EVENT_TYPES])).min(1, "Choose at least one event type, or all of them."),
});

/** The URL (checked as the API checks it) and events of an endpoint's form, or a DomainError naming the field. */
export async function endpointFields(services: Services, actor: Actor, form: FormData) {
  const parsed = endpointSchema.safeParse({ url: field(form, "url"), events: form.getAll("events") });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DomainError("invalid", "parameter_invalid", issue.message, String(issue.path[0]));
  }
  return { url: await checkEndpointUrl(services, actor, parsed.data.url), events: parsed.data.events };
}

export const webhooksAction: PageAction<unknown> = async ({ runtime, viewer, form }) => {
  const { db, services } = runtime;
  const sealer = createSealer(runtime.encryptionKey);
  const actor = { merchantId: viewer.merchantId, mode: viewer.mode };
  const intent = field(form, "intent");
  if (intent === "create") {
    const values = { url: field(form, "url") };
    const result = await formAction(
      "create",
      { url: "url", events: "events" },
      async () => {
        const input = await endpointFields(services, actor, form);
        return db.transaction(async (tx) => {
          const created = await createWebhookEndpoint(tx, services, sealer, actor, input);
          await appendMerchantAudit(tx, services, viewer, {
            action: "webhook_endpoint.created",
            subject: created.id,
            detail: { host: new URL(created.url).host },
          });
          return created;
        });
      },
      values,
    );
    if (!result.ok) return result.response;
    return { ok: true, form: "create", revealed: { url: result.value.url, secret: result.value.secret } };
  }
  const endpointId = field(form, "endpointId");
  if (intent === "rotate") {
    const result = await formAction("rotate", { id: "endpointId" }, () =>
      db.transaction(async (tx) => {
        const rotated = await rotateWebhookSecret(tx, services, sealer, actor, endpointId);
        await appendMerchantAudit(tx, services, viewer, {
          action: "webhook_endpoint.secret_rotated",
          subject: endpointId,
        });
        return rotated;
      }),
    );
    if (!result.ok) return result.response;
    return { ok: true, form: "rotate", revealed: { url: result.value.url, secret: result.value.secret } };
  }
  const refused = unconfirmed(form, "delete", "Nothing was deleted.");
  if (refused) return refused;
  const result = await formAction("delete", { id: "endpointId" }, () =>
    db.transaction(async (tx) => {
      const deleted = await deleteWebhookEndpoint(tx, actor, endpointId);
      await appendMerchantAudit(tx, services, viewer, { action: "webhook_endpoint.deleted", subject: endpointId });
      return deleted;
    }),
  );
  return result.ok
    ? { ok: true, form: "delete", message: "The endpoint is deleted; nothing more is sent to it." }
    : result.response;
};
