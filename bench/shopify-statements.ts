// Statements and transactions per Shopify order: the app's real wiring in process (test/support/shopify-app.ts), the
// database drivers instrumented, orders/create deliveries one after another, then the outbox followed once (the plans'
// write-backs and Flow triggers it queues: app/shopify/order-states.server.ts), until every job has run; the webhook
// and e-mail workers off (they are not the order's own work). Prints the statements, the transactions that write (an
// explicit transaction or a write outside one) and the reads outside one, per order, then each statement's count.
//
//   node bench/shopify-statements.ts [sqlite|postgres] [orders=50]
import { createRequire } from "node:module";
import { startShopifyApp } from "../test/support/shopify-app.ts";
import { orderPayload } from "../test/support/shopify.ts";

const require = createRequire(import.meta.url);
const dialect = process.argv[2] === "postgres" ? "postgres" : "sqlite";
const ORDERS = Number(process.argv[3] ?? 50);
const SHOP = "statements.myshopify.com";
/** The harness's own poll for an empty queue. */
const HARNESS = /^SELECT COUNT\(\*\) AS n FROM shopify_jobs/;

const counts = { statements: 0, writingTransactions: 0, readsOutside: 0, byText: new Map<string, number>() };
let counting = false;

function count(sql: string, inTransaction: boolean): void {
  if (!counting || HARNESS.test(sql)) return;
  counts.statements++;
  const text = sql.replace(/\s+/g, " ").slice(0, 100);
  counts.byText.set(text, (counts.byText.get(text) ?? 0) + 1);
  if (inTransaction) return;
  if (/^\s*SELECT/i.test(sql)) counts.readsOutside++;
  else counts.writingTransactions++;
}

if (dialect === "postgres") {
  const pg = require("pg");
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: { inTransaction?: boolean }, config: unknown, ...rest: unknown[]) {
    const sql = typeof config === "string" ? config : (config as { text: string }).text;
    if (/^BEGIN/i.test(sql)) {
      this.inTransaction = true;
      if (counting) counts.writingTransactions++;
    } else if (/^(COMMIT|ROLLBACK)/i.test(sql)) this.inTransaction = false;
    else count(sql, this.inTransaction === true);
    return query.call(this, config, ...rest);
  };
} else {
  const Database = require("better-sqlite3");
  const probe = new Database(":memory:");
  const Statement = Object.getPrototypeOf(probe.prepare("SELECT 1"));
  probe.close();
  for (const method of ["run", "get", "all", "iterate"]) {
    const original = Statement[method];
    Statement[method] = function (this: { source: string; database: { inTransaction: boolean } }, ...args: unknown[]) {
      count(this.source, this.database.inTransaction);
      return original.apply(this, args);
    };
  }
  const exec = Database.prototype.exec;
  Database.prototype.exec = function (this: unknown, sql: string) {
    if (counting && /^BEGIN/i.test(sql)) counts.writingTransactions++;
    return exec.call(this, sql);
  };
}

const app = await startShopifyApp({
  dialect,
  shops: [SHOP],
  env: { WEBHOOK_WORKER: "off", EMAIL_WORKER: "off" },
});
await app.install(SHOP);
const installation = (await app.runtime().deps.installation(SHOP))!;
const tier = installation.tiers.find((candidate) => candidate.priceCents >= 300)!;
const deliverOrder = () =>
  app.deliver({
    topic: "orders/create",
    shop: SHOP,
    payload: orderPayload({
      lines: [
        { productId: 111, price: "100.00" },
        { productId: installation.productId!, variantId: tier.variantId, price: (tier.priceCents / 100).toFixed(2) },
      ],
      attributes: { _protection: "accepted", _protection_quote: "quo_from_cart" },
    }),
  });
const { createOrderEventsFollower } = await import("../app/shopify/order-states.server.ts");
const follower = createOrderEventsFollower(app.runtime().deps);
/** What the app's periodic task does: the outbox's new events become jobs, which run. */
async function followEvents(): Promise<void> {
  await follower.follow();
  await app.runtime().queue.runDue();
  await app.settled();
}
// Warm-up: the caches (the shop's session, the statements) as a running app has them.
for (let i = 0; i < 5; i++) await deliverOrder();
await app.settled();
await followEvents();
counting = true;
for (let i = 0; i < ORDERS; i++) await deliverOrder();
await app.settled();
await followEvents();
counting = false;

const perOrder = (n: number) => (n / ORDERS).toFixed(2);
console.log(
  `${dialect}: ${perOrder(counts.statements)} statements, ${perOrder(counts.writingTransactions)} transactions that write, ${perOrder(counts.readsOutside)} reads outside one, per order`,
);
for (const [text, n] of [...counts.byText].sort((a, b) => b[1] - a[1])) console.log(`  ${perOrder(n)}  ${text}`);
await app.close();
process.exit(0);
