// /demo: the sample storefront checkout page with <service-widget> (test mode, the demo merchant). Only when the demo
// runs (DEMO=on): a production server has no demo page and never creates the demo merchant.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { demoKeysFor, demoPageResponse } from "../../server/index.ts";
import { protectionRuntime } from "../protection-api.server.ts";

const notFound = () => new Response(null, { status: 404 });

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const runtime = protectionRuntime();
  if (runtime.config.DEMO !== "on") return notFound();
  return (await demoPageResponse(request, demoKeysFor(runtime), runtime.api)) ?? notFound();
};

/** POST /demo: the page's "Place order" (confirms or declines the buyer's quote with the demo merchant's secret key). */
export const action = loader;
