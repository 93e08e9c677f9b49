// `npm run bench:shopify`: orders/create end to end, as Shopify would send them — over HTTP to the app's webhook
// route in its own process: HMAC check (authenticate.webhook), receipt + job, the job's unit of work (headless quote
// and confirm with the order's row and follow-up jobs in one transaction: server/core/shopify.ts), the reference
// write-back and protection-line jobs (they run against a fake Admin API in the same process, so their cost is
// included). Every order is new; a share of them is placed without protection, and Shopify's delivery filter
// (app/shopify/webhook-filter.ts ORDERS_CREATE_FILTER, applied here as Shopify applies it) keeps those from the app:
// the run prints how many deliveries it saved. SQLite file (like `npm run demo`) by default, or PostgreSQL.
// Targets (issue 29): >= 1,000 orders/s on SQLite, >= 400/s on PostgreSQL, p99 well under Shopify's 5 s.
//
//   --postgres              or BENCH_DIALECT=postgres: a fresh database on 127.0.0.1:5432, dropped afterwards
//   BENCH_SECONDS=10        seconds of the measured run (after a 2 s warm-up)
//   BENCH_CONNECTIONS=32    concurrent deliveries
//   BENCH_UNPROTECTED=0.6   share of the orders placed without protection (no line, no accepted opt-in)
//   BENCH_FILTER=off        deliver every order, as without the subscription's filter (to compare the app's cost)
//   BENCH_APP_NODE_ARGS     extra node arguments for the app process (e.g. --cpu-prof --cpu-prof-dir=bench/results)
//
// Results are printed and written to bench/results/shopify-orders-<timestamp>.json, with the app process's CPU per
// order (Linux): on a shared machine the rate moves with the other processes' load, the CPU per order much less.
import { fork } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { createTestDatabase, type Dialect } from "../test/support/databases.ts";
import { orderPayload, webhookHeaders } from "../test/support/shopify.ts";
import type { AppServerReady } from "../test/support/shopify-app-server.ts";
import { formatDecimalAmount } from "@purchase-protection/contract";
import { ORDERS_CREATE_FILTER, PROTECTION_SKU, webhookFilter } from "../app/shopify/webhook-filter.ts";

const SHOP = "bench-shop.myshopify.com";
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const DIALECT: Dialect =
  process.env.BENCH_DIALECT === "postgres" || process.argv.includes("--postgres") ? "postgres" : "sqlite";
const TARGET_PER_SECOND = DIALECT === "postgres" ? 400 : 1_000;
const UNPROTECTED_SHARE = Number(process.env.BENCH_UNPROTECTED ?? 0.6);
const FILTERED = process.env.BENCH_FILTER !== "off";

