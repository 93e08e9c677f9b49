// Requests to the embedded dashboard's routes (/app) as App Bridge sends them from inside the Shopify admin: each
// carries a session token made as Shopify makes it. The route modules are called directly, in the test's process.
import { sessionToken, TEST_APP } from "./shopify.ts";
import type { ShopOverview } from "../../app/shopify/dashboard.server.ts";
import type { OverviewData } from "../../app/dashboard/pages/overview.server.ts";

/** A request to an admin route of `shop`, with its session token (a form's POST when `form` is given). */
export function adminRequest(path: string, shop: string, form?: Record<string, string | string[]>): Request {
  const headers = { Authorization: `Bearer ${sessionToken(shop)}` };
  if (!form) return new Request(new URL(path, TEST_APP.SHOPIFY_APP_URL), { headers });
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(form))
    for (const each of Array.isArray(value) ? value : [value]) body.append(name, each);
  return new Request(new URL(path, TEST_APP.SHOPIFY_APP_URL), { method: "POST", headers, body });
}

type Handler = (args: {
  request: Request;
  params: Record<string, string>;
  // Any Remix loader or action: their context type is an open record.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  context: Record<string, any>;
}) => Promise<unknown>;

/** What a route's loader (GET) or action (POST) answers, with its status and JSON (or text) body. */
export async function callRoute<Data = Record<string, unknown>>(
  handler: Handler,
  request: Request,
  params: Record<string, string> = {},
): Promise<{ status: number; data: Data }> {
  let answer: unknown;
  try {
    answer = await handler({ request, params, context: {} });
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    answer = thrown;
  }
  // A loader may answer plain data (Remix serialises it as JSON, 200).
  if (!(answer instanceof Response)) return { status: 200, data: answer as Data };
  const response = answer;
  const text = await response.text();
  const json = response.headers.get("Content-Type")?.includes("json");
  return { status: response.status, data: (json ? JSON.parse(text) : text) as Data };
}

/** The admin overview's loader data (app/routes/app._index.tsx): the dashboard's overview and the shop's part. */
export async function adminOverview(shop: string): Promise<OverviewData & { shop: ShopOverview }> {
  const route = await import("../../app/routes/app._index.tsx");
  const { status, data } = await callRoute<OverviewData & { shop: ShopOverview }>(
    route.loader,
    adminRequest("/app", shop),
  );
  if (status !== 200) throw new Error(`GET /app answered ${status}: ${JSON.stringify(data)}`);
  return data;
}

/** The shop's part of the admin overview. */
export const adminShopOverview = async (shop: string): Promise<ShopOverview> => (await adminOverview(shop)).shop;
