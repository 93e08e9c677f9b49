// The one way into the core for the app (app/) and the scripts: use cases grouped by area (`core.keys.mint(caller,
// input)`), each owning its transaction and returning plain values. An area is a module `server/core/<area>.ts`
// exporting `<area>Area(deps)`; adding one is an import and a line below. Routes read their input and render; the
// rules, validation, transactions and audit entries are the use cases'.
import type { CoreDeps } from "./deps.ts";
import { accountsArea } from "./accounts.ts";
import { keysArea } from "./keys.ts";
import { shopifyArea } from "./shopify.ts";

export type { CoreDeps } from "./deps.ts";

export function createCore(deps: CoreDeps) {
  return {
    accounts: accountsArea(deps),
    keys: keysArea(deps),
    shopify: shopifyArea(deps),
  };
}

export type Core = ReturnType<typeof createCore>;
