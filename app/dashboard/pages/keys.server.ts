// Developers → API keys: every key of the merchant (test and live) with its label, minting, rotation with an overlap,
// revocation (only from the page's confirmation step).
// Which kinds a role may mint is the core's rule (MINTABLE_KEY_KINDS); a refused kind is the form's error.
// A new key's full value is in the action's answer once; the page never loads it again.
import { MINTABLE_KEY_KINDS } from "../../../server/index.ts";
import { field, formAction } from "../../form-actions.server.ts";
import type { PageAction, PageContext } from "../viewer.ts";
import { unconfirmed } from "../confirmation.server.ts";

export async function loadKeys({ runtime, viewer }: PageContext) {
  return {
    keys: await runtime.core.keys.list(viewer.merchantId),
    // What the viewer's role may mint and rotate (a developer: publishable and restricted keys).
    mintable: MINTABLE_KEY_KINDS[viewer.role],
  };
}

export type KeysData = Awaited<ReturnType<typeof loadKeys>>;

export const keysAction: PageAction<unknown> = async ({ runtime, viewer, form }) => {
  const { keys } = runtime.core;
  const intent = field(form, "intent");
  if (intent === "revoke") {
    const refused = unconfirmed(form, "revoke", "Nothing was revoked.");
    if (refused) return refused;
    const result = await formAction("revoke", { keyId: "keyId" }, () => keys.revoke(viewer, field(form, "keyId")));
    return result.ok ? { ok: true, form: "revoke", message: `${result.value.display} is revoked.` } : result.response;
  }
  const rotating = intent === "rotate";
  if (rotating && field(form, "overlap") === "none") {
    const refused = unconfirmed(form, "rotate", "Nothing was rotated.");
    if (refused) return refused;
  }
  const values: Record<string, string> = rotating
    ? { keyId: field(form, "keyId"), overlap: field(form, "overlap") }
    : { kind: field(form, "kind"), mode: field(form, "mode"), label: field(form, "label") };
  const result = await formAction(
    rotating ? "rotate" : "mint",
    rotating ? { keyId: "keyId", overlap: "overlap" } : { kind: "kind", mode: "mode", label: "label" },
    () => (rotating ? keys.rotate(viewer, values) : keys.mint(viewer, values)),
    values,
  );
  if (!result.ok) return result.response;
  return {
    ok: true,
    form: rotating ? "rotate" : "mint",
    revealed: { display: result.value.key.display, secret: result.value.secret, label: result.value.key.label },
  };
};
