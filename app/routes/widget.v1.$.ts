// /widget/v1/*: the widget script (long-lived, immutable), its SRI hash and the iframe fallback page, from the
// same module the standalone server uses. The build lives in packages/widget/dist under the app's working directory.
import path from "node:path";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { widgetAssetResponse } from "../../server/index.ts";

const dist = path.resolve(process.cwd(), "packages/widget/dist");

export const loader = ({ request }: LoaderFunctionArgs) =>
  widgetAssetResponse(request, dist) ??
  new Response("Not found\n", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
