// What every widget test runs against: the built script, the real API on loopback with the widget assets on the
// same origin (as server/main.ts composes them), and a page server on another loopback port, so CORS is real.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { buildWidget } from "../../../packages/widget/build.ts";
import { startTestApi, type TestApi } from "../api-server.ts";
import { createServerApp } from "../../../server/server-app.ts";

export interface Stack {
  api: TestApi;
  /** Origin serving /widget/v1/* and /api/v1/* (the app's host). */
  widgetOrigin: string;
  scriptUrl: string;
  pages: PageServer;
  close(): Promise<void>;
}

let built: Promise<unknown> | undefined;

export async function startStack(): Promise<Stack> {
  built ??= buildWidget();
  await built;
  // A socket: the suites check that closing the stack leaves nothing listening (suite-setup.test.ts).
  const api = await startTestApi({ dialect: "sqlite", transport: "socket" });
  // The browser's clock is the real one; the order context's purchased_at must not be in the API's future.
  api.clock.now = Date.now();
  const host = await listen(createServerApp({ api: api.api }).fetch);
  const pages = await startPageServer();
  return {
    api,
    widgetOrigin: host.origin,
    scriptUrl: `${host.origin}/widget/v1/service-widget.js`,
    pages,
    async close() {
      await Promise.all([host.close(), pages.close(), api.close()]);
    },
  };
}

/** A node server on loopback for a fetch handler. */
export async function listen(fetch: (request: Request, env?: unknown) => Response | Promise<Response>) {
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        (server as unknown as http.Server).closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface PageServer {
  origin: string;
  /** Serves `html` at `path` with extra response headers (e.g. Content-Security-Policy). */
  set(path: string, html: string, headers?: Record<string, string>): string;
  close(): Promise<void>;
}

async function startPageServer(): Promise<PageServer> {
  const pages = new Map<string, { html: string; headers: Record<string, string> }>();
  const server = http.createServer((request, response) => {
    const path = new URL(request.url!, "http://x").pathname;
    if (path === "/favicon.ico") return response.writeHead(204).end();
    const page = pages.get(path);
    if (!page) return response.writeHead(404).end();
    response
      .writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", ...page.headers })
      .end(page.html);
  });
  server.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    set(path, html, headers = {}) {
      pages.set(path, { html, headers });
      return origin + path;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The attributes of a <service-widget> for the stack's test merchant. */
export function widgetAttributes(stack: Stack, extra: Record<string, string> = {}): Record<string, string> {
  return {
    "publishable-key": stack.api.merchant.publishableKey,
    "program-id": stack.api.merchant.programId,
    "amount-cents": "12999",
    currency: "USD",
    "order-id": `order-${crypto.randomUUID()}`,
    ...extra,
  };
}

export const element = (attributes: Record<string, string>) =>
  `<service-widget ${Object.entries(attributes)
    .map(([name, value]) => (value === "" ? name : `${name}="${value}"`))
    .join(" ")}></service-widget>`;

/** A checkout page: heading, the widget, then content below it (which would move if the widget shifted layout). */
export function checkoutPage(options: {
  widget?: string;
  script?: string;
  head?: string;
  body?: string;
  scriptFirst?: boolean;
}): string {
  const script = options.script ?? "";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Checkout</title>${options.head ?? ""}</head><body>
<h1>Checkout</h1>
${options.scriptFirst ? script : ""}
<div id="slot">${options.widget ?? ""}</div>
<p id="below">Order total $129.99. <button type="button" id="pay">Pay now</button></p>
${options.scriptFirst ? "" : script}
${options.body ?? ""}
</body></html>`;
}
