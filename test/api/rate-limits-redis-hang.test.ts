import { afterAll, beforeAll, describe, it } from "vitest";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { createTestDatabase, type TestDatabase } from "../support/databases.ts";
import { apiClient } from "../support/client.ts";
import { startApiProcess, type ApiProcess } from "../support/api-process.ts";
import { startRedisServer, type RedisServer } from "../support/redis-server.ts";
import { randomPrefix } from "../support/rate-limits.ts";
import { waitFor } from "../support/wait.ts";
import { createTestMerchant, type NewMerchant } from "../../server/domain/merchants.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";
import { RULES, policyKey } from "../../server/rate-limits/policies.ts";

// Issue 34: a Redis that stops answering (SIGSTOP keeps its socket open, like a network black hole) used to add the
// whole command timeout (~500 ms) to every quote. Through `node server/main.ts` and a redis-server of our own: the
// median quote while it hangs is at most 50 ms slower than the healthy median measured just before, the fallback is
// logged once, and once Redis answers again the counters are back in it.
const SAMPLES = 60;
const MAX_ADDED_MEDIAN_MS = 50;
const UNAVAILABLE = "Redis unavailable";
const BACK = "Redis answers again";

const median = (sorted: number[]) => sorted[Math.floor(sorted.length / 2)];
const p95 = (sorted: number[]) => sorted[Math.ceil(sorted.length * 0.95) - 1];

describe("rate limits: a Redis that stops answering", () => {
  const prefix = randomPrefix();
  let redisServer: RedisServer;
  let redis: Redis;
  let database: TestDatabase;
  let merchant: NewMerchant;
  let dataDir: string;
  let api: ApiProcess;

  beforeAll(async () => {
    redisServer = await startRedisServer();
    redis = new Redis(redisServer.url, { lazyConnect: true });
    database = await createTestDatabase("sqlite");
    merchant = await database.db.transaction((tx) =>
      createTestMerchant(
        tx,
        {
          clock: Date.now,
          random: cryptoRandom,
          settings: { companyName: "Test", portalUrl: "https://portal.example.test" },
        },
        { name: "Hung Redis Store", allowedOrigins: [] },
      ),
    );
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-rl-hang-"));
    api = await startApiProcess({
      DATABASE_URL: database.url,
      REDIS_URL: redisServer.url,
      RATE_LIMIT_KEY_PREFIX: prefix,
      TRUST_PROXY: "1",
      DATA_DIR: dataDir,
      ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      LOG_LEVEL: "info",
    });
  });

  afterAll(async () => {
    await api?.stop();
    redis?.disconnect();
    await redisServer?.stop();
    await database?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("adds at most 50 ms to the median quote while Redis hangs, logs it once, and is back on Redis when it answers", async () => {
    const client = apiClient(api.baseUrl, merchant.secretKey);
    let sent = 0;
    /** A quote from a client address of its own (the edge limit allows 50 per 10 s per address); its address. */
    const quote = async () => {
      const ip = `198.18.${Math.floor(sent / 250)}.${sent % 250}`;
      sent++;
      const response = await client.post(
        "/offers/quote",
        { order_amount_cents: 5_000, order_id: `order-${sent}`, protection_program_id: merchant.programId },
        { headers: { "X-Forwarded-For": ip } },
      );
      assert.equal(response.status, 200, response.text);
      return ip;
    };
    /** `count` quotes one after the other: their latencies (ms), sorted. */
    const timedQuotes = async (count: number) => {
      const latencies: number[] = [];
      for (let i = 0; i < count; i++) {
        const started = performance.now();
        await quote();
        latencies.push(performance.now() - started);
      }
      return latencies.sort((a, b) => a - b);
    };
    const storedInRedis = async (ip: string) =>
      (await redis.exists(prefix + policyKey(RULES.quote.policies[2], { ip })!)) === 1;
    const logged = (text: string) => api.lines.filter((line) => String(line.msg).includes(text)).length;

    await timedQuotes(10); // warm-up: the first requests compile and open what later ones reuse
    const healthy = await timedQuotes(SAMPLES);
    assert.ok(await storedInRedis(await quote()), "a healthy Redis holds the counters");

    redisServer.freeze();
    const hung = await timedQuotes(SAMPLES);
    const figures = {
      healthy: { medianMs: median(healthy), p95Ms: p95(healthy) },
      hung: { medianMs: median(hung), p95Ms: p95(hung), maxMs: hung.at(-1) },
    };
    console.info("quote latency, Redis healthy and hung:", JSON.stringify(figures));
    assert.ok(
      median(hung) <= median(healthy) + MAX_ADDED_MEDIAN_MS,
      `the median quote went from ${median(healthy).toFixed(1)} ms to ${median(hung).toFixed(1)} ms`,
    );
    assert.equal(logged(UNAVAILABLE), 1, "the fallback is logged once");

    redisServer.thaw();
    const thawed = performance.now();
    // Traffic drives the breaker's probe: quote until the process says it is back on Redis.
    await waitFor(async () => (await quote(), logged(BACK) === 1), { what: "the limiter back on Redis" });
    console.info(`back on Redis ${Math.round(performance.now() - thawed)} ms after it answered again`);
    assert.ok(await storedInRedis(await quote()), "the counters are in Redis again");
    assert.equal(logged(UNAVAILABLE), 1, "still one line for the whole outage");
    assert.equal(logged(BACK), 1);
  });
});
