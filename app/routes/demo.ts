// /demo: the sample storefront checkout page with <service-widget> (test mode, the demo merchant).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { demoKeysFor, demoPageResponse } from "../../server/demo-page.ts";
import { protectionRuntime } from "../protection-api.server.ts";

export const loader = async ({ request }: LoaderFunctionArgs) =>
  (await demoPageResponse(request, demoKeysFor(protectionRuntime()))) ?? new Response(null, { status: 404 });