async function main() {
  const database = await createTestDatabase(DIALECT);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-bench-shopify-"));
  const child = fork(
    path.join(import.meta.dirname, "..", "test", "support", "shopify-app-server.ts"),
    [SHOP, database.url, dataDir],
    {
      stdio: "inherit",
      execArgv: [...process.execArgv, ...(process.env.BENCH_APP_NODE_ARGS?.split(" ").filter(Boolean) ?? [])],
    },
  );
  const [ready] = (await once(child, "message")) as [AppServerReady];
  const tier = ready.tiers.find((candidate) => candidate.priceCents >= 300)!;
  const url = `http://127.0.0.1:${ready.port}/webhooks/orders/create`;
  const protectionLine = {
    productId: ready.productId,
    variantId: tier.variantId,
    sku: PROTECTION_SKU,
    price: formatDecimalAmount(tier.priceCents, "USD"),
  };
  /** Orders placed, and those Shopify delivered (all of them with BENCH_FILTER=off). */
  const placed = { orders: 0, delivered: 0 };
  const placeOrder = () => {
    placed.orders++;
    return Math.random() < UNPROTECTED_SHARE
      ? orderPayload({ lines: [{ productId: 111, price: "100.00" }], attributes: { _protection: "declined" } })
      : orderPayload({
          lines: [{ productId: 111, price: "100.00" }, protectionLine],
          attributes: { _protection: "accepted", _protection_quote: "quo_from_cart" },
        });
  };
  const delivered = webhookFilter(ORDERS_CREATE_FILTER);
  /** The next order Shopify delivers: the ones its filter holds back are counted and never sent. */
  const order = () => {
    let next = placeOrder();
    while (FILTERED && !delivered(next)) next = placeOrder();
    placed.delivered++;
    return JSON.stringify(next);
  };
  const run = (seconds: number) =>
    autocannon({
      url,
      method: "POST",
      connections: CONNECTIONS,
      duration: seconds,
      requests: [
        {
          setupRequest: (request) => {
            const body = order();
            return { ...request, body, headers: webhookHeaders({ topic: "orders/create", shop: SHOP }, body) };
          },
        },
      ],
    });
  const count = async (sql: string) => Number((await database.db.get<{ n: number }>(sql))!.n);
  // Deliveries cut off at the end of a run may still be working: count once the queue is empty.
  const drained = async () => {
    const deadline = Date.now() + 30_000;
    let pending = Infinity;
    while (
      Date.now() < deadline &&
      (pending = await count("SELECT COUNT(*) AS n FROM shopify_jobs WHERE status = 'pending'")) > 0
    ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return pending;
  };
  await run(2);
  await drained();
  const plansBefore = await count("SELECT COUNT(*) AS n FROM plans");
  const placedBefore = { ...placed };
  const cpuBefore = cpuSecondsOf(child.pid!);
  const result = await run(SECONDS);
  const pending = await drained();
  const cpuAfter = cpuSecondsOf(child.pid!);
  const plans = await count("SELECT COUNT(*) AS n FROM plans");
  const receipts = await count("SELECT COUNT(*) AS n FROM shopify_webhook_receipts");
  child.kill("SIGTERM");
  await once(child, "exit");

  const ordersPlaced = placed.orders - placedBefore.orders;
  const deliveries = placed.delivered - placedBefore.delivered;
  const summary = {
    ordersPerSecond: Math.round(result.requests.average),
    // Orders placed in the shop per second that the app keeps up with: deliveries and the ones the filter held back.
    placedPerSecond: Math.round((result.requests.average * ordersPlaced) / Math.max(deliveries, 1)),
    unprotectedShare: UNPROTECTED_SHARE,
    filter: FILTERED ? ORDERS_CREATE_FILTER : null,
    ordersPlaced,
    deliveries,
    deliveriesSavedByFilter: ordersPlaced - deliveries,
    // The app's own CPU per order over the measured run and its queue's drain: what the shared machine's other
    // processes do not change much, unlike the rate.
    appCpuMsPerOrder:
      cpuBefore === undefined || cpuAfter === undefined
        ? null
        : Math.round(((cpuAfter - cpuBefore) * 1000 * 100) / (plans - plansBefore)) / 100,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
    plansConfirmed: plans,
    webhooksReceived: receipts,
    writeBacksPendingAfter30s: pending,
    dialect: DIALECT,
    connections: CONNECTIONS,
    seconds: SECONDS,
    cores: os.cpus().length,
    loadAverage: os.loadavg()[0],
  };
  console.log(`orders/create end to end (${DIALECT}, ${CONNECTIONS} connections, ${SECONDS} s):`);
  console.log(
    `  ${summary.ordersPerSecond} orders/s  p50 ${summary.p50Ms} ms  p99 ${summary.p99Ms} ms  max ${summary.maxMs} ms  non-2xx ${summary.non2xx}  errors ${summary.errors}`,
  );
  console.log(
    `  orders placed ${ordersPlaced} (${Math.round(UNPROTECTED_SHARE * 100)} % unprotected), delivered ${deliveries}: ` +
      (FILTERED
        ? `the filter saved ${summary.deliveriesSavedByFilter} deliveries (${Math.round((100 * summary.deliveriesSavedByFilter) / Math.max(ordersPlaced, 1))} %)`
        : "no filter (BENCH_FILTER=off)") +
      `; ${summary.placedPerSecond} placed orders/s kept up with`,
  );
  console.log(`  plans ${plans}, webhooks ${receipts}; write-backs still pending 30 s later: ${pending}`);
  console.log(`  app CPU per order: ${summary.appCpuMsPerOrder ?? "unknown"} ms; load average ${summary.loadAverage}`);
  console.log(
    `  target >= ${TARGET_PER_SECOND}/s: ${summary.ordersPerSecond >= TARGET_PER_SECOND ? "met" : "NOT met"}`,
  );
  const resultsDir = path.join(import.meta.dirname, "results");
  fs.mkdirSync(resultsDir, { recursive: true });
  fs.writeFileSync(
    path.join(resultsDir, `shopify-orders-${new Date().toISOString().replace(/[:.]/g, "-")}.json`),
    JSON.stringify(summary, null, 2),
  );
  await database.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

await main();

/** The process's CPU time (user + system) in seconds, from /proc (Linux); undefined elsewhere. */
function cpuSecondsOf(pid: number): number | undefined {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th, in clock ticks (100/s).
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}
