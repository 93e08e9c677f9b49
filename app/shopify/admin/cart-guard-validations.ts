// The shop's cart and checkout validations with the Function behind each and its app, and this app's id: whether the
// card-testing guard is installed already (app/shopify/cart-guard.server.ts). A shop activates at most 25; the page
// of 50 also holds ones switched off.
import { adminOperation } from "./graphql.ts";

export interface CartGuardValidationsResult {
  currentAppInstallation: { app: { id: string } };
  validations: { nodes: { id: string; enabled: boolean; shopifyFunction: { handle: string; app: { id: string } } }[] };
}

export const cartGuardValidations = adminOperation<void, CartGuardValidationsResult>(
  `query CartGuardValidations {
    currentAppInstallation { app { id } }
    validations(first: 50) { nodes { id enabled shopifyFunction { handle app { id } } } }
  }`,
);
