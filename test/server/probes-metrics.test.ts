// Health, readiness and metrics through the real processes (docs/operations.md "Health and readiness probes",
// "Metrics"): `npm run api` (node server/main.ts) on its main port and on METRICS_PORT, and `npm run worker`
// (node server/worker.ts), whose only HTTP is the METRICS_PORT listener.
import { afterEach, describe, it } from "vitest";
import assert from "node:assert/strict";
import { once } from "node:events";
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { createEmptyDatabase, createTestDatabase, DIALECTS, type TestDatabase } from "../support/databases.ts";
import { startApiProcess, type ApiProcess } from "../support/api-process.ts";
import { plainAppEnv, startWebApp } from "../support/web-app.ts";
import { loopbackWebhookMerchant, startWorkerProcess, writeEvents } from "../support/webhook-events.ts";
import { waitFor } from "../support/wait.ts";
import { startReceiver } from "../support/webhook-receiver.ts";
import { createTestMerchant } from "../../server/domain/merchants.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";

const SERVICES = {
  clock: Date.now,
  random: cryptoRandom,
  settings: { companyName: "Probe Store", portalUrl: "https://portal.example.test" },
};

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** `npm run api` with a METRICS_PORT of its own (0: the listener logs the port it got); the listener's origin. */
async function startApiWithMetrics(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<{ api: ApiProcess; origin: string; metrics: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-probes-"));
  const api = await startApiProcess({
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    LOG_LEVEL: "info",
    WEBHOOK_WORKER: "off",
    EMAIL_WORKER: "off",
    METRICS_PORT: "0",
    ...env,
  });
  cleanups.push(async () => {
    await api.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const listening = await waitFor(() => api.lines.find((line) => line.msg === "metrics listening"), {
    what: "the metrics listener",
  });
  return {
    api,
    origin: api.baseUrl.replace(/\/api\/v1$/, ""),
    metrics: String(listening.url).replace(/\/metrics$/, ""),
  };
}

async function migratedDatabase(dialect: "sqlite" | "postgres"): Promise<TestDatabase> {
  const database = await createTestDatabase(dialect);
  cleanups.push(() => database.drop());
  return database;
}

/** Every sample line of a Prometheus text exposition, checked line by line against the format's grammar. */
function parsePrometheusText(text: string): { name: string; labels: Record<string, string>; value: number }[] {
  const samples = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    if (line.startsWith("#")) {
      assert.match(line, /^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+$/, line);
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(sample, `not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (sample[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/g))
      labels[name] = value;
    // Go's ParseFloat, which Prometheus reads values with, takes NaN and Inf in any case (prom-client writes "Nan").
    const value = Number(sample[3]);
    assert.ok(!Number.isNaN(value) || /^[+-]?(nan|inf)$/i.test(sample[3]), line);
    samples.push({ name: sample[1], labels, value });
  }
  return samples;
}

async function scrape(metricsOrigin: string) {
  const response = await fetch(`${metricsOrigin}/metrics`);
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(await response.text());
}

const sampleOf = (samples: ReturnType<typeof parsePrometheusText>, name: string, labels: Record<string, string> = {}) =>
  samples.find(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );

async function probe(url: string) {
  const response = await fetch(url);
  return { status: response.status, cacheControl: response.headers.get("cache-control"), body: await response.json() };
}

describe("npm run api: /healthz, /readyz and /metrics", () => {
  for (const dialect of DIALECTS)
    it(`${dialect}: both probes answer 200 on the main port and on METRICS_PORT; /metrics counts requests by route template and status`, async () => {
      const database = await migratedDatabase(dialect);
      const merchant = await database.db.transaction((tx) => createTestMerchant(tx, SERVICES, { name: "Probe Store" }));
      const { origin, metrics } = await startApiWithMetrics(database.url);

      for (const base of [origin, metrics]) {
        assert.deepEqual(await probe(`${base}/healthz`), {
          status: 200,
          cacheControl: "no-store",
          body: { status: "alive" },
        });
        assert.deepEqual(await probe(`${base}/readyz`), {
          status: 200,
          cacheControl: "no-store",
          body: { status: "ready" },
        });
      }
      // The metrics are not on the public port: there /metrics is the API's 404.
      assert.equal((await fetch(`${origin}/metrics`)).status, 404);

      const get = (pathname: string) =>
        fetch(`${origin}/api/v1${pathname}`, { headers: { Authorization: `Bearer ${merchant.secretKey}` } });
      for (const id of ["clm_doesnotexist1", "clm_doesnotexist2", "clm_doesnotexist3"])
        assert.equal((await get(`/merchant/claims/${id}`)).status, 404);
      assert.equal((await get(`/merchants/${merchant.merchantId}/claims`)).status, 200);
      assert.equal((await get("/no/such/route")).status, 404);

      const samples = await scrape(metrics);
      const requests = (route: string, status: string) =>
        sampleOf(samples, "http_requests_total", { method: "GET", route, status })?.value;
      assert.equal(requests("/api/v1/merchant/claims/:claimId", "404"), 3);
      assert.equal(requests("/api/v1/merchants/:merchantId/claims", "200"), 1);
      // /no/such/route, and /metrics asked of the public port.
      assert.equal(requests("unmatched", "404"), 2);
      assert.ok(
        samples.every((sample) => !Object.values(sample.labels).some((value) => value.includes("clm_doesnotexist"))),
        "no raw path (with an id) is a label",
      );
      assert.equal(
        sampleOf(samples, "http_request_duration_seconds_count", {
          route: "/api/v1/merchant/claims/:claimId",
          status: "404",
        })?.value,
        3,
      );
      for (const name of [
        "webhook_queue_depth",
        "webhook_queue_oldest_due_age_seconds",
        "email_queue_depth",
        "process_cpu_seconds_total",
        "nodejs_eventloop_lag_seconds",
      ])
        assert.ok(sampleOf(samples, name), `${name} is reported`);
    });

  it("/readyz is 503 when the database lacks a shipped migration; a newer build's migration is only noted", async () => {
    const database = await migratedDatabase("sqlite");
    const dropped = await database.db.get<{ migration_name: string }>(
      "SELECT migration_name FROM _prisma_migrations ORDER BY migration_name DESC LIMIT 1",
    );
    const droppedRow = (await database.db.get<Record<string, string | number | null>>(
      "SELECT * FROM _prisma_migrations WHERE migration_name = ?",
      [dropped!.migration_name],
    ))!;
    await database.db.run("DELETE FROM _prisma_migrations WHERE migration_name = ?", [dropped!.migration_name]);
    await database.db.run(
      "INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, started_at, applied_steps_count) VALUES (?, ?, ?, ?, ?, 1)",
      [
        randomUUID(),
        "0".repeat(64),
        new Date().toISOString(),
        "29991231000000_from_a_newer_build",
        new Date().toISOString(),
      ],
    );
    const { origin, metrics } = await startApiWithMetrics(database.url);
    for (const base of [origin, metrics]) {
      const readiness = await probe(`${base}/readyz`);
      assert.equal(readiness.status, 503);
      assert.equal(readiness.cacheControl, "no-store");
      assert.deepEqual(readiness.body, {
        status: "not ready",
        notReady: [`migrations: not applied: ${dropped!.migration_name}`],
        notes: ["migrations: applied from a newer build: 29991231000000_from_a_newer_build"],
      });
      assert.equal((await probe(`${base}/healthz`)).status, 200, "alive all the same");
    }
    // Once the newer build's release has migrated, this (older) build keeps serving: a rolling update depends on it.
    const columns = Object.keys(droppedRow);
    await database.db.run(
      `INSERT INTO _prisma_migrations (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
      Object.values(droppedRow),
    );
    const readiness = await probe(`${origin}/readyz`);
    assert.equal(readiness.status, 200);
    assert.deepEqual(readiness.body, {
      status: "ready",
      notes: ["migrations: applied from a newer build: 29991231000000_from_a_newer_build"],
    });
  });

  it("/readyz is 503 on a database that was never migrated", async () => {
    const empty = await createEmptyDatabase("sqlite");
    cleanups.push(() => empty.drop());
    const { origin } = await startApiWithMetrics(empty.url);
    const readiness = await probe(`${origin}/readyz`);
    assert.equal(readiness.status, 503);
    assert.deepEqual(readiness.body.notReady, [
      "migrations: the database has no readable _prisma_migrations (not migrated?)",
    ]);
  });

  it("/readyz is 503 within its timeout, and /metrics still answers, when the database accepts connections and never answers", async () => {
    // A PostgreSQL address that takes the connection and then says nothing (a hung server, a network black hole).
    const silent = net.createServer(() => {}).listen(0, "127.0.0.1");
    await once(silent, "listening");
    cleanups.push(async () => {
      silent.close();
      silent.unref();
    });
    const { port } = silent.address() as net.AddressInfo;
    const { api, origin, metrics } = await startApiWithMetrics(`postgresql://postgres@127.0.0.1:${port}/pp_hung`, {
      SHUTDOWN_GRACE_MS: "1000",
    });
    const started = performance.now();
    const readiness = await probe(`${origin}/readyz`);
    const tookMs = performance.now() - started;
    assert.equal(readiness.status, 503);
    assert.deepEqual(readiness.body.notReady, ["database: no answer within 800 ms"]);
    assert.ok(tookMs < 5_000, `answered in ${Math.round(tookMs)} ms`);
    assert.equal((await probe(`${origin}/healthz`)).status, 200, "alive all the same: a restart would not help");
    // The scrape does not wait for the queue figures past the same timeout: the process's own metrics still come.
    const scrapeStarted = performance.now();
    const samples = await scrape(metrics);
    assert.ok(performance.now() - scrapeStarted < 5_000);
    assert.ok(sampleOf(samples, "process_cpu_seconds_total"));
    // Stopping does not wait for the hung database for ever: after the grace it exits 1 and says why.
    const exited = once(api.child, "exit");
    const stopStarted = performance.now();
    api.child.kill("SIGTERM");
    const [code] = await exited;
    assert.equal(code, 1);
    assert.ok(performance.now() - stopStarted < 8_000, `stopped in ${Math.round(performance.now() - stopStarted)} ms`);
    await waitFor(() => api.lines.find((line) => String(line.msg).includes("did not finish in time")));
  });

  it("/readyz is 503 once SIGTERM starts the drain, while a request is still in flight", async () => {
    const database = await migratedDatabase("sqlite");
    const merchant = await database.db.transaction((tx) => createTestMerchant(tx, SERVICES, { name: "Probe Store" }));
    const { api, origin, metrics } = await startApiWithMetrics(database.url);
    const port = Number(new URL(origin).port);
    const body = JSON.stringify({
      order_amount_cents: 5_000,
      order_id: "order-drain",
      protection_program_id: merchant.programId,
    });
    const socket = net.connect(port, "127.0.0.1");
    await once(socket, "connect");
    // Headers and part of the body: the request is in flight until the rest is sent.
    socket.write(
      `POST /api/v1/offers/quote HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${merchant.secretKey}\r\n` +
        `Idempotency-Key: probe-drain-key-00001\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
        body.slice(0, 20),
    );
    await waitFor(() => api.lines.some((line) => line.msg === "metrics listening"));
    assert.equal((await probe(`${metrics}/readyz`)).status, 200);
    const exited = once(api.child, "exit");
    api.child.kill("SIGTERM");
    await waitFor(() => api.lines.some((line) => line.msg === "shutting down: finishing in-flight requests"), {
      what: "the drain to start",
    });
    const draining = await probe(`${metrics}/readyz`);
    assert.equal(draining.status, 503);
    assert.deepEqual(draining.body.notReady, ["draining: the process is shutting down"]);
    assert.equal((await probe(`${metrics}/healthz`)).status, 200, "alive while it drains");

    let response = "";
    socket.on("data", (chunk) => (response += chunk));
    socket.end(body.slice(20));
    await once(socket, "close");
    assert.match(response, /^HTTP\/1\.1 200 OK/, "the request in flight still finished");
    assert.deepEqual(await exited, [0, null]);
  });
});

describe("npm start (the web app): the same probes at its root, /metrics on METRICS_PORT", () => {
  it("answers /healthz and /readyz, and counts the API's requests and its own pages by route template", async () => {
    const database = await migratedDatabase("sqlite");
    const merchant = await database.db.transaction((tx) => createTestMerchant(tx, SERVICES, { name: "Probe Store" }));
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-probes-web-"));
    const web = await startWebApp(
      plainAppEnv({
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        ENCRYPTION_KEY: randomBytes(32).toString("base64"),
        LOG_LEVEL: "info",
        WEBHOOK_WORKER: "off",
        EMAIL_WORKER: "off",
        METRICS_PORT: "0",
      }),
    );
    cleanups.push(async () => {
      await web.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    const listening = await waitFor(
      () => /"url":"(http:\/\/127\.0\.0\.1:\d+)\/metrics","msg":"metrics listening"/.exec(web.output())?.[1],
      { what: "the metrics listener" },
    );
    for (const base of [web.origin, listening]) {
      assert.deepEqual(await probe(`${base}/healthz`), {
        status: 200,
        cacheControl: "no-store",
        body: { status: "alive" },
      });
      assert.deepEqual(await probe(`${base}/readyz`), {
        status: 200,
        cacheControl: "no-store",
        body: { status: "ready" },
      });
    }
    const claim = await fetch(`${web.origin}/api/v1/merchant/claims/clm_doesnotexist1`, {
      headers: { Authorization: `Bearer ${merchant.secretKey}` },
    });
    assert.equal(claim.status, 404);
    // Its own pages, by their Remix route's template: a signed-out visit to a claim page is sent to sign in.
    const page = await fetch(`${web.origin}/dashboard/claims/clm_doesnotexist2`, { redirect: "manual" });
    const samples = await scrape(listening);
    assert.equal(
      sampleOf(samples, "http_requests_total", { route: "/api/v1/merchant/claims/:claimId", status: "404" })?.value,
      1,
      "an API request is counted once, by the API",
    );
    assert.equal(
      sampleOf(samples, "http_requests_total", {
        method: "GET",
        route: "/dashboard/claims/:id",
        status: String(page.status),
      })?.value,
      1,
    );
    assert.ok(
      samples.every((sample) => !Object.values(sample.labels).some((value) => value.includes("clm_doesnotexist"))),
      "no raw path (with an id) is a label",
    );
    assert.ok(
      !samples.some((sample) => /healthz|readyz|assets/.test(sample.labels.route ?? "")),
      "probes and files are not counted",
    );
  });
});

describe("npm run worker: METRICS_PORT", () => {
  it("serves /healthz, /readyz and /metrics with the webhook queue's depth and the age of its oldest due delivery", async () => {
    const database = await migratedDatabase("sqlite");
    const { services, key, actor, addEndpoint } = await loopbackWebhookMerchant(database.db, "Queue Store");
    // The endpoint takes the first delivery and never answers: the other six wait behind it, in event order.
    const receiver = await startReceiver();
    receiver.reply = () => "hang";
    cleanups.push(() => receiver.close());
    await addEndpoint(receiver.url);
    await writeEvents({ database, services }, actor, 7);
    const metricsPort = await freePort();
    const worker = startWorkerProcess(database.url, key, {
      env: { METRICS_PORT: String(metricsPort), LOG_LEVEL: "warn", SHUTDOWN_GRACE_MS: "200" },
    });
    cleanups.push(async () => {
      if (worker.exitCode === null) worker.kill("SIGTERM");
      if (worker.exitCode === null) await once(worker, "exit");
    });
    const metrics = `http://127.0.0.1:${metricsPort}`;
    await waitFor(() => receiver.received.length > 0, { what: "the first delivery", timeoutMs: 30_000 });
    assert.deepEqual(await probe(`${metrics}/healthz`), {
      status: 200,
      cacheControl: "no-store",
      body: { status: "alive" },
    });
    assert.equal((await probe(`${metrics}/readyz`)).status, 200);

    const samples = await scrape(metrics);
    assert.equal(sampleOf(samples, "webhook_outbox_backlog")?.value, 0, "all seven fanned out");
    assert.equal(sampleOf(samples, "webhook_queue_depth")?.value, 7, "one being delivered, six waiting");
    const age = sampleOf(samples, "webhook_queue_oldest_due_age_seconds")!.value;
    assert.ok(age > 0 && age < 60, `oldest due for ${age} s`);
    assert.equal(sampleOf(samples, "email_queue_depth")?.value, 0);
    assert.ok(sampleOf(samples, "process_resident_memory_bytes"), "the default process metrics");
  });
});

describe("npm run worker: job failures", () => {
  it("counts each failed round by worker in job_failures_total, and is not ready, on a database that was never migrated", async () => {
    const empty = await createEmptyDatabase("sqlite");
    cleanups.push(() => empty.drop());
    const metricsPort = await freePort();
    const worker = startWorkerProcess(empty.url, randomBytes(32), {
      args: ["--only", "webhooks"],
      env: { METRICS_PORT: String(metricsPort), LOG_LEVEL: "fatal" },
    });
    cleanups.push(async () => {
      if (worker.exitCode === null) worker.kill("SIGTERM");
      if (worker.exitCode === null) await once(worker, "exit");
    });
    const metrics = `http://127.0.0.1:${metricsPort}`;
    const failedRounds = await waitFor(
      async () => {
        const text = await fetch(`${metrics}/metrics`).then(
          (response) => response.text(),
          () => "",
        );
        const samples = text ? parsePrometheusText(text) : [];
        return sampleOf(samples, "job_failures_total", { job: "webhooks", failure: "round" })?.value;
      },
      { what: "a failed webhooks round to be counted", timeoutMs: 20_000 },
    );
    assert.ok(failedRounds >= 1);
    assert.equal((await probe(`${metrics}/readyz`)).status, 503);
  });
});

/** A port nothing listens on now (the kernel's pick, released at once). */
async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, "close");
  return port;
}
