// The one way into the core for the app (app/) and the scripts: use cases grouped by area (`core.keys.mint(caller,
// input)`), each owning its transaction and returning plain values. An area is a module `server/core/<area>.ts`
// exporting `<area>Area(deps)`; adding one is an import and a line below. Routes read their input and render; the
// rules, validation, transactions and audit entries are the use cases'.
import type { CoreDeps } from "./deps.ts";
import { accountsArea } from "./accounts.ts";
import { claimsArea } from "./claims.ts";
import { keysArea } from "./keys.ts";
import { portalArea } from "./portal.ts";
import { programsArea } from "./programs.ts";
import { purchasesArea } from "./purchases.ts";
import { shopifyArea } from "./shopify.ts";
import { staffArea } from "./staff.ts";
import { teamArea } from "./team.ts";
import { webhooksArea } from "./webhooks.ts";

export type { CoreDeps } from "./deps.ts";
export type { MerchantCaller } from "./callers.ts";
export { StaffRefused, type StaffCaller } from "./staff-session.ts";
export type { Buyer, PortalAnswer, PortalForm, PortalRulebook } from "./portal.ts";

export function createCore(deps: CoreDeps) {
  return {
    accounts: accountsArea(deps),
    claims: claimsArea(deps),
    keys: keysArea(deps),
    portal: portalArea(deps),
    programs: programsArea(deps),
    purchases: purchasesArea(deps),
    shopify: shopifyArea(deps),
    staff: staffArea(deps),
    team: teamArea(deps),
    webhooks: webhooksArea(deps),
  };
}

export type Core = ReturnType<typeof createCore>;
