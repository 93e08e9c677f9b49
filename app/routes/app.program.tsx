// The program's terms in the Shopify admin: as on every cart, and a change of them sets the storefront up again, so
// the protection product's fee tiers follow the new terms.
import { embeddedAction, embeddedLoader, followedBy } from "../dashboard/embedded.server.ts";
import { loadProgram, programAction } from "../dashboard/pages/program.server.ts";
import { resyncStorefront } from "../shopify/go-live.server.ts";

export const loader = embeddedLoader("program", loadProgram);
export const action = embeddedAction(
  "program",
  followedBy(programAction, ({ deps, shop }) => resyncStorefront(deps, shop)),
);
export { ProgramPage as default } from "../dashboard/pages/ProgramPage.tsx";
