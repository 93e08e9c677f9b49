// `npm run bench:metrics`: GET /merchants/{id}/metrics (docs/api.md "Analytics") over a year of a busy merchant, on
// SQLite and PostgreSQL. Seeds 300,000 offers (a third confirmed: 100,000 plans), 3,000 claims with their decisions
// and payments, spread over the last 365 days in USD and EUR, then times the metrics call (the report and its
// analytics with the previous period, by day) for the last 30 and 365 days: BENCH_RUNS runs each (default 7) after
// one to warm up, median and slowest printed, with the CPU time this process spent (all of SQLite's work; on
// PostgreSQL only the client's). A script, not a test: figures depend on the machine.
import { createTestDatabase } from "../test/support/databases.ts";
import { createTestMerchant } from "../server/domain/merchants.ts";
import { cryptoRandom } from "../server/domain/ids.ts";
import { merchantMetricsWithAnalytics } from "../server/domain/metrics.ts";
import type { Database, Queryable, SqlValue } from "../server/store/database.ts";
import type { Dialect } from "../test/support/databases.ts";
import { median } from "./stats.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const OFFERS = 300_000;
const CLAIMS = 3_000;
const DAY = 24 * 60 * 60 * 1000;
const BATCH = 500;

/** A small deterministic generator (mulberry32): the same data set on both databases. */
function generator(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

async function insertRows(db: Queryable, table: string, columns: string[], rows: SqlValue[][]) {
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = rows.slice(i, i + BATCH);
    const tuple = `(${columns.map(() => "?").join(", ")})`;
    await db.run(
      `INSERT INTO ${table} (${columns.join(", ")}) VALUES ${batch.map(() => tuple).join(", ")}`,
      batch.flat(),
    );
  }
}

async function seed(db: Database, merchantId: string, programId: string, now: number) {
  const random = generator(32);
  const quotes: SqlValue[][] = [];
  const plans: SqlValue[][] = [];
  const planMeta: { id: string; createdAt: number; currency: string }[] = [];
  for (let i = 0; i < OFFERS; i++) {
    const createdAt = now - Math.floor(random() * 365 * DAY);
    const currency = random() < 0.8 ? "USD" : "EUR";
    const amount = 2_000 + Math.floor(random() * 48_000);
    const fee = Math.max(100, Math.round(amount * 0.03));
    const roll = random();
    const status = i % 3 === 0 ? "confirmed" : roll < 0.4 ? "declined" : "open";
    const id = `qt_bench${i}`;
    quotes.push([
      id,
      merchantId,
      "test",
      programId,
      `order-${i}`,
      currency,
      amount,
      fee,
      amount,
      status,
      "0".repeat(64),
      createdAt,
      createdAt + 30 * 60_000,
      status === "open" ? null : createdAt + 60_000,
      "publishable",
    ]);
    if (status !== "confirmed") continue;
    const planId = `pln_bench${i}`;
    const planStatus = roll < 0.95 ? "active" : roll < 0.98 ? "voided" : "cancelled";
    plans.push([
      planId,
      merchantId,
      "test",
      id,
      `order-${i}`,
      `BENCH-${i}`,
      planStatus,
      currency,
      fee,
      amount,
      createdAt,
      createdAt + 2 * DAY,
      "{}",
      "{}",
      createdAt,
    ]);
    planMeta.push({ id: planId, createdAt, currency });
  }
  const claims: SqlValue[][] = [];
  const reasons = ["damaged_in_transit", "lost_in_transit", "arrived_defective", "wrong_item_delivered"];
  for (let i = 0; i < CLAIMS; i++) {
    const plan = planMeta[Math.floor(random() * planMeta.length)];
    const createdAt = Math.min(now - 1, plan.createdAt + Math.floor(random() * 20 * DAY));
    const roll = random();
    const status = roll < 0.65 ? "paid" : roll < 0.8 ? "denied" : roll < 0.9 ? "approved" : "submitted";
    const decidedAt = status === "submitted" ? null : Math.min(now - 1, createdAt + Math.floor(random() * 5 * DAY));
    const paidAt = status === "paid" ? Math.min(now - 1, decidedAt! + DAY) : null;
    const amount = 1_000 + Math.floor(random() * 20_000);
    claims.push([
      `clm_bench${i}`,
      merchantId,
      "test",
      plan.id,
      i + 1, // unique per plan: a plan's numbers need not start at 1 here
      reasons[i % reasons.length],
      status,
      amount,
      plan.currency,
      decidedAt,
      decidedAt === null ? null : "staff:stf_bench",
      status === "paid" ? amount : 0,
      paidAt,
      createdAt,
      createdAt,
    ]);
  }
  await db.transaction(async (tx) => {
    await insertRows(
      tx,
      "quotes",
      [
        "id",
        "merchant_id",
        "mode",
        "program_id",
        "order_id",
        "currency",
        "order_amount_cents",
        "fee_cents",
        "covered_amount_cents",
        "status",
        "token_hash",
        "created_at",
        "expires_at",
        "decided_at",
        "key_kind",
      ],
      quotes,
    );
    await insertRows(
      tx,
      "plans",
      [
        "id",
        "merchant_id",
        "mode",
        "quote_id",
        "order_id",
        "reference_number",
        "status",
        "currency",
        "fee_cents",
        "covered_amount_cents",
        "purchased_at",
        "free_look_ends_at",
        "order_context",
        "consent",
        "created_at",
      ],
      plans,
    );
    await insertRows(
      tx,
      "claims",
      [
        "id",
        "merchant_id",
        "mode",
        "plan_id",
        "number",
        "reason",
        "status",
        "amount_cents",
        "currency",
        "decided_at",
        "decided_by",
        "paid_amount_cents",
        "resolved_at",
        "created_at",
        "updated_at",
      ],
      claims,
    );
  });
  // As autovacuum would have left a year of rows: statistics, and the visibility map index-only scans need.
  if (db.dialect === "postgres") await db.run("VACUUM ANALYZE");
  return { quotes: quotes.length, plans: plans.length, claims: claims.length };
}

