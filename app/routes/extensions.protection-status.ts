// GET /extensions/protection-status?orderId=<numeric Shopify order id>: what the post-purchase blocks
// (extensions/post-purchase, Thank-you and Order-status pages) show for an order. The caller is the extension in the
// buyer's browser with its session token (`Authorization: Bearer`, signed with the app's secret);
// authenticate.public.checkout verifies it (401 without a valid one) and answers CORS preflights, and the token's
// `dest` names the shop: an order is read only within that shop. Plain .ts (no JSX), so that node imports it in tests.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { iso } from "../../server/index.ts";
import { findShopifyOrderProtection } from "../shopify/store/order-protection.ts";
import { shopify, shopifyRuntime } from "../shopify.server.ts";

export type ProtectionStatus =
  | {
      protected: boolean;
      status: "active" | "voided" | "cancelled";
      referenceNumber: string;
      freeLookEndsAt: string;
      portalUrl: string;
    }
  | { protected: false; status: "pending"; portalUrl: string };

const ORDER_ID = /^\d{1,20}$/;

/** The shop's domain from a session token's `dest`: checkout tokens carry the bare domain, admin ones a URL. */
const shopOf = (dest: string) => (dest.includes("://") ? new URL(dest).hostname : dest);

async function handle({ request }: LoaderFunctionArgs | ActionFunctionArgs): Promise<Response> {
  const app = shopify();
  const runtime = shopifyRuntime();
  if (!app || !runtime) return new Response("Shopify is not configured (demo mode)", { status: 503 });
  let authenticated: Awaited<ReturnType<typeof app.authenticate.public.checkout>>;
  try {
    // Throws the preflight's 204 (with its CORS headers) and the 401s.
    authenticated = await app.authenticate.public.checkout(request);
  } catch (thrown) {
    // The library's 401 has no CORS headers; with them the extension can read the status instead of a network error.
    if (thrown instanceof Response && !thrown.headers.has("Access-Control-Allow-Origin"))
      thrown.headers.set("Access-Control-Allow-Origin", "*");
    throw thrown;
  }
  const { sessionToken, cors } = authenticated;
  const json = (body: unknown, status = 200) =>
    cors(Response.json(body, { status, headers: { "Cache-Control": "no-store" } }));
  if (request.method !== "GET") return json({ error: "method_not_allowed" }, 405);

  const orderId = new URL(request.url).searchParams.get("orderId") ?? "";
  if (!ORDER_ID.test(orderId)) return json({ error: "order_id_invalid" }, 400);
  const shop = shopOf(sessionToken.dest);
  const { deps } = runtime;
  if (!(await deps.installation(shop))) return json({ error: "not_found" }, 404);
  const found = await findShopifyOrderProtection(deps.db, shop, orderId);
  const portalUrl = deps.services.settings.portalUrl;
  if (found.state === "none") return json({ error: "not_found" }, 404);
  const body: ProtectionStatus =
    found.state === "pending"
      ? { protected: false, status: "pending", portalUrl }
      : {
          protected: found.status === "active",
          status: found.status,
          referenceNumber: found.referenceNumber,
          freeLookEndsAt: iso(found.freeLookEndsAt),
          portalUrl,
        };
  return json(body);
}

export const loader = handle;

// Remix hands every method but GET and HEAD to the action: the CORS preflight (OPTIONS) among them.
export const action = handle;
