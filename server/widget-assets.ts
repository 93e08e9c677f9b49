// The widget's static assets, served by the standalone server and the Remix app alike:
//   GET /widget/v1/service-widget.js      the built script (packages/widget/dist), cacheable for a year, immutable
//   GET /widget/v1/service-widget.js.sri  its SRI hash (sha384-…), for <script integrity="…">
//   GET /widget/v1/frame.html             the iframe fallback for pages without customElements
// The script answers any origin (Access-Control-Allow-Origin: *) so pages can load it with crossorigin + integrity.
import fs from "node:fs";
import path from "node:path";

export const WIDGET_PATH = "/widget/v1/";
export const WIDGET_SCRIPT_PATH = `${WIDGET_PATH}service-widget.js`;

/** Where `npm run build -w @purchase-protection/widget` writes the script. */
export const DEFAULT_WIDGET_DIST = path.resolve(import.meta.dirname ?? process.cwd(), "../packages/widget/dist");

const FRAME_HTML =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">' +
  '<meta name="viewport" content="width=device-width,initial-scale=1"><title>Purchase protection</title>' +
  "<style>html,body{margin:0;background:transparent}body{display:flow-root}</style></head>" +
  '<body><script src="service-widget.js" data-frame></script></body></html>';

const IMMUTABLE = "public, max-age=31536000, immutable";

interface Asset {
  file?: string;
  body?: string;
  type: string;
  headers: Record<string, string>;
}

const ASSETS: Record<string, Asset> = {
  "service-widget.js": {
    file: "service-widget.js",
    type: "text/javascript; charset=utf-8",
    headers: { "Cache-Control": IMMUTABLE, "Access-Control-Allow-Origin": "*", "Cross-Origin-Resource-Policy": "cross-origin" },
  },
  "service-widget.js.sri": {
    file: "service-widget.js.sri",
    type: "text/plain; charset=utf-8",
    headers: { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" },
  },
  "frame.html": {
    body: FRAME_HTML,
    type: "text/html; charset=utf-8",
    headers: {
      "Cache-Control": "public, max-age=86400",
      // Its own strict policy; any page may frame it (that is its purpose); it talks to any API host it is given.
      "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src *; frame-ancestors *; base-uri 'none'",
      "Referrer-Policy": "no-referrer",
    },
  },
};

const cache = new Map<string, { mtimeMs: number; body: Buffer }>();

function readAsset(dir: string, file: string): Buffer | undefined {
  const full = path.join(dir, file);
  try {
    const { mtimeMs } = fs.statSync(full);
    const hit = cache.get(full);
    if (hit && hit.mtimeMs === mtimeMs) return hit.body;
    const body = fs.readFileSync(full);
    cache.set(full, { mtimeMs, body });
    return body;
  } catch {
    return undefined;
  }
}

/**
 * The response for a widget asset request, or undefined when the path is not one (the caller goes on routing).
 * A missing build answers 404 with a hint, never a stack trace.
 */
export function widgetAssetResponse(request: Request, dir = DEFAULT_WIDGET_DIST): Response | undefined {
  const { pathname } = new URL(request.url);
  if (!pathname.startsWith(WIDGET_PATH)) return undefined;
  const asset = ASSETS[pathname.slice(WIDGET_PATH.length)];
  if (!asset) return undefined;
  if (request.method !== "GET" && request.method !== "HEAD") {
    return new Response(null, { status: 405, headers: { Allow: "GET, HEAD" } });
  }
  const body = asset.body ?? readAsset(dir, asset.file!);
  if (body === undefined) {
    return new Response("The widget is not built: run `npm run build:widget`.\n", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  }
  return new Response(request.method === "HEAD" ? null : typeof body === "string" ? body : new Uint8Array(body), {
    headers: { "Content-Type": asset.type, "X-Content-Type-Options": "nosniff", ...asset.headers },
  });
}

/** Wraps a fetch handler so that widget asset paths are answered first. */
export function withWidgetAssets(next: (request: Request) => Response | Promise<Response>, dir = DEFAULT_WIDGET_DIST) {
  return (request: Request) => widgetAssetResponse(request, dir) ?? next(request);
}
