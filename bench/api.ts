// `npm run bench:api`: throughput and latency of quote and confirm on the standalone server over SQLite (or, with
// --postgres, PostgreSQL), beside three reference servers measured in the same run: bare node:http; node:http doing
// one raw transaction of three writes like a quote's on the same database (better-sqlite3, or a `pg` pool of the API's
// size): the floor cost of a durable write, kept for continuity; and same-work, node:http replaying the statements the
// API sends for a quote and a confirm (recorded from the API at the start of the run, bench/same-work.ts) in one
// transaction per request through the store's own connections. Every server runs in its own process; autocannon runs
// here. Targets: quote and confirm >= 0.8 x same-work, quote p99 <= 3 x p50.
//
//   --postgres             the API and the references on PostgreSQL (a fresh database each, dropped afterwards)
//   BENCH_SECONDS=10       seconds per measured run (after a short warm-up)
//   BENCH_CONNECTIONS=32   autocannon connections
//   BENCH_API_NODE_ARGS    extra node arguments for the API server process (space-separated), e.g. an --import
//                          hook to try a change without editing server/
//   --profile              afterwards, run quote and confirm again against servers started with --cpu-prof and
//                          print where the time goes (profiles kept in bench/results/)
//
// Results are printed and written to bench/results/api-<timestamp>.json.
import { spawn, fork, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import autocannon, { type AutocannonRequest, type AutocannonResult } from "autocannon";
import { createEmptyDatabase, type Dialect, type EmptyDatabase } from "../test/support/databases.ts";
import { migrate } from "../server/store/migrations.ts";
import { openDatabase } from "../server/store/open.ts";
import { createTestMerchant, type NewMerchant } from "../server/domain/merchants.ts";
import { cryptoRandom } from "../server/domain/ids.ts";
import { formatProfile, summariseProfile, type ProfileSummary } from "./profile.ts";
import { describeScript, recordSameWork } from "./same-work.ts";
import {
  confirmBody,
  mutationHeaders,
  openQuote,
  quoteBody,
  QUOTE_TOKEN_HEADER,
  type OpenQuote,
} from "./api-requests.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const RESULTS_DIR = path.join(import.meta.dirname, "results");
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const WARMUP_SECONDS = Math.min(2, Math.max(1, Math.round(SECONDS / 5)));
const PROFILE = process.argv.includes("--profile");
const DIALECT: Dialect = process.argv.includes("--postgres") ? "postgres" : "sqlite";
/** Quote and confirm against the same-work reference (the same statements, replayed raw). */
const TARGET = 0.8;
/** The quote's p99 / p50. */
const TAIL_TARGET = 3;
const stamp = new Date().toISOString().replace(/[:.]/g, "-");

interface Measurement {
  server: string;
  route: string;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  seconds: number;
  /** CPU time of the server process per response (user + system), in microseconds: robust to a busy machine. */
  serverCpuUsPerRequest: number | null;
  /** Share of one core the server process used during the run. */
  serverCpuShare: number | null;
  /** 1-minute load average at the end of the run: other work on the machine lowers req/s. */
  loadAverage: number;
  statusCodes: Record<string, number>;
  /** A few non-2xx bodies, to see what failed. */
  failures: string[];
}

/** Counts statuses and keeps the first few non-2xx bodies of a run. */
class Outcomes {
  readonly failures: string[] = [];
  note(status: number, body: string) {
    if ((status < 200 || status > 299) && this.failures.length < 5)
      this.failures.push(`${status} ${body.slice(0, 300)}`);
  }
}

const header = (headers: Record<string, string | string[]>, name: string) => {
  for (const [key, value] of Object.entries(headers))
    if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : value;
  return undefined;
};

/** USER_HZ: the unit of utime/stime in /proc/<pid>/stat, 100 on Linux. */
const CLOCK_TICKS_PER_SECOND = 100;

/** User + system CPU seconds of a process so far, from /proc (undefined where there is no /proc). */
function cpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

async function measure(
  server: string,
  route: string,
  target: Running,
  request: AutocannonRequest,
  outcomes: Outcomes,
  options: { seconds: number; amount?: number },
): Promise<Measurement> {
  const instance = autocannon({
    url: `http://127.0.0.1:${target.port}`,
    connections: CONNECTIONS,
    ...(options.amount === undefined ? { duration: options.seconds } : { amount: options.amount }),
    timeout: 30,
    requests: [request],
  });
  const cpuBefore = cpuSeconds(target.pid);
  // With a fixed amount (confirm consumes a finite pool) the run still stops after the duration.
  const stopper = options.amount === undefined ? undefined : setTimeout(() => instance.stop(), options.seconds * 1000);
  const result: AutocannonResult = await instance;
  clearTimeout(stopper);
  const cpuAfter = cpuSeconds(target.pid);
  const cpuUsed = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count]),
  );
  return {
    server,
    route,
    reqPerSec: result.requests.total / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    seconds: result.duration,
    serverCpuUsPerRequest:
      cpuUsed === undefined || result.requests.total === 0 ? null : (cpuUsed * 1e6) / result.requests.total,
    serverCpuShare: cpuUsed === undefined ? null : cpuUsed / result.duration,
    loadAverage: os.loadavg()[0],
    statusCodes,
    failures: outcomes.failures,
  };
}

