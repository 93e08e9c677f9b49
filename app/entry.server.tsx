// Server rendering, streamed: browsers get the shell as soon as it is ready, crawlers (isbot) the complete document.
import { PassThrough } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { createReadableStreamFromReadable, type EntryContext, type HandleErrorFunction } from "@remix-run/node";
import { isbot } from "isbot";
import { addDocumentResponseHeaders, shopifyRuntime } from "./shopify.server.ts";
import { protectionRuntime } from "./protection-api.server.ts";
import type { Queryable } from "../server/index.ts";

// What scripts/web-server.ts serves the build with, and scripts/demo.ts prints, from the build's own copy of the core
// and the app (their import of server/ as well loaded every module twice).
export {
  API_BASE_PATH,
  DEMO_PATH,
  exitGracefullyOnSignals,
  probeRoutes,
  recordRequest,
  startProbeServer,
  UNMATCHED_ROUTE,
} from "../server/index.ts";
export { bodyLimitFor } from "./body-limits.ts";
export { closeRuntimes } from "./shopify.server.ts";
export { refusal } from "./form.server.ts";

const ABORT_DELAY = 5000;

/** The Shopify app's pages: the embedded admin (/app), its OAuth (/auth) and its landing page (/). */
const EMBEDDED_APP_PATH = /^\/(?:(?:app|auth)(?:\/.*)?)?$/;

// The protection runtime's workers (webhook deliveries, buyer e-mails) and the Shopify job queue start with the
// server, so work a crash or a seed left behind goes out without waiting for a request. Without Shopify credentials
// there is no job queue; a configuration error is logged and the API route reports it on use.
try {
  protectionRuntime();
  shopifyRuntime();
} catch (error) {
  console.error("[app] could not start the background workers:", error);
}

/**
 * Remix's error log, less the router's own refusals of a request it cannot route (405: a POST to a page without an
 * action; 404: no such page): the client's mistakes, answered with their status, not errors of the server.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted || (isRouteErrorResponse(error) && error.status < 500)) return;
  // As Remix's own: a router error's cause rather than its wrapper.
  const cause = isRouteErrorResponse(error) ? (error as { error?: unknown }).error : undefined;
  console.error(cause ?? error);
};

/** The protection runtime's database: what the web server's readiness probe and queue metrics read (scripts/web-server.ts). */
export function protectionDatabase(): Queryable {
  return protectionRuntime().db;
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  // Shopify's frame-ancestors lets the shop named in ?shop= frame the page: right for the embedded app, and nowhere
  // else (our own sites' pages are never framed, app/page-headers.ts).
  if (EMBEDDED_APP_PATH.test(new URL(request.url).pathname)) addDocumentResponseHeaders(request, responseHeaders);
  const readyEvent = isbot(request.headers.get("user-agent") ?? "") ? "onAllReady" : "onShellReady";

  return new Promise<Response>((resolve, reject) => {
    const { pipe, abort } = renderToPipeableStream(
      <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} />,
      {
        [readyEvent]: () => {
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html");
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}
