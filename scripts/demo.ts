// npm run demo: the whole web app (scripts/web-server.ts, as `npm start` runs it) on the embedded SQLite database, in
// demo mode (DEMO=on: the /demo storefront page, the test-mode demo merchant, webhooks to this machine). Builds the app
// first when build/ is stale, migrates and seeds the demo merchant with a protected sample order and a claim on it and
// the claims team's admin (`seed:demo --all`, in a process of its own: server/demo-seed.ts says why), then prints one
// block: where to look (with a sign-in link for the claims console), the keys, and a copy-paste quote → confirm
// walkthrough. Nothing else to start.
import { spawn } from "node:child_process";
import path from "node:path";
import pino from "pino";
import { loadConfig } from "../server/config.ts";
import type { DemoSeed } from "../server/demo-seed.ts";
import { buildWidget } from "../packages/widget/build.ts";
import { ensureAppBuilt } from "./app-build.ts";
import { startWebServer } from "./web-server.ts";

// The app reads its configuration from the environment. Test-mode webhooks may go to a receiver on this machine
// (unless WEBHOOK_ALLOW_PRIVATE_URLS=off is set); request logs stay out of the way of the printed block.
Object.assign(process.env, { WEBHOOK_ALLOW_PRIVATE_URLS: "on", LOG_LEVEL: "warn", ...process.env, DEMO: "on" });
const config = loadConfig();

await ensureAppBuilt((reason) => console.log(`Building the app (${reason}); the first build takes a minute…`));
await buildWidget();
const { merchant, sample, console: opsConsole, dashboard } = await seedDemo();

const { origin, parts } = await startWebServer(config, pino({ level: config.LOG_LEVEL, base: { service: "web" } }));
console.log(`
Purchase Protection demo (test mode): the web app on ${origin}

  Storefront demo: ${origin}${parts.DEMO_PATH}   (a checkout page with <service-widget>: opt in, get a reference number)
  Sample order:    ${sample.referenceNumber}, bought by ${sample.email}: protected, with a claim filed on it
  Buyer portal:    ${origin}/portal?reference=${sample.referenceNumber}   (sign in with ${sample.email}: coverage,
                   free-look cancellation, claims with photos; the rulebook is ${origin}/portal/terms)
  Dashboard:       ${origin}/dashboard/sign-in/${dashboard.token}
                   (signs in ${dashboard.email}, the demo merchant's owner, once, until
                   ${new Date(dashboard.expiresAt).toISOString()}: keys, Go live, team, audit log; Settlements: the
                   running balance and two closed weekly statements with their CSV. New merchants sign up at
                   ${origin}/dashboard/sign-up; the links that open their accounts arrive in ${path.join(config.DATA_DIR, "mail")}/)
  Shopify admin:   ${origin}/app   (the embedded app; says what is missing until Shopify is configured)
  Claims console:  ${origin}/ops/sign-in/${opsConsole.token}
                   (signs in ${opsConsole.email}, an admin, once; a claim waits in the queue at ${origin}/ops.
                   This demo link lasts until ${new Date(opsConsole.expiresAt).toISOString()}; the console's own links
                   last 15 minutes: ask for one at ${origin}/ops/sign-in, it arrives in ${path.join(config.DATA_DIR, "mail")}/)
${walkthrough(`${origin}${parts.API_BASE_PATH}`, merchant, sample)}`);

/**
 * `seed:demo --all --json` under this Node, with this process's environment: what it seeded, or the exit it died of.
 * A SIGTERM or SIGINT meanwhile goes to the seeding too (a supervisor's or npm's reaches only this process), and this
 * process then dies of it once the seeding has stopped: no seeding goes on alone after the demo.
 */
async function seedDemo(): Promise<DemoSeed> {
  // Listening before the seeding starts: a signal in between would end this process alone.
  let stoppedBy: NodeJS.Signals | undefined;
  const stop = (signal: NodeJS.Signals) => {
    stoppedBy = signal;
    seeding.kill(signal);
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, stop);
  const seeding = spawn(process.execPath, [path.join(import.meta.dirname, "seed-demo.ts"), "--all", "--json"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let printed = "";
  seeding.stdout.setEncoding("utf8").on("data", (chunk: string) => (printed += chunk));
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) =>
    seeding.once("error", reject).once("close", (...exit) => resolve(exit)),
  );
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.off(signal, stop);
  if (stoppedBy) {
    // Its handler is gone: the signal's default action ends this process, as a shell reports it.
    process.kill(process.pid, stoppedBy);
    await new Promise(() => {});
  }
  if (code !== 0) {
    console.error(`Seeding the demo failed (${signal ?? `exit ${code}`}).`);
    process.exit(1);
  }
  return JSON.parse(printed.trim().split("\n").at(-1)!) as DemoSeed;
}

function walkthrough(
  base: string,
  keys: { merchantId: string; programId: string; publishableKey: string; secretKey: string },
  sample: DemoSeed["sample"],
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
curl -s '${base}/merchant/claims?reference_number=${sample.referenceNumber}' -H 'Authorization: Bearer ${keys.secretKey}'

OpenAPI document: ${base}/openapi.json   ·   Ctrl-C stops the server.
`;
}
