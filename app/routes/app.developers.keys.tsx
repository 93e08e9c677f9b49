// Developers → API keys in the Shopify admin: as on every cart, except the key pair the app holds for the shop (its
// orders call the API with the secret one, the theme embed and checkout use the publishable one). Those are marked,
// and neither rotated nor revoked here: that would stop protection on the shop's orders. A re-install mints a fresh
// pair.
import { embeddedAction, embeddedLoader, type ShopPageContext } from "../dashboard/embedded.server.ts";
import { keysAction, loadKeys } from "../dashboard/pages/keys.server.ts";
import { json } from "@remix-run/node";
import { field, type ActionFailure } from "../form-actions.server.ts";
import { appKeyDisplays } from "../shopify/installations.server.ts";

export const loader = embeddedLoader("keys", async (context) => ({
  ...(await loadKeys(context)),
  appKeys: appKeyDisplays(context.deps.sealer, context.installation),
}));

export const action = embeddedAction("keys", async (context: ShopPageContext & { form: FormData }) => {
  const keyId = field(context.form, "keyId");
  if (keyId) {
    const { runtime, viewer, deps, installation } = context;
    const key = (await runtime.core.keys.list(viewer.merchantId)).find((each) => each.id === keyId);
    if (key && appKeyDisplays(deps.sealer, installation).includes(key.display))
      return json<ActionFailure>(
        {
          errors: {},
          formError: "This key is held by the Shopify app for your orders: it cannot be rotated or revoked here.",
          form: field(context.form, "intent"),
          values: {},
        },
        409,
      );
  }
  return keysAction(context);
});
export { KeysPage as default } from "../dashboard/pages/KeysPage.tsx";
