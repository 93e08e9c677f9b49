// `npm run bench:rate-limits`: what the rate limiter adds to a request. Four copies of the API over one SQLite
// database — limits off, memory limiter, Redis limiter, and a floor (below) — answer the same quote requests
// in-process (fetch with a socket address, no HTTP noise), interleaved request by request so machine load hits all
// alike. Also the limiter alone (one quote decision: merchant, merchant + IP and edge keys) per backend.
// The floor ("round trip") decides in memory after one bare Redis PING: what any limiter that asks Redis once per
// request must add, so the Redis limiter's own share is its figure minus the floor's.
// Targets: memory adds ≤ 2 % to quote latency (issue 3); Redis adds ≤ 0.2 ms to the median, ≤ 1 ms to p99 (issue 18).
//
//   BENCH_ROUNDS=8        rounds; each round runs BENCH_BATCH quotes per variant
//   BENCH_BATCH=300
//   TEST_REDIS_URL        default redis://127.0.0.1:6379 (keys under a random prefix, deleted after)
//
// Results are printed and written to bench/results/rate-limits-<timestamp>.json.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pino from "pino";
import { createTestDatabase } from "../test/support/databases.ts";
import { createTestMerchant } from "../server/domain/merchants.ts";
import { cryptoRandom } from "../server/domain/ids.ts";
import type { Services } from "../server/domain/context.ts";
import { createProtectionApi } from "../server/api.ts";
import { createLimiter, type Limiter } from "../server/rate-limits/limiter.ts";
import { createMemoryStore } from "../server/rate-limits/memory-store.ts";
import { createRedisStore } from "../server/rate-limits/redis-store.ts";
import type { LimitStore } from "../server/rate-limits/store.ts";
import { RULES } from "../server/rate-limits/policies.ts";
import { TEST_REDIS_URL, deleteKeys, randomPrefix } from "../test/support/rate-limits.ts";
import { median, percentile } from "./stats.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const BATCH = Number(process.env.BENCH_BATCH ?? 300);
const MEMORY_TARGET = 0.02;
const REDIS_MEDIAN_TARGET_MS = 0.2;
const REDIS_P99_TARGET_MS = 1;
const logger = pino({ level: "silent" });
const services: Services = {
  clock: Date.now,
  random: cryptoRandom,
  settings: { companyName: "Bench", portalUrl: "https://portal.example.test" },
};
const prefix = randomPrefix();

const database = await createTestDatabase("sqlite");
const redisStore = createRedisStore({ url: TEST_REDIS_URL, prefix });
const memoryAfterPing = createMemoryStore();
/** The floor: one Redis round trip, then the memory store's decision. */
const roundTripStore: LimitStore = {
  async decide(keys, rates, now) {
    await redisStore.client.ping();
    return memoryAfterPing.decide(keys, rates, now);
  },
  states: (keys, now) => memoryAfterPing.states(keys, now),
  ping: () => redisStore.ping(),
  close: () => redisStore.close(),
};
const limiters: Record<string, Limiter | undefined> = {
  off: undefined,
  memory: createLimiter({ clock: Date.now, logger }),
  redis: createLimiter({ clock: Date.now, logger, stores: { primary: redisStore } }),
  "round trip": createLimiter({ clock: Date.now, logger, stores: { primary: roundTripStore } }),
};
const variants = await Promise.all(
  Object.entries(limiters).map(async ([name, limiter]) => {
    // One merchant per variant and per round keeps every run under the 5000/min merchant limit.
    const merchants = await Promise.all(
      Array.from({ length: ROUNDS + 1 }, (_, i) =>
        database.db.transaction((tx) => createTestMerchant(tx, services, { name: `${name} ${i}`, allowedOrigins: [] })),
      ),
    );
    const api = createProtectionApi({
      db: database.db,
      services,
      encryptionKey: randomBytes(32),
      logger,
      rateLimits: limiter && { limiter, trustProxy: 0 },
    });
    return { name, api, merchants, samples: [] as number[] };
  }),
);

