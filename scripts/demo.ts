// npm run demo: migrate the embedded SQLite database, seed the test-mode demo merchant, start the API and print a
// copy-paste quote → confirm walkthrough. Nothing else to start.
import path from "node:path";
import { serve } from "@hono/node-server";
import {
  API_BASE_PATH,
  createRuntime,
  createServerApp,
  DEMO_PATH,
  ensureDemoMerchant,
  loadConfig,
  migrate,
} from "../server/index.ts";
import { buildWidget } from "../packages/widget/build.ts";

// Local demo: test-mode webhooks may go to a receiver on this machine (unless WEBHOOK_ALLOW_PRIVATE_URLS=off is set).
const config = loadConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: "on", ...process.env, DEMO: "on" });
await migrate(config.DATABASE_URL);
const widget = await buildWidget();
const runtime = createRuntime(config);
const demo = await ensureDemoMerchant(runtime.db, runtime.services, config.DATA_DIR, config.DATABASE_URL);
runtime.api.startBackgroundJobs();

const server = serve(
  {
    fetch: createServerApp({ api: runtime.api, demoKeys: async () => demo }).fetch,
    hostname: config.HOST,
    port: config.PORT,
  },
  (info) => {
    const origin = `http://${info.address}:${info.port}`;
    console.log(`Storefront demo: ${origin}${DEMO_PATH}   (a checkout page with <service-widget>: opt in, get a reference number)
Widget script:   ${origin}/widget/v1/service-widget.js   (${widget.bytes} bytes, integrity ${widget.integrity})`);
    console.log(walkthrough(`${origin}${API_BASE_PATH}`, demo));
  },
);

function walkthrough(
  base: string,
  keys: { merchantId: string; programId: string; publishableKey: string; secretKey: string },
) {
  const mailDir = path.join(config.DATA_DIR, "mail");
  return `
Purchase Protection API (demo, test mode) on ${base}

  merchant         ${keys.merchantId}
  program          ${keys.programId}
  publishable key  ${keys.publishableKey}   (browser: quote, confirm, decline)
  secret key       ${keys.secretKey}   (server: everything else)

1) Quote an offer (the single-use token comes back in the X-Service-Quote-Token header):

ORDER_ID=order-$(date +%s)
curl -s -D /tmp/quote.headers ${base}/offers/quote \\
  -H 'Authorization: Bearer ${keys.publishableKey}' \\
  -H "Idempotency-Key: $(uuidgen 2>/dev/null || cat /proc/sys/kernel/random/uuid)" \\
  -H 'Content-Type: application/json' \\
  -d '{"order_amount_cents": 12999, "order_id": "'$ORDER_ID'", "protection_program_id": "${keys.programId}", "customer_email": "buyer@example.com"}' | tee /tmp/quote.json

2) Confirm it (binds the order; returns the CLM-… reference number):

QUOTE_ID=$(sed -E 's/.*"quoteId":"([^"]+)".*/\\1/' /tmp/quote.json)
QUOTE_TOKEN=$(grep -i '^x-service-quote-token:' /tmp/quote.headers | cut -d' ' -f2 | tr -d '\\r')
curl -s ${base}/offers/confirm \\
  -H 'Authorization: Bearer ${keys.publishableKey}' \\
  -H "Idempotency-Key: $(uuidgen 2>/dev/null || cat /proc/sys/kernel/random/uuid)" \\
  -H 'Content-Type: application/json' \\
  -d '{"quoteId": "'$QUOTE_ID'", "quoteToken": "'$QUOTE_TOKEN'", "order_context": {"schema_version": "2026-01-01", "order": {"id": "'$ORDER_ID'", "purchased_at": "'$(date -u +%Y-%m-%dT%H:%M:%SZ)'", "currency": "USD", "covered_amount_cents": 12999}, "participants": {"mode": "unnamed"}}}'

3) See it as the merchant (the buyer's welcome e-mail is a file in ${mailDir}/; set SMTP_URL to send it):

curl -s ${base}/purchases -H 'Authorization: Bearer ${keys.secretKey}'

OpenAPI document: ${base}/openapi.json   ·   Ctrl-C stops the server.
`;
}

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    server.close(async () => {
      await runtime.close();
      process.exit(0);
    });
    (server as unknown as { closeIdleConnections(): void }).closeIdleConnections();
  });
}
