// The Remix app (app/) built and served by Vite: `npm run dev` (the Shopify CLI's `shopify app dev`, which starts
// remix vite:dev as shopify.web.toml says), `npm run build` (remix vite:build), `npm start` (scripts/web-server.ts over
// build/). server/ is bundled into the server build from source; its relative imports carry the .ts extension, which
// Vite resolves as is.
import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig, type UserConfig } from "vite";

// The Shopify CLI may pass the tunnel URL as HOST; the app reads it as SHOPIFY_APP_URL, and HOST must not reach the
// protection API's config (where it is the interface to bind to).
if (process.env.HOST && (!process.env.SHOPIFY_APP_URL || process.env.SHOPIFY_APP_URL === process.env.HOST)) {
  process.env.SHOPIFY_APP_URL = process.env.HOST;
  delete process.env.HOST;
}

const host = hostnameOf(process.env.SHOPIFY_APP_URL);
// Through a tunnel the browser reaches HMR over wss on 443; locally over plain ws.
const hmr =
  host === "localhost"
    ? { protocol: "ws", host: "localhost", port: 64999, clientPort: 64999 }
    : { protocol: "wss", host, port: Number(process.env.FRONTEND_PORT) || 8002, clientPort: 443 };

export default defineConfig({
  server: {
    allowedHosts: [host],
    cors: { preflightContinue: true },
    port: Number(process.env.PORT || 3000),
    hmr,
  },
  plugins: [
    remix({
      ignoredRouteFiles: ["**/.*", "**/*.test.*"],
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_lazyRouteDiscovery: true,
        // Off, as in Shopify's Remix template for @shopify/shopify-app-remix.
        v3_singleFetch: false,
      },
    }),
  ],
  build: { assetsInlineLimit: 0 },
}) satisfies UserConfig;

function hostnameOf(url: string | undefined): string {
  try {
    return new URL(url || "http://localhost").hostname;
  } catch {
    return "localhost";
  }
}
