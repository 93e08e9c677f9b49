// GET /demo: a sample storefront checkout page with <service-widget> on it (test mode, the demo merchant's
// publishable key and program). Served with a strict Content-Security-Policy, as a merchant's page could be:
// the widget needs only script-src/connect-src for this host and an inline style-src.
import { randomBytes, randomUUID } from "node:crypto";
import { WIDGET_SCRIPT_PATH } from "./widget-assets.ts";
import { ensureDemoMerchant } from "./demo-merchant.ts";
import type { Runtime } from "./runtime.ts";

export const DEMO_PATH = "/demo";

export interface DemoKeys {
  publishableKey: string;
  programId: string;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function demoPageHtml(keys: DemoKeys, nonce: string, orderId = `demo-${randomUUID()}`): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Demo Store · Checkout</title><link rel="icon" href="data:,">
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:560px;margin:40px auto;padding:0 20px;color:#1b1f24}
.line{display:flex;justify-content:space-between;border-bottom:1px solid #e4e7eb;padding:8px 0}
pre{background:#f6f8fa;padding:12px;border-radius:6px;font-size:12px;white-space:pre-wrap}
</style>
</head>
<body>
<h1>Checkout</h1>
<p>Demo Store (test mode). Order <code>${escape(orderId)}</code>.</p>
<div class="line"><span>Trail running shoes</span><span>$129.99</span></div>
<div class="line"><strong>Total</strong><strong>$129.99</strong></div>
<service-widget publishable-key="${escape(keys.publishableKey)}" program-id="${escape(keys.programId)}"
  amount-cents="12999" currency="USD" order-id="${escape(orderId)}" mode="order"></service-widget>
<p>Tick the box to protect this order: the widget confirms it and shows the reference number.</p>
<h2>Widget events</h2>
<pre id="events" aria-live="polite"></pre>
<script nonce="${nonce}">
for (const name of ["ready", "offer", "accepted", "declined", "unavailable"]) {
  document.addEventListener("service-widget:" + name, (event) => {
    document.getElementById("events").textContent += name + " " + JSON.stringify(event.detail) + "\\n";
  });
}
</script>
<script src="${WIDGET_SCRIPT_PATH}" async></script>
</body>
</html>
`;
}

/** The /demo response, or undefined for any other path. `keys` seeds (or finds) the demo merchant. */
export async function demoPageResponse(request: Request, keys: () => Promise<DemoKeys>): Promise<Response | undefined> {
  if (new URL(request.url).pathname !== DEMO_PATH || (request.method !== "GET" && request.method !== "HEAD"))
    return undefined;
  const nonce = randomBytes(16).toString("base64");
  const html = demoPageHtml(await keys(), nonce);
  return new Response(request.method === "HEAD" ? null : html, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy": `default-src 'none'; script-src 'self' 'nonce-${nonce}'; connect-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'self'`,
    },
  });
}

const seeded = new WeakMap<object, Promise<DemoKeys>>();

/** The demo merchant of this runtime's database, created on first use (test mode only; see server/demo-merchant.ts). */
export function demoKeysFor(runtime: Runtime): () => Promise<DemoKeys> {
  return () => {
    let keys = seeded.get(runtime);
    if (!keys) {
      keys = ensureDemoMerchant(runtime.db, runtime.services, runtime.config.DATA_DIR, runtime.config.DATABASE_URL);
      keys.catch(() => seeded.delete(runtime));
      seeded.set(runtime, keys);
    }
    return keys;
  };
}
