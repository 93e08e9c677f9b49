// The embedded dashboard's shell (/app, inside the Shopify admin): the same pages as /dashboard, authenticated by
// Shopify. authenticate.admin checks the session token App Bridge adds to every request from the admin (or the
// id_token of a document load, bouncing through Shopify when there is none), so a forged cross-site POST carries no
// token and the forms need no CSRF field. The shop's installation says which merchant and which mode the pages show:
// test until the shop goes live. Whoever opens the app in the admin is a staff member Shopify let in, so an owner:
// Shopify's staff permissions decide who may use the app.
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { findShopInstallation, type ShopInstallationRecord } from "../shopify/store/shops.ts";
import { clientIp, protectionRuntime } from "../protection-api.server.ts";
import { answeringRefusals } from "../form-actions.server.ts";
import { authenticateAdmin, isDemoMode, shopifyRuntime } from "../shopify.server.ts";
import type { ShopifyDeps } from "../shopify/deps.server.ts";
import { canChange, canView, type DashboardPage } from "./access.ts";
import type { DashboardShell } from "./shell-context.tsx";
import type { DashboardViewer, PageAction, PageContext } from "./viewer.ts";
import { readForm } from "../form.server.ts";

export const EMBEDDED_BASE = "/app";

/** What a page gets in the admin beside the page context: the shop, its installation and the Shopify side's dependencies. */
export type ShopPageContext = PageContext & { shop: string; installation: ShopInstallationRecord; deps: ShopifyDeps };

/**
 * The viewer of an admin request; undefined while the shop's installation is not written yet (the moment after
 * OAuth). Shopify's auth flow throws its redirects and bounce pages as usual.
 */
async function findViewer(
  request: Request,
  ip: string,
): Promise<
  { viewer: DashboardViewer; shop: string; installation: ShopInstallationRecord; deps: ShopifyDeps } | undefined
> {
  const admin = await authenticateAdmin(request);
  const runtime = shopifyRuntime();
  if (!admin || !runtime) throw new Response("Shopify is not configured on this server.", { status: 404 });
  const shop = admin.session.shop;
  const installation = await findShopInstallation(runtime.deps.db, shop);
  if (!installation) return undefined;
  // A request from the admin carries the staff member's session token (its `sub`); the audit log names them by it.
  const staffId = "sessionToken" in admin && admin.sessionToken?.sub ? String(admin.sessionToken.sub) : "unknown";
  return {
    shop,
    installation,
    deps: runtime.deps,
    viewer: {
      shell: "embedded",
      merchantId: installation.merchantId,
      merchantName: shop,
      mode: installation.mode,
      live: installation.mode === "live",
      role: "owner",
      actor: { id: `shopify:${staffId}`, email: `staff of ${shop}` },
      ip,
      shop,
    },
  };
}

async function embeddedViewer(request: Request, ip: string) {
  const found = await findViewer(request, ip);
  if (!found)
    throw new Response("The app is being set up for this shop. Reload the page in a moment.", { status: 503 });
  return found;
}

/** What the layout gives every page component; null while the shop is being set up. */
export async function embeddedShell(request: Request): Promise<DashboardShell | null> {
  const viewer = (await findViewer(request, ""))?.viewer;
  if (!viewer) return null;
  return {
    shell: "embedded",
    basePath: EMBEDDED_BASE,
    merchantName: viewer.merchantName,
    mode: viewer.mode,
    live: viewer.live,
    role: viewer.role,
    csrfToken: "",
  };
}

const forbidden = () => new Response("This page is not part of the app in the Shopify admin.", { status: 403 });

export function embeddedLoader<T>(page: DashboardPage, load: (context: ShopPageContext) => Promise<T>) {
  return async ({ request, context }: LoaderFunctionArgs): Promise<Response> => {
    // Demo mode: the layout shows what is missing in place of every page, so a page has nothing to load.
    if (isDemoMode()) return json(null);
    const { viewer, ...shopContext } = await embeddedViewer(request, clientIp(request, context) ?? "");
    if (!canView(viewer.role, page)) throw forbidden();
    const result = await answeringRefusals(() =>
      load({ runtime: protectionRuntime(), viewer, request, ...shopContext }),
    );
    return result instanceof Response ? result : json(result);
  };
}

export function embeddedAction<T>(
  page: DashboardPage,
  act: (context: ShopPageContext & { form: FormData }) => Promise<T | Response>,
) {
  return async ({ request, context }: ActionFunctionArgs): Promise<Response> => {
    const { viewer, ...shopContext } = await embeddedViewer(request, clientIp(request, context) ?? "");
    if (!canChange(viewer.role, page)) throw forbidden();
    const form = await readForm(request);
    const result = await answeringRefusals(() =>
      act({ runtime: protectionRuntime(), viewer, request, form, ...shopContext }),
    );
    return result instanceof Response ? result : json(result);
  };
}

/** A page's action, then `after` when it succeeded (a refusal answers an error status: formAction). */
export function followedBy<T>(act: PageAction<T>, after: (context: ShopPageContext) => Promise<void>) {
  return async (context: ShopPageContext & { form: FormData }): Promise<T | Response> => {
    const result = await act(context);
    if (!(result instanceof Response && result.status >= 400)) await after(context);
    return result;
  };
}
