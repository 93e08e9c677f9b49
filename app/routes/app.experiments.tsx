// Offer experiments in the Shopify admin: a roll-out changes the program's rate, so the storefront is set up again
// after each change, as the Program page does (the protection product's fee tiers follow the new terms).
import { embeddedAction, embeddedLoader, followedBy } from "../dashboard/embedded.server.ts";
import { experimentsAction, loadExperiments } from "../dashboard/pages/experiments.server.ts";
import { resyncStorefront } from "../shopify/go-live.server.ts";

export const loader = embeddedLoader("experiments", loadExperiments);
export const action = embeddedAction(
  "experiments",
  followedBy(experimentsAction, ({ deps, shop }) => resyncStorefront(deps, shop)),
);
export { ExperimentsPage as default } from "../dashboard/pages/ExperimentsPage.tsx";