async function bench(dialect: Dialect) {
  const database = await createTestDatabase(dialect);
  try {
    const now = Date.now();
    const services = {
      clock: () => now,
      random: cryptoRandom,
      settings: { companyName: "Bench", portalUrl: "https://portal.example.test" },
    };
    const merchant = await database.db.transaction((tx) => createTestMerchant(tx, services, { name: "Busy Store" }));
    const started = performance.now();
    const counts = await seed(database.db, merchant.merchantId, merchant.programId, now);
    console.log(
      `${dialect}: seeded ${counts.quotes} offers, ${counts.plans} plans, ${counts.claims} claims in ${Math.round((performance.now() - started) / 1000)} s`,
    );
    const endOfToday = (Math.floor(now / DAY) + 1) * DAY;
    for (const days of [30, 365]) {
      const call = () =>
        merchantMetricsWithAnalytics(
          database.db,
          { merchantId: merchant.merchantId, mode: "test" },
          { fromMs: endOfToday - days * DAY, toMs: endOfToday },
          now,
          "day",
        );
      const report = await call(); // warm-up
      const times: number[] = [];
      const cpu: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const start = performance.now();
        const cpuStart = process.cpuUsage();
        await call();
        times.push(performance.now() - start);
        const used = process.cpuUsage(cpuStart);
        cpu.push((used.user + used.system) / 1000);
      }
      const offers = report.analytics.currencies.reduce((sum, c) => sum + c.current.offersShown, 0);
      console.log(
        `${dialect.padEnd(8)} ${String(days).padStart(3)} days (${offers} offers): median ${median(times).toFixed(1)} ms, slowest ${Math.max(...times).toFixed(1)} ms; this process's CPU: median ${median(cpu).toFixed(1)} ms`,
      );
    }
  } finally {
    await database.drop();
  }
}

for (const dialect of ["sqlite", "postgres"] as const) await bench(dialect);
