// `npm run bench:webhooks`: one webhook worker (`server/worker.ts --only webhooks`, its own process) delivering to a
// local receiver (node:http in this process, answering 200 at once).
//   1. throughput: a backlog of events is written first, then the worker starts; deliveries per second from its
//      start until the last delivery arrived (fan-out, claims, signing, HTTP and bookkeeping included).
//   2. latency: with the worker running, events are committed at a steady rate; commit-to-delivery latency is the
//      time from the event's transaction resolving to the receiver reading the request.
// Both databases in one run, SQLite then PostgreSQL, so that the ratio of the two is measured under the same load.
// Targets: >= 1,000 deliveries/s, p50 < 100 ms; PostgreSQL >= 0.9 x SQLite deliveries/s (issue 18).
//
//   BENCH_DIALECT=sqlite|postgres   one database only (default: both)
//   BENCH_EVENTS=2000               events in the backlog (each goes to every endpoint)
//   BENCH_ENDPOINTS=10              endpoints, at most 16 (the per-merchant cap; deliveries are ordered per endpoint,
//                                   so they are the parallelism)
//   BENCH_RATE=200                  events per second in the latency run, for BENCH_LATENCY_SECONDS=5
//
// Results are printed and written to bench/results/webhooks-<timestamp>.json.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { createTestDatabase, type Dialect } from "../test/support/databases.ts";
import { appendEvent } from "../server/domain/events.ts";
import { loopbackWebhookMerchant, startWorkerProcess } from "../test/support/webhook-events.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const DIALECTS = process.env.BENCH_DIALECT ? [process.env.BENCH_DIALECT as Dialect] : (["sqlite", "postgres"] as const);
const RATIO_TARGET = 0.9;
const EVENTS = Number(process.env.BENCH_EVENTS ?? 2000);
const ENDPOINTS = Number(process.env.BENCH_ENDPOINTS ?? 10);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const LATENCY_SECONDS = Number(process.env.BENCH_LATENCY_SECONDS ?? 5);

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); null elsewhere. */
function cpuSeconds(pid: number | undefined): number | null {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return null;
  }
}
const waitUntil = async (condition: () => boolean, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  return condition();
};