// ---- request shapes -------------------------------------------------------------------------------------------

/** POST /api/v1/offers/quote with a fresh Idempotency-Key and order id; 200 responses feed `pool`. */
function quoteRequest(merchant: NewMerchant, pool: OpenQuote[] | undefined, outcomes: Outcomes): AutocannonRequest {
  return {
    method: "POST",
    path: "/api/v1/offers/quote",
    setupRequest(request) {
      request.headers = mutationHeaders(merchant, "q");
      request.body = quoteBody(merchant);
      return request;
    },
    onResponse(status, body, _context, headers) {
      outcomes.note(status, body);
      if (status !== 200 || !pool) return;
      const token = header(headers, QUOTE_TOKEN_HEADER);
      if (token) pool.push(openQuote(body, token));
    },
  };
}

/** POST /api/v1/offers/confirm, each consuming one quote of the pool. */
function confirmRequest(merchant: NewMerchant, pool: OpenQuote[], outcomes: Outcomes): AutocannonRequest {
  return {
    method: "POST",
    path: "/api/v1/offers/confirm",
    setupRequest(request) {
      request.headers = mutationHeaders(merchant, "c");
      // An exhausted pool (only if the amount guard fails) sends a quote id that does not exist: counted as non-2xx.
      request.body = confirmBody(pool.pop());
      return request;
    },
    onResponse(status, body) {
      outcomes.note(status, body);
    },
  };
}

// ---- servers --------------------------------------------------------------------------------------------------

interface Running {
  port: number;
  pid?: number;
  stop(): Promise<void>;
}

function collectOutput(child: ChildProcess): () => string {
  let output = "";
  child.stdout?.on("data", (chunk) => (output = (output + chunk).slice(-8000)));
  child.stderr?.on("data", (chunk) => (output = (output + chunk).slice(-8000)));
  return () => output;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}