let sequence = 0;
/** One quote through the whole API, from a fresh client address (so per-IP buckets never fill). */
async function quote(variant: (typeof variants)[number], round: number) {
  const merchant = variant.merchants[round];
  const n = ++sequence;
  const request = new Request("http://bench/api/v1/offers/quote", {
    method: "POST",
    headers: {
      Authorization: `Bearer ${merchant.publishableKey}`,
      "Content-Type": "application/json",
      "Idempotency-Key": `bench-${n}-${randomBytes(8).toString("hex")}`,
    },
    body: JSON.stringify({
      order_amount_cents: 12_999,
      order_id: `order-${n}`,
      protection_program_id: merchant.programId,
    }),
  });
  const socket = { remoteAddress: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` };
  const started = performance.now();
  const response = await variant.api.fetch(request, { incoming: { socket } });
  await response.arrayBuffer();
  const elapsed = performance.now() - started;
  if (response.status !== 200) throw new Error(`${variant.name}: quote answered ${response.status}`);
  return elapsed;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

// Warm-up (JIT, SQLite page cache, Redis connection and script load) on the spare merchant.
for (const variant of variants) for (let i = 0; i < 200; i++) await quote(variant, ROUNDS);
// Interleaved request by request, in rotating order, so garbage collection and SQLite checkpoints fall on all alike.
for (let round = 0; round < ROUNDS; round++) {
  for (let i = 0; i < BATCH; i++) {
    for (let k = 0; k < variants.length; k++) {
      const variant = variants[(i + k) % variants.length];
      variant.samples.push(await quote(variant, round));
    }
  }
}

/** The limiter alone: one quote decision (three keys) per call, sequentially, over 50 merchants and 1024 addresses. */
async function decisionCost(limiter: Limiter, count = 20_000) {
  const identity = (i: number) => ({ merchant: `mer_${i % 50}`, ip: `10.8.${(i >> 8) & 3}.${i & 255}` });
  for (let i = 0; i < 2_000; i++) await limiter.check(RULES.quote, identity(i));
  const started = performance.now();
  for (let i = 0; i < count; i++) await limiter.check(RULES.quote, identity(i));
  return ((performance.now() - started) / count) * 1000;
}
async function pingCost(count = 5_000) {
  const started = performance.now();
  for (let i = 0; i < count; i++) await redisStore.client.ping();
  return ((performance.now() - started) / count) * 1000;
}
const decisionUs = {
  memory: await decisionCost(limiters.memory!),
  redis: await decisionCost(limiters.redis!, 5_000),
  ping: await pingCost(),
};

const [off, memory, redis, roundTrip] = variants.map((v) => ({
  name: v.name,
  meanMs: mean(v.samples),
  medianMs: median(v.samples),
  p99Ms: percentile(v.samples, 0.99),
  requests: v.samples.length,
}));
const memoryAddedMs = memory.meanMs - off.meanMs;
const added = (v: typeof off) => ({
  meanMs: v.meanMs - off.meanMs,
  medianMs: v.medianMs - off.medianMs,
  p99Ms: v.p99Ms - off.p99Ms,
});
const redisAdded = added(redis);
const roundTripAdded = added(roundTrip);
const redisOk = redisAdded.medianMs <= REDIS_MEDIAN_TARGET_MS && redisAdded.p99Ms <= REDIS_P99_TARGET_MS;
const result = {
  at: new Date().toISOString(),
  cores: os.availableParallelism(),
  /** 1-minute load average at the end: Redis round trips need the Redis process scheduled, so load inflates them. */
  loadAverage: os.loadavg()[0],
  rounds: ROUNDS,
  batch: BATCH,
  quoteLatency: { off, memory, redis, roundTrip },
  memory: {
    addedMs: memoryAddedMs,
    ratio: memory.meanMs / off.meanMs,
    decisionUs: decisionUs.memory,
    decisionShareOfQuote: decisionUs.memory / 1000 / off.meanMs,
    target: `≤ ${MEMORY_TARGET * 100} %`,
  },
  redis: {
    added: redisAdded,
    /** What one bare Redis round trip in the same place adds: the floor of a Redis-backed limiter. */
    roundTripAdded,
    decisionUs: decisionUs.redis,
    pingUs: decisionUs.ping,
    target: `median ≤ ${REDIS_MEDIAN_TARGET_MS} ms, p99 ≤ ${REDIS_P99_TARGET_MS} ms`,
    met: redisOk,
  },
  fallbacks: limiters.redis!.fallbacks(),
};

const f = (x: number, digits = 3) => x.toFixed(digits);
console.log(
  `quote latency, in-process, ${ROUNDS} × ${BATCH} requests per variant (mean / median / p99 ms); ${result.cores} cores, load ${result.loadAverage.toFixed(1)}:`,
);
for (const v of [off, memory, redis, roundTrip])
  console.log(
    `  ${v.name.padEnd(10)} ${f(v.meanMs)} / ${f(v.medianMs)} / ${f(v.p99Ms)}   ratio to off ${f(v.meanMs / off.meanMs)}`,
  );
console.log(
  `limiter alone, one quote decision (3 keys): memory ${f(decisionUs.memory, 2)} µs, redis ${f(decisionUs.redis, 1)} µs (a bare PING: ${f(decisionUs.ping, 1)} µs)`,
);
console.log(
  `memory: adds ${f(memoryAddedMs)} ms = ${f((memoryAddedMs / off.meanMs) * 100, 2)} % of quote latency (decision alone ${f(result.memory.decisionShareOfQuote * 100, 2)} %; target ≤ 2 %) ${result.memory.decisionShareOfQuote <= MEMORY_TARGET && memoryAddedMs / off.meanMs <= MEMORY_TARGET ? "OK" : "over target"}`,
);
console.log(
  `redis:  adds median ${f(redisAdded.medianMs)} ms, p99 ${f(redisAdded.p99Ms)} ms, mean ${f(redisAdded.meanMs)} ms (target median ≤ ${REDIS_MEDIAN_TARGET_MS} ms, p99 ≤ ${REDIS_P99_TARGET_MS} ms) ${redisOk ? "OK" : "over target"}`,
);
console.log(
  `        of which one bare Redis round trip in the same place (the floor): median ${f(roundTripAdded.medianMs)} ms, p99 ${f(roundTripAdded.p99Ms)} ms`,
);
if (result.fallbacks > 0) console.log(`warning: ${result.fallbacks} Redis decisions fell back to memory`);

const resultsDir = path.join(import.meta.dirname, "results");
fs.mkdirSync(resultsDir, { recursive: true });
const file = path.join(resultsDir, `rate-limits-${result.at.replace(/[:.]/g, "-")}.json`);
fs.writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
console.log(`written to ${path.relative(process.cwd(), file)}`);

await Promise.all(Object.values(limiters).map((limiter) => limiter?.close()));
await deleteKeys(prefix);
await database.drop();
