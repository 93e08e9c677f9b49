import { afterAll, beforeAll, describe, it } from "vitest";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "../support/databases.ts";
import { apiClient } from "../support/client.ts";
import { startApiProcess, type ApiProcess } from "../support/api-process.ts";
import { createTestMerchant, type NewMerchant } from "../../server/domain/merchants.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";
import { TEST_REDIS_URL, deleteKeys, randomPrefix } from "../support/rate-limits.ts";

describe("rate limits: two API processes sharing one Redis", () => {
  const prefix = randomPrefix();
  let database: TestDatabase;
  let merchant: NewMerchant;
  let dataDir: string;
  const instances: ApiProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    const services = {
      clock: Date.now,
      random: cryptoRandom,
      settings: { companyName: "Test", portalUrl: "https://portal.example.test" },
    };
    merchant = await database.db.transaction((tx) =>
      createTestMerchant(tx, services, { name: "Shared Store", allowedOrigins: [] }),
    );
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-rl-"));
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: TEST_REDIS_URL,
      RATE_LIMIT_KEY_PREFIX: prefix,
      TRUST_PROXY: "1",
      DATA_DIR: dataDir,
      ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      LOG_LEVEL: "info",
      // What is under test is the sharing: on a loaded machine a command can take longer than the production 100 ms,
      // and three such timeouts would send an instance to its memory fallback (rate-limits-redis-hang tests that).
      REDIS_COMMAND_TIMEOUT_MS: "5000",
    };
    instances.push(await startApiProcess(env), await startApiProcess(env));
  });

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    await deleteKeys(prefix);
  });

  it("hold the merchant's 200/min on void together", async () => {
    const clients = instances.map(({ baseUrl }) => apiClient(baseUrl, merchant.secretKey));
    const ips = ["192.0.2.10", "192.0.2.11", "192.0.2.12", "192.0.2.13", "192.0.2.14"];
    const started = performance.now();
    const admitted = [0, 0];
    let rejected = 0;
    for (let batch = 0; batch < 10; batch++) {
      const responses = await Promise.all(
        Array.from({ length: 25 }, (_, i) => {
          const n = batch * 25 + i;
          return clients[n % 2]
            .post(
              "/offers/void",
              { planId: "pln_doesnotexist000000000000" },
              { headers: { "X-Forwarded-For": ips[n % 5] } },
            )
            .then((response) => ({ response, instance: n % 2 }));
        }),
      );
      for (const { response, instance } of responses) {
        if (response.status === 429) rejected++;
        else admitted[instance]++;
      }
    }
    const elapsedMs = performance.now() - started;
    const total = admitted[0] + admitted[1];
    // 250 requests, 50 per address (under the 60/min per merchant + IP), 125 per instance: alone, each instance
    // would admit all of its 125. Together they hold 200, plus what the bucket refills meanwhile (one per 300 ms).
    assert.ok(total >= 200, `admitted ${total}`);
    assert.ok(total <= 200 + Math.ceil(elapsedMs / 300), `admitted ${total} in ${Math.round(elapsedMs)} ms`);
    assert.ok(rejected >= 250 - 200 - Math.ceil(elapsedMs / 300));
    assert.ok(admitted[0] > 0 && admitted[1] > 0, "both instances served");
    for (const { lines } of instances)
      assert.ok(!lines.some((line) => String(line.msg).includes("Redis unavailable")), "no memory fallback");
  });

  it("key an IPv6 client by its /64 across instances, and warn at start that TRUST_PROXY is set", async () => {
    for (const { lines } of instances) {
      const warning = lines.find((line) => line.trustProxy === 1);
      assert.equal(warning?.level, 40, "each process warns about TRUST_PROXY at start");
      assert.match(String(warning?.msg), /picks its own rate-limit buckets/);
    }
    const clients = instances.map(({ baseUrl }) => apiClient(baseUrl));
    // The look-up's 30/min per client address: 30 addresses of one /64, through both instances, spend it.
    const lookup = (n: number, address: string) =>
      clients[n % 2].post(
        "/portal/lookup",
        { email: `guess-${n}@example.test`, referenceNumber: "CLM-2026-00000000" },
        { idempotencyKey: null, headers: { "X-Forwarded-For": address } },
      );
    const subnet = `2001:db8:${randomBytes(2).toString("hex")}:1`;
    for (let n = 0; n < 30; n++) assert.equal((await lookup(n, `${subnet}:${n.toString(16)}::${n}`)).status, 404);
    const limited = await lookup(30, `${subnet}:ffff:ffff:ffff:ffff`);
    assert.equal(limited.status, 429);
    assert.match(limited.headers.get("ratelimit")!, /"portal-lookup-ip";r=0;/);
    assert.equal((await lookup(31, `${subnet.slice(0, -1)}2::1`)).status, 404, "the next /64 is another client");
  });
});
