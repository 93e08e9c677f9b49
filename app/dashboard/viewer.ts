// Who is looking at the dashboard, as every page's loader and action sees them, whichever shell authenticated them
// (app/dashboard/standalone.server.ts for /dashboard, app/dashboard/embedded.server.ts for /app in the Shopify admin).
// Pages know nothing else about the shell.
import type { MemberRole, Mode, Runtime } from "../../server/index.ts";

export type Shell = "standalone" | "embedded";

export interface DashboardViewer {
  shell: Shell;
  merchantId: string;
  merchantName: string;
  /** Which data the pages show and change (the banner on every page says which). */
  mode: Mode;
  /** Whether the merchant has gone live (live keys work only then). */
  live: boolean;
  role: MemberRole;
  /** Who the audit log names: a member (id, e-mail), or shopify:<user id> and the shop in the Shopify admin. */
  actor: { id: string; email: string };
  /** The client's address, for the audit log. */
  ip: string;
  /** The Shopify shop (embedded shell), else null. */
  shop: string | null;
}

/** What a page's loader and action get: the core's runtime (tests pass their own), the viewer and the request. */
export interface PageContext {
  runtime: Runtime;
  viewer: DashboardViewer;
  request: Request;
}

/** A page's data for the viewer: plain JSON (strings, numbers, booleans; times as ISO strings). */
export type PageLoad<T> = (context: PageContext) => Promise<T>;

/**
 * A page's POST: the shell has authenticated the viewer, checked CSRF and that the viewer's role may change the page,
 * and parsed the form. Answers JSON for the page (its result, or an ActionFailure from app/form-actions.server.ts)
 * or a redirect Response.
 */
export type PageAction<T> = (context: PageContext & { form: FormData }) => Promise<T | Response>;
