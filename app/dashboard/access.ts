// Who may see and who may change each dashboard page: the one table of the dashboard's roles (the API's is
// server/http/routes.ts). Owners do everything; developers manage keys and webhooks; support reads and follows claims. On /dashboard a member has
// the role an owner gave them; in the Shopify admin everyone is an owner, and the shop's staff permissions decide who
// may open the app (so there is no Team page there).
import type { MemberRole } from "../../server/index.ts";
import type { Shell } from "./viewer.ts";

export type { MemberRole };

const EVERYONE: readonly MemberRole[] = ["owner", "developer", "support"];
const BUILDERS: readonly MemberRole[] = ["owner", "developer"];
const OWNER: readonly MemberRole[] = ["owner"];

export const DASHBOARD_PAGES = {
  overview: { title: "Overview", path: "", view: EVERYONE, change: OWNER },
  purchases: { title: "Purchases", path: "purchases", view: EVERYONE, change: OWNER },
  claims: { title: "Claims", path: "claims", view: EVERYONE, change: ["owner", "support"] },
  refunds: { title: "Refunds", path: "refunds", view: EVERYONE, change: OWNER },
  settlements: { title: "Settlements", path: "settlements", view: EVERYONE, change: OWNER },
  developers: { title: "Developers", path: "developers", view: BUILDERS, change: OWNER },
  keys: { title: "API keys", path: "developers/keys", view: BUILDERS, change: BUILDERS },
  webhooks: { title: "Webhooks", path: "developers/webhooks", view: BUILDERS, change: BUILDERS },
  program: { title: "Program", path: "program", view: EVERYONE, change: OWNER },
  experiments: { title: "Offer experiments", path: "experiments", view: EVERYONE, change: OWNER },
  analytics: { title: "Analytics", path: "analytics", view: EVERYONE, change: OWNER },
  goLive: { title: "Go live", path: "go-live", view: BUILDERS, change: OWNER },
  team: { title: "Team", path: "team", view: OWNER, change: OWNER, standaloneOnly: true },
  audit: { title: "Audit log", path: "audit", view: OWNER, change: OWNER },
} as const satisfies Record<
  string,
  { title: string; path: string; view: readonly MemberRole[]; change: readonly MemberRole[]; standaloneOnly?: true }
>;

export type DashboardPage = keyof typeof DASHBOARD_PAGES;

export const canView = (role: MemberRole, page: DashboardPage): boolean =>
  (DASHBOARD_PAGES[page].view as readonly MemberRole[]).includes(role);

export const canChange = (role: MemberRole, page: DashboardPage): boolean =>
  (DASHBOARD_PAGES[page].change as readonly MemberRole[]).includes(role);

/** The pages a shell's navigation lists for the role. */
export const navigationPages = (shell: Shell, role: MemberRole): DashboardPage[] =>
  (Object.keys(DASHBOARD_PAGES) as DashboardPage[]).filter(
    (page) => canView(role, page) && (shell === "standalone" || !("standaloneOnly" in DASHBOARD_PAGES[page])),
  );
