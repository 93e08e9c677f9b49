// The webhook delivery worker on its own: `npm run worker`. Same configuration as the API (DATABASE_URL,
// ENCRYPTION_KEY or DATA_DIR's key file, WEBHOOK_*). Run several against PostgreSQL to scale out (claims use
// FOR UPDATE SKIP LOCKED and leases); on SQLite run one, and set WEBHOOK_WORKER=off on the API processes.
// SIGTERM/SIGINT: stop claiming, let in-flight deliveries finish (SHUTDOWN_GRACE_MS), release the rest, exit.
import pino from "pino";
import { loadConfig } from "./config.ts";
import { openDatabase } from "./store/open.ts";
import { createSealer, loadEncryptionKey } from "./secrets/sealer.ts";
import { createWebhookWorker } from "./webhooks/worker.ts";
import { allowPrivateWebhookUrls, webhookWorkerOptions } from "./webhooks/config.ts";

const config = loadConfig();
const logger = pino({ level: config.LOG_LEVEL, base: { service: "webhook-worker" } });
const db = openDatabase(config.DATABASE_URL);
const encryption = loadEncryptionKey(config.ENCRYPTION_KEY, config.DATA_DIR);
if (encryption.created) logger.warn({ file: encryption.source }, "created a local encryption key (mode 0600); the API must use the same key");
const { enabled: _ignored, ...options } = webhookWorkerOptions(config);
const worker = createWebhookWorker({ ...options, allowPrivateWebhookUrls: allowPrivateWebhookUrls(config, logger), db, sealer: createSealer(encryption.key), logger });
worker.start();

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "shutting down: finishing in-flight deliveries");
  await worker.stop(config.SHUTDOWN_GRACE_MS);
  await db.close();
  logger.flush?.();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