/** One database: a fresh one, a receiver, a worker process; the backlog's throughput, then steady-rate latency. */
async function runOn(dialect: Dialect) {
  const database = await createTestDatabase(dialect);
  // The receiver is on loopback: the bench opts in to private webhook URLs (WEBHOOK_ALLOW_PRIVATE_URLS), API and worker.
  const { services, key, actor, addEndpoint } = await loopbackWebhookMerchant(database.db, "Bench Store");

  const committedAt = new Map<string, number>();
  const latencies: number[] = [];
  let received = 0;
  let lastArrival = 0;
  const receiver = http.createServer((req, res) => {
    const arrived = performance.now();
    const eventId = String(req.headers["x-service-event-id"]);
    req.resume();
    req.on("end", () => {
      received++;
      lastArrival = arrived;
      const committed = committedAt.get(eventId);
      if (committed !== undefined) latencies.push(arrived - committed);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  for (let i = 0; i < ENDPOINTS; i++) {
    await addEndpoint(`${url}/${i}`);
  }
  const writeEvent = () =>
    database.db.transaction((tx) =>
      appendEvent(tx, services, actor, "claim.created", { claimId: "clm_bench", amountCents: 1234, note: "Zoë" }),
    );

  const startWorker = () =>
    startWorkerProcess(database.url, key, { args: ["--only", "webhooks"], env: { LOG_LEVEL: "warn" } });
  // 1. Throughput from a backlog.
  for (let i = 0; i < EVENTS; i++) await writeEvent();
  const expected = EVENTS * ENDPOINTS;
  const started = performance.now();
  const worker = startWorker();
  const drained = await waitUntil(() => received >= expected, 120_000);
  const seconds = (lastArrival - started) / 1000;
  const workerCpu = cpuSeconds(worker.pid);
  // The machine may be shared: deliveries per CPU-second of the worker is what one worker does with a core to itself.
  const throughput = {
    deliveries: received,
    seconds: Number(seconds.toFixed(2)),
    perSecond: Math.round(received / seconds),
    complete: drained,
    workerCpuSeconds: workerCpu,
    perWorkerCpuSecond: workerCpu ? Math.round(received / workerCpu) : null,
    loadAverage: os.loadavg()[0],
  };
  console.log(
    `throughput: ${throughput.deliveries} deliveries in ${throughput.seconds} s = ${throughput.perSecond}/s wall (${dialect}, ${ENDPOINTS} endpoints, one worker process)`,
  );
  console.log(
    `            worker CPU ${workerCpu?.toFixed(2)} s (startup included) = ${throughput.perWorkerCpuSecond} deliveries per CPU-second; load average ${throughput.loadAverage.toFixed(1)} on ${os.cpus().length} CPUs`,
  );

  // 2. Commit-to-delivery latency at a steady rate.
  const before = received;
  const count = RATE * LATENCY_SECONDS;
  const interval = 1000 / RATE;
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    const due = t0 + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const id = await writeEvent();
    committedAt.set(id, performance.now());
  }
  await waitUntil(() => received - before >= count * ENDPOINTS, 60_000);
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    Number(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(1));
  const latency = {
    events: count,
    ratePerSecond: RATE,
    deliveries: latencies.length,
    p50Ms: pct(50),
    p99Ms: pct(99),
    maxMs: pct(100),
  };
  console.log(
    `latency: ${latency.deliveries} deliveries at ${RATE} events/s x ${ENDPOINTS} endpoints: p50 ${latency.p50Ms} ms, p99 ${latency.p99Ms} ms, max ${latency.maxMs} ms`,
  );

  worker.kill("SIGTERM");
  await new Promise((resolve) => worker.once("exit", resolve));
  receiver.close();
  await database.drop();
  return { dialect, throughput, latency };
}

const runs = [];
for (const dialect of DIALECTS) runs.push(await runOn(dialect));
const verdicts = runs.map(({ dialect, throughput, latency }) => {
  const verdict = {
    throughput: throughput.perSecond >= 1000 ? "PASS" : "FAIL",
    throughputPerCpuSecond: (throughput.perWorkerCpuSecond ?? 0) >= 1000 ? "PASS" : "FAIL",
    latency: latency.p50Ms < 100 ? "PASS" : "FAIL",
  };
  console.log(
    `targets (${dialect}): >= 1000/s wall ${verdict.throughput}, per worker CPU-second ${verdict.throughputPerCpuSecond}; p50 < 100 ms ${verdict.latency}`,
  );
  return verdict;
});
const [sqlite, postgres] = [
  runs.find((run) => run.dialect === "sqlite"),
  runs.find((run) => run.dialect === "postgres"),
];
const postgresToSqlite =
  sqlite && postgres
    ? {
        wall: postgres.throughput.perSecond / sqlite.throughput.perSecond,
        perWorkerCpuSecond: (postgres.throughput.perWorkerCpuSecond ?? 0) / (sqlite.throughput.perWorkerCpuSecond ?? 1),
      }
    : null;
if (postgresToSqlite)
  console.log(
    `PostgreSQL / SQLite deliveries/s: ${postgresToSqlite.wall.toFixed(2)} wall (target >= ${RATIO_TARGET}) ${postgresToSqlite.wall >= RATIO_TARGET ? "PASS" : "FAIL"}, ${postgresToSqlite.perWorkerCpuSecond.toFixed(2)} per worker CPU-second`,
  );
const resultsDir = path.join(import.meta.dirname, "results");
fs.mkdirSync(resultsDir, { recursive: true });
const file = path.join(resultsDir, `webhooks-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
fs.writeFileSync(
  file,
  JSON.stringify(
    {
      endpoints: ENDPOINTS,
      cpus: os.cpus().length,
      loadAverage: os.loadavg()[0],
      runs: runs.map((run, i) => ({ ...run, verdict: verdicts[i] })),
      postgresToSqlite,
    },
    null,
    2,
  ),
);
console.log(`written to ${path.relative(ROOT, file)}`);
