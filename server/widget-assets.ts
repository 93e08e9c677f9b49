// The widget's static assets, served by the standalone server and the Remix app alike:
//   GET /widget/v1/service-widget.js            the current build (packages/widget/dist): cached 5 minutes (then
//                                               revalidated by ETag), so a deploy reaches every page within minutes
//   GET /widget/v1/service-widget.<version>.js  the same bytes under their content version: cacheable for a year,
//                                               immutable — the URL to use with <script integrity="…">
//   GET /widget/v1/service-widget.js.sri        the build's SRI hash (sha384-…)
//   GET /widget/v1/frame.html                   the iframe fallback for pages without customElements, and its
//   GET /widget/v1/frame.js                     script (the same widget, built apart from service-widget.js)
// The script answers any origin (Access-Control-Allow-Origin: *) so pages can load it with crossorigin + integrity.
// Only the current build is served; a versioned URL of an earlier build answers 404 (pin, and re-pin on update).
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export const WIDGET_PATH = "/widget/v1/";
export const WIDGET_SCRIPT_PATH = `${WIDGET_PATH}service-widget.js`;

/** Where `npm run build -w @purchase-protection/widget` writes the script. */
const DEFAULT_WIDGET_DIST = path.resolve(import.meta.dirname ?? process.cwd(), "../packages/widget/dist");

const FRAME_HTML =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">' +
  '<meta name="viewport" content="width=device-width,initial-scale=1"><title>Purchase protection</title>' +
  "<style>html,body{margin:0;background:transparent}body{display:flow-root}</style></head>" +
  '<body><script src="frame.js"></script></body></html>';

const IMMUTABLE = "public, max-age=31536000, immutable";
const REVALIDATED = "public, max-age=300, stale-while-revalidate=86400";
const SCRIPT_HEADERS = { "Access-Control-Allow-Origin": "*", "Cross-Origin-Resource-Policy": "cross-origin" };
const VERSIONED_SCRIPT = /^service-widget\.([0-9a-f]{16})\.js$/;

/** The content version in a build's versioned URL: the first 16 hex digits of its SHA-256. */
export const widgetVersionOf = (code: Uint8Array) => createHash("sha256").update(code).digest("hex").slice(0, 16);

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
    headers: { "Cache-Control": REVALIDATED, ...SCRIPT_HEADERS },
  },
  "service-widget.js.sri": {
    file: "service-widget.js.sri",
    type: "text/plain; charset=utf-8",
    headers: { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" },
  },
  "frame.js": {
    file: "frame.js",
    type: "text/javascript; charset=utf-8",
    headers: { "Cache-Control": REVALIDATED },
  },
  "frame.html": {
    body: FRAME_HTML,
    type: "text/html; charset=utf-8",
    headers: {
      "Cache-Control": "public, max-age=86400",
      // Its own strict policy; any page may frame it (that is its purpose); it talks to any API host it is given.
      "Content-Security-Policy":
        "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src *; frame-ancestors *; base-uri 'none'",
      "Referrer-Policy": "no-referrer",
    },
  },
};

const cache = new Map<string, { mtimeMs: number; body: Buffer; version: string }>();

function readAsset(dir: string, file: string): { body: Buffer; version: string } | undefined {
  const full = path.join(dir, file);
  try {
    const { mtimeMs } = fs.statSync(full);
    const hit = cache.get(full);
    if (hit && hit.mtimeMs === mtimeMs) return hit;
    const body = fs.readFileSync(full);
    const read = { mtimeMs, body, version: widgetVersionOf(body) };
    cache.set(full, read);
    return read;
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
  const name = pathname.slice(WIDGET_PATH.length);
  const pinned = VERSIONED_SCRIPT.exec(name)?.[1];
  const asset = pinned ? ASSETS["service-widget.js"] : ASSETS[name];
  if (!asset) return undefined;
  if (request.method !== "GET" && request.method !== "HEAD") {
    return new Response(null, { status: 405, headers: { Allow: "GET, HEAD" } });
  }
  const plain = (status: number, text: string) =>
    new Response(text, {
      status,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  if (asset.body !== undefined) return respond(request, asset.body, { "Content-Type": asset.type, ...asset.headers });
  const read = readAsset(dir, asset.file!);
  if (!read) return plain(404, "The widget is not built: run `npm run build:widget`.\n");
  if (pinned && pinned !== read.version)
    return plain(404, `Widget version ${pinned} is not the one deployed here (${read.version}).\n`);
  const headers: Record<string, string> = { "Content-Type": asset.type, ...asset.headers };
  if (asset.file === "service-widget.js") {
    if (pinned) headers["Cache-Control"] = IMMUTABLE;
    headers.ETag = `"${read.version}"`;
    if (request.headers.get("if-none-match") === headers.ETag)
      return new Response(null, {
        status: 304,
        headers: { ETag: headers.ETag, "Cache-Control": headers["Cache-Control"], ...SCRIPT_HEADERS },
      });
  }
  return respond(request, read.body, headers);
}

function respond(request: Request, body: string | Buffer, headers: Record<string, string>): Response {
  return new Response(request.method === "HEAD" ? null : typeof body === "string" ? body : new Uint8Array(body), {
    headers: { "X-Content-Type-Options": "nosniff", ...headers },
  });
}