async function startReference(
  kind: "bare" | "raw-tx" | "raw-tx-pg" | "same-work",
  ...args: string[]
): Promise<Running> {
  const child = fork(path.join(import.meta.dirname, "reference-servers.ts"), [kind, ...args], {
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  const output = collectOutput(child);
  const [message] = (await Promise.race([
    once(child, "message"),
    once(child, "exit").then(() => {
      throw new Error(`reference server ${kind} exited:\n${output()}`);
    }),
  ])) as [{ port: number }];
  return { port: message.port, pid: child.pid, stop: () => stopChild(child) };
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `node server/main.ts` on the database, with `--cpu-prof` into `profileDir` when given. */
async function startApi(database: EmptyDatabase, profileDir?: string): Promise<Running> {
  const port = await freePort();
  const dataDir =
    DIALECT === "sqlite"
      ? path.dirname(database.url.slice("file:".length))
      : fs.mkdtempSync(path.join(os.tmpdir(), "pp-bench-api-"));
  const extra = (process.env.BENCH_API_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const args = [
    ...extra,
    ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
    path.join(ROOT, "server", "main.ts"),
  ];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      HOST: "127.0.0.1",
      PORT: String(port),
      LOG_LEVEL: "warn",
      SHUTDOWN_GRACE_MS: "2000",
      // One merchant's traffic far above its rate limits: the limiter's own cost is bench:rate-limits' subject.
      RATE_LIMITS: "off",
      // Each confirm queues a welcome e-mail; rendering it (MJML) in this process was ~30 % of its CPU in a confirm
      // run, work that is not the request's (a deployment may send e-mails from `npm run worker`). They stay queued.
      EMAIL_WORKER: "off",
    },
  });
  const output = collectOutput(child);
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`API server exited with ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/openapi.json`);
      await response.arrayBuffer();
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stopChild(child);
      throw new Error(`API server did not start within 20 s:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port,
    pid: child.pid,
    async stop() {
      await stopChild(child);
      if (child.exitCode !== 0) console.error(`API server exited with ${child.exitCode}:\n${output()}`);
    },
  };
}

/**
 * A fresh, migrated database with one merchant. This process closes its connection: only the server under test uses
 * the database while it is measured.
 */
async function seededDatabase(): Promise<{ database: EmptyDatabase; merchant: NewMerchant }> {
  const database = await createEmptyDatabase(DIALECT);
  await migrate(database.url);
  const services = {
    clock: Date.now,
    random: cryptoRandom,
    settings: { companyName: "Bench Protection Ltd", portalUrl: "https://portal.example.test" },
  };
  const db = openDatabase(database.url);
  try {
    const merchant = await db.transaction((tx) => createTestMerchant(tx, services, { name: "Bench Store" }));
    return { database, merchant };
  } finally {
    await db.close();
  }
}

// ---- the runs -------------------------------------------------------------------------------------------------

/** Warm-up (not measured), then the measured run. */
async function warmAndMeasure(
  server: string,
  route: string,
  target: Running,
  makeRequest: (outcomes: Outcomes) => AutocannonRequest,
  amount?: () => number,
): Promise<Measurement> {
  const warm = new Outcomes();
  await measure(server, route, target, makeRequest(warm), warm, { seconds: WARMUP_SECONDS, amount: amount?.() });
  const outcomes = new Outcomes();
  const result = await measure(server, route, target, makeRequest(outcomes), outcomes, {
    seconds: SECONDS,
    amount: amount?.(),
  });
  process.stderr.write(
    `  ${server.padEnd(10)} ${route.padEnd(22)} ${Math.round(result.reqPerSec)} req/s  (load ${result.loadAverage.toFixed(1)})\n`,
  );
  return result;
}

/** A whole number of requests per connection, so that no connection asks for a quote the pool does not have. */
const poolAmount = (pool: OpenQuote[]) => () =>
  Math.max(CONNECTIONS, Math.floor(pool.length / CONNECTIONS) * CONNECTIONS);

/** Quotes, then confirms consuming the quotes that run produced: on the API, or on the same-work reference. */
async function measureQuoteAndConfirm(
  server: "api" | "same-work",
  merchant: NewMerchant,
  api: Running,
): Promise<{ quote: Measurement; confirm: Measurement; pool: number }> {
  const pool: OpenQuote[] = [];
  const quote = await warmAndMeasure(server, "POST /offers/quote", api, (outcomes) =>
    quoteRequest(merchant, pool, outcomes),
  );
  const pooled = pool.length;
  if (pooled < CONNECTIONS)
    throw new Error(`only ${pooled} quotes to confirm; the quote run failed (${quote.failures.join(" | ")})`);
  const confirm = await warmAndMeasure(
    server,
    "POST /offers/confirm",
    api,
    (outcomes) => confirmRequest(merchant, pool, outcomes),
    poolAmount(pool),
  );
  return { quote, confirm, pool: pooled };
}

async function profileApi(
  database: EmptyDatabase,
  merchant: NewMerchant,
): Promise<Record<string, { file: string; summary: ProfileSummary }>> {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const profiles: Record<string, { file: string; summary: ProfileSummary }> = {};
  const pool: OpenQuote[] = [];
  for (const route of ["quote", "confirm"] as const) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-bench-prof-"));
    const api = await startApi(database, dir);
    try {
      if (route === "quote")
        await warmAndMeasure("profiled", "POST /offers/quote", api, (outcomes) =>
          quoteRequest(merchant, pool, outcomes),
        );
      else
        await warmAndMeasure(
          "profiled",
          "POST /offers/confirm",
          api,
          (outcomes) => confirmRequest(merchant, pool, outcomes),
          poolAmount(pool),
        );
    } finally {
      await api.stop();
    }
    const written = fs.readdirSync(dir).find((name) => name.endsWith(".cpuprofile"));
    if (!written) throw new Error(`no CPU profile written in ${dir}`);
    const file = path.join(RESULTS_DIR, `api-${stamp}-${route}.cpuprofile`);
    fs.copyFileSync(path.join(dir, written), file);
    fs.rmSync(dir, { recursive: true, force: true });
    profiles[route] = { file: path.relative(ROOT, file), summary: summariseProfile(file) };
  }
  return profiles;
}

function table(rows: Measurement[]): string {
  const lines = [
    `${"server".padEnd(10)} ${"route".padEnd(22)} ${"req/s".padStart(8)} ${"p50 ms".padStart(7)} ${"p99 ms".padStart(7)} ${"non-2xx".padStart(8)} ${"errors".padStart(7)} ${"cpu µs/req".padStart(10)} ${"cpu".padStart(5)}`,
  ];
  for (const r of rows) {
    lines.push(
      `${r.server.padEnd(10)} ${r.route.padEnd(22)} ${Math.round(r.reqPerSec).toString().padStart(8)} ${r.p50Ms.toFixed(0).padStart(7)} ${r.p99Ms.toFixed(0).padStart(7)} ${String(r.non2xx).padStart(8)} ${String(r.errors + r.timeouts).padStart(7)} ${(r.serverCpuUsPerRequest === null ? "-" : r.serverCpuUsPerRequest.toFixed(0)).padStart(10)} ${(r.serverCpuShare === null ? "-" : `${Math.round(r.serverCpuShare * 100)}%`).padStart(5)}`,
    );
  }
  return lines.join("\n");
}

async function main() {
  const started = performance.now();
  const loadBefore = os.loadavg()[0];
  const cpu = os.cpus();
  console.log(
    `bench:api (${DIALECT})  node ${process.version}, ${cpu.length} × ${cpu[0]?.model ?? "cpu"}, autocannon -c ${CONNECTIONS}, ${SECONDS} s per run (+${WARMUP_SECONDS} s warm-up)`,
  );

  const { database, merchant } = await seededDatabase();
  const rawDatabase = await createEmptyDatabase(DIALECT);
  await migrate(rawDatabase.url);
  // The same-work reference's own database, where its script is recorded (its merchant is the one the script names).
  const sameWorkDatabase = await seededDatabase();
  const script = await recordSameWork(sameWorkDatabase.database.url, sameWorkDatabase.merchant);
  console.log(describeScript(script));
  const scriptFile = path.join(os.tmpdir(), `pp-bench-same-work-${stamp}.json`);
  fs.writeFileSync(scriptFile, JSON.stringify(script));
  const running: Running[] = [];
  const rows: Measurement[] = [];
  let pooled = 0;
  let profiles: Awaited<ReturnType<typeof profileApi>> | undefined;
  try {
    // The same request shape (POST, JSON body, fresh Idempotency-Key) for every server: equal client-side cost.
    const bare = await startReference("bare");
    running.push(bare);
    rows.push(
      await warmAndMeasure("bare", "POST (small JSON)", bare, (outcomes) =>
        quoteRequest(merchant, undefined, outcomes),
      ),
    );
    await bare.stop();

    const raw =
      DIALECT === "sqlite"
        ? await startReference("raw-tx", rawDatabase.url.slice("file:".length))
        : await startReference("raw-tx-pg", rawDatabase.url);
    running.push(raw);
    rows.push(
      await warmAndMeasure("raw-tx", "POST (3-statement tx)", raw, (outcomes) =>
        quoteRequest(merchant, undefined, outcomes),
      ),
    );
    await raw.stop();

    const sameWork = await startReference("same-work", sameWorkDatabase.database.url, scriptFile);
    running.push(sameWork);
    const replayed = await measureQuoteAndConfirm("same-work", merchant, sameWork);
    rows.push(replayed.quote, replayed.confirm);
    await sameWork.stop();

    const api = await startApi(database);
    running.push(api);
    const measured = await measureQuoteAndConfirm("api", merchant, api);
    rows.push(measured.quote, measured.confirm);
    pooled = measured.pool;
    await api.stop();

    if (PROFILE) profiles = await profileApi(database, merchant);
  } finally {
    await Promise.all(running.map((server) => server.stop()));
    await database.drop();
    await rawDatabase.drop();
    await sameWorkDatabase.database.drop();
    fs.rmSync(scriptFile, { force: true });
  }

  const [bare, raw, sameQuote, sameConfirm, quote, confirm] = rows;
  const ratios = {
    quoteOverSameWork: quote.reqPerSec / sameQuote.reqPerSec,
    confirmOverSameWork: confirm.reqPerSec / sameConfirm.reqPerSec,
    quoteOverRawTx: quote.reqPerSec / raw.reqPerSec,
    confirmOverRawTx: confirm.reqPerSec / raw.reqPerSec,
    quoteOverBare: quote.reqPerSec / bare.reqPerSec,
    quoteP99OverP50: quote.p99Ms / quote.p50Ms,
    confirmP99OverP50: confirm.p99Ms / confirm.p50Ms,
  };
  const elapsedSeconds = (performance.now() - started) / 1000;

  console.log("");
  console.log(table(rows));
  console.log("");
  const met = (ratio: number) => (ratio >= TARGET ? "met" : "NOT met");
  console.log(
    `quote / same-work    ${ratios.quoteOverSameWork.toFixed(2)}   (target >= ${TARGET}: ${met(ratios.quoteOverSameWork)})`,
  );
  console.log(
    `confirm / same-work  ${ratios.confirmOverSameWork.toFixed(2)}   (target >= ${TARGET}: ${met(ratios.confirmOverSameWork)})`,
  );
  const tailMet = ratios.quoteP99OverP50 <= TAIL_TARGET;
  console.log(
    `p99 / p50            quote ${ratios.quoteP99OverP50.toFixed(1)} (target <= ${TAIL_TARGET}: ${tailMet ? "met" : "NOT met"}), confirm ${ratios.confirmP99OverP50.toFixed(1)}; autocannon's latencies are whole ms`,
  );
  console.log(
    `quote / raw-tx       ${ratios.quoteOverRawTx.toFixed(2)}, confirm / raw-tx ${ratios.confirmOverRawTx.toFixed(2)}   (the 3-statement floor, for continuity)`,
  );
  console.log(`quote / bare         ${ratios.quoteOverBare.toFixed(2)}`);
  console.log(`confirm pool: ${pooled} quotes from the quote run`);
  const cpuRatio = (a: Measurement, b: Measurement) =>
    a.serverCpuUsPerRequest && b.serverCpuUsPerRequest
      ? (a.serverCpuUsPerRequest / b.serverCpuUsPerRequest).toFixed(1)
      : "-";
  console.log(
    `server CPU per request: quote ${cpuRatio(quote, sameQuote)} × same-work, confirm ${cpuRatio(confirm, sameConfirm)} × same-work`,
  );
  console.log(
    `1-min load average: ${loadBefore.toFixed(1)} before, ${os.loadavg()[0].toFixed(1)} after (${os.cpus().length} cores; above ~1 other processes share the machine and req/s drop)`,
  );
  for (const row of rows) {
    if (row.failures.length > 0)
      console.log(`\n${row.server} ${row.route}: ${row.non2xx} non-2xx, e.g.\n  ${row.failures.join("\n  ")}`);
  }
  // A reference that answered errors measured something else: its ratios mean nothing (a schema change once broke it).
  const brokenReference = rows.find((row) => row.server !== "api" && row.non2xx > 0);
  if (brokenReference) {
    console.error(
      `\nthe ${brokenReference.server} reference server answered ${brokenReference.non2xx} non-2xx: the ratios above are not valid`,
    );
    process.exitCode = 1;
  }
  if (profiles) {
    for (const [route, { file, summary }] of Object.entries(profiles))
      console.log(`\n${formatProfile(summary, `profile of ${route} (${file})`)}`);
  }

  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const out = path.join(RESULTS_DIR, `api-${DIALECT}-${stamp}.json`);
  const report = {
    at: new Date().toISOString(),
    node: process.version,
    cpus: cpu.length,
    cpuModel: cpu[0]?.model,
    connections: CONNECTIONS,
    seconds: SECONDS,
    warmupSeconds: WARMUP_SECONDS,
    results: rows,
    ratios,
    dialect: DIALECT,
    target: {
      quoteOverSameWork: TARGET,
      confirmOverSameWork: TARGET,
      quoteP99OverP50: TAIL_TARGET,
      met:
        ratios.quoteOverSameWork >= TARGET &&
        ratios.confirmOverSameWork >= TARGET &&
        ratios.quoteP99OverP50 <= TAIL_TARGET,
    },
    confirmPool: pooled,
    profiles,
    elapsedSeconds,
    loadAverage1m: { before: loadBefore, after: os.loadavg()[0] },
  };
  fs.writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwrote ${path.relative(ROOT, out)} (${elapsedSeconds.toFixed(0)} s)`);
}

await main();
