// Downloads a customers/data_request export (the JSON the app kept for the merchant to hand to the customer). Only
// the shop that received the request gets it: any other id answers 404, whether it exists or not.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { findShopifyDataRequestExport } from "../shopify/store/data-requests.ts";
import { authenticateAdmin, shopifyRuntime } from "../shopify.server.ts";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await authenticateAdmin(request);
  const runtime = shopifyRuntime();
  const id = params.id ?? "";
  const exported =
    admin && runtime ? await findShopifyDataRequestExport(runtime.deps.db, admin.session.shop, id) : undefined;
  if (exported === undefined) return new Response("Not found", { status: 404 });
  return new Response(exported, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="data-request-${id}.json"`,
      // Customer data: never kept by a browser or proxy cache.
      "Cache-Control": "no-store",
    },
  });
}
