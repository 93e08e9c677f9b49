// The server's background workers on their own: `npm run worker` runs them all (webhook deliveries, e-mails, purges);
// `npm run worker -- --only webhooks,email` runs a set (the periodic jobs among them also as PERIODIC_JOBS says:
// server/workers/periodic-jobs.ts). Same configuration as the API (DATABASE_URL, ENCRYPTION_KEY or
// DATA_DIR's key file, WEBHOOK_*, SMTP_URL, EMAIL_FROM); WEBHOOK_WORKER and EMAIL_WORKER are for the API processes
// (set them off there when a worker process does the work). Run several against PostgreSQL to scale out (claims use
// FOR UPDATE SKIP LOCKED and leases); on SQLite run one. WORKER_ID, unique per process and kept across restarts, lets a
// restarted worker hand on sooner the webhook deliveries it was making when it died (docs/operations.md).
// SIGTERM/SIGINT (to npm too: the script execs node): stop claiming, let in-flight work finish (SHUTDOWN_GRACE_MS),
// release the rest, exit 0.
// METRICS_PORT: /metrics, /healthz and /readyz on a listener of their own (the worker's only HTTP).
import pino from "pino";
import { loadConfig } from "./config.ts";
import { openDatabase } from "./store/open.ts";
import { createSealer, loadEncryptionKey } from "./secrets/sealer.ts";
import { webhookWorkerOptions } from "./webhooks/config.ts";
import { emailFrom, servicesFrom } from "./runtime.ts";
import { createBackgroundJobs } from "./workers/background-jobs.ts";
import { workersToRun } from "./workers/only-option.ts";
import { periodicJobsPlan } from "./workers/periodic-jobs.ts";
import { PERIODIC_JOB_NAMES, type PeriodicJobName } from "./workers/periodic-jobs-setting.ts";
import { startProbeServer } from "./observability/probe-server.ts";
import { exitOnceClosed } from "./graceful-shutdown.ts";

const only = workersToRun(process.argv.slice(2));
const config = loadConfig();
const logger = pino({ level: config.LOG_LEVEL, base: { service: "worker" } });
const db = openDatabase(config.DATABASE_URL);
const encryption = loadEncryptionKey(config.ENCRYPTION_KEY, config.DATA_DIR);
if (encryption.created)
  logger.warn({ file: encryption.source }, "created a local encryption key (mode 0600); the API must use the same key");
const services = servicesFrom(config, logger);
const sealer = createSealer(encryption.key);
const periodicPlan = periodicJobsPlan(config.PERIODIC_JOBS, "worker", only);
const background = createBackgroundJobs({
  db,
  services,
  encryptionKey: encryption.key,
  sealer,
  logger,
  webhooks: { ...webhookWorkerOptions(config), enabled: only.has("webhooks") },
  email: { ...emailFrom(config, logger), enabled: only.has("email") },
  periodic: {
    plan: periodicPlan,
    role: "worker",
    intervalMs: config.PERIODIC_JOBS_INTERVAL_MS,
  },
});
background.start();
// What runs here: --only's names, less the periodic jobs PERIODIC_JOBS leaves out.
const running = [...only].filter(
  (name) => !(PERIODIC_JOB_NAMES as readonly string[]).includes(name) || periodicPlan.has(name as PeriodicJobName),
);
logger.info({ workers: running }, "worker process started");

let stopping = false;
await startProbeServer({ db: () => db, isDraining: () => stopping, config, logger });
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "shutting down: finishing in-flight work");
  await background.stop(config.SHUTDOWN_GRACE_MS);
  exitOnceClosed(() => db.close(), { graceMs: config.SHUTDOWN_GRACE_MS, logger });
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
