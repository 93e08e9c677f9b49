// The card-testing guard on a shop: the cart and checkout validation Function extensions/protection-cart-guard
// (docs/shopify.md "Card-testing guard") installed as a validation, once. Run by the storefront setup (install, go
// live, a program change); a validation of the guard that exists is left as it is, so a merchant who switched it off
// in Settings → Checkout keeps it off.
import type { AdminGraphql } from "./admin/graphql.ts";
import { cartGuardValidations } from "./admin/cart-guard-validations.ts";
import { createCartGuardValidation } from "./admin/create-cart-guard-validation.ts";

/** The Function's handle: `handle` in extensions/protection-cart-guard/shopify.extension.toml. */
export const CART_GUARD_FUNCTION_HANDLE = "protection-cart-guard";

/** Installs the guard unless the shop has it (on or off). Returns whether it was created now. */
export async function ensureCartGuard(graphql: AdminGraphql): Promise<boolean> {
  const { currentAppInstallation, validations } = await cartGuardValidations(graphql);
  const installed = validations.nodes.some(
    ({ shopifyFunction }) =>
      shopifyFunction.handle === CART_GUARD_FUNCTION_HANDLE && shopifyFunction.app.id === currentAppInstallation.app.id,
  );
  if (installed) return false;
  await createCartGuardValidation(graphql, {
    validation: {
      functionHandle: CART_GUARD_FUNCTION_HANDLE,
      title: "Purchase protection: not alone, and once per order",
      enable: true,
      // A failure of the guard itself (not a refusal) lets the checkout through: it must never stop every sale.
      blockOnFailure: false,
    },
  });
  return true;
}
