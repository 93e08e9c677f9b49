import { z } from "zod";
import { DEFAULT_DATABASE_URL } from "./store/open.ts";
import { DEFAULT_COMMAND_TIMEOUT_MS } from "./rate-limits/redis-store.ts";
import { DEFAULT_RETRY_AFTER_MS } from "./rate-limits/breaker.ts";
import { PERIODIC_JOBS_INTERVAL_MS, periodicJobsSetting } from "./workers/periodic-jobs-setting.ts";
import { DEFAULT_STALLED_AFTER_DAYS } from "./domain/delivery-states.ts";

/** How often the action digest's round looks for members due a digest (DIGEST_POLL_MS): one waits at most this long. */
export const DIGEST_POLL_MS = 60_000;

/** Everything the service reads from the environment, with the embedded defaults. */
const environment = z.object({
  DATABASE_URL: z.string().default(DEFAULT_DATABASE_URL),
  HOST: z.string().default("127.0.0.1"),
  PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  COMPANY_NAME: z.string().min(1).default("Purchase Protection Inc."),
  PORTAL_URL: z.url().optional(),
  /** The claims team's console, as its sign-in e-mails link to it; default: the portal's origin + /ops. */
  OPS_URL: z.url().optional(),
  /** The standalone merchant dashboard, as its sign-in e-mails link to it; default: the portal's origin + /dashboard. */
  DASHBOARD_URL: z.url().optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  DATA_DIR: z.string().default(".data"),
  ENCRYPTION_KEY: z.string().optional(),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  /** `off`: this process does not deliver webhooks (run `npm run worker` processes instead). */
  WEBHOOK_WORKER: z.enum(["on", "off"]).default("on"),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /**
   * How long a claimed delivery's lease holds without renewal (renewed every third of it while the request runs), so
   * the longest a dead worker holds its endpoints up (default: WEBHOOK_TIMEOUT_MS, at least 3 s).
   */
  WEBHOOK_LEASE_MS: z.coerce.number().int().min(1_000).optional(),
  /**
   * Unset: a webhook worker's id is random for each start. Set to a name unique among the running workers and stable
   * across restarts: a restarted worker hands back at once the deliveries its dead predecessor left leased.
   */
  WORKER_ID: z
    .string()
    .regex(/^[^\s/]{1,64}$/, "up to 64 characters, no spaces or slashes")
    .optional(),
  WEBHOOK_POLL_MS: z.coerce.number().int().min(5).default(50),
  WEBHOOK_BATCH_SIZE: z.coerce.number().int().min(1).max(1_000).default(100),
  /** `on`: test-mode webhook endpoints may reach loopback and private addresses (local development; warned at start). */
  WEBHOOK_ALLOW_PRIVATE_URLS: z.enum(["on", "off"]).default("off"),
  /** E-mail to buyers (welcome_protected): an SMTP URL (smtp[s]://user:pass@host:port); unset: .eml files in DATA_DIR/mail. */
  SMTP_URL: z.string().min(1).optional(),
  /** The From header; default "<COMPANY_NAME> <protection@localhost>". */
  EMAIL_FROM: z.string().min(3).optional(),
  /** `off`: this process sends no e-mail (another process does). */
  EMAIL_WORKER: z.enum(["on", "off"]).default("on"),
  /** How often the e-mail worker's process looks for members due a digest of what needs them, and sends it. */
  DIGEST_POLL_MS: z.coerce.number().int().min(100).default(DIGEST_POLL_MS),
  /** Days without a carrier scan after which a parcel in transit is presumed lost (docs/api.md "Delivery states"). */
  DELIVERY_STALLED_AFTER_DAYS: z.coerce.number().int().min(1).max(90).default(DEFAULT_STALLED_AFTER_DAYS),
  /** Which periodic jobs this process runs (server/workers/periodic-jobs.ts): auto (workers first), on, off, or a list. */
  PERIODIC_JOBS: periodicJobsSetting.default("auto"),
  /** How often each periodic job runs, across all the processes that run it. */
  PERIODIC_JOBS_INTERVAL_MS: z.coerce.number().int().min(1_000).default(PERIODIC_JOBS_INTERVAL_MS),
  /** Rate limits (docs/api.md "Rate limits"): shared by every instance through Redis when set, else in this process's memory. */
  REDIS_URL: z.string().min(1).optional(),
  RATE_LIMIT_KEY_PREFIX: z.string().default("ratelimit:"),
  /** A limiter command Redis has not answered after this long has failed (docs/operations.md "Redis and the rate limiter"). */
  REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(1).default(DEFAULT_COMMAND_TIMEOUT_MS),
  /** Once the limiter's Redis breaker has opened, how long before a PING tests Redis again. */
  REDIS_BREAKER_RETRY_MS: z.coerce.number().int().min(10).default(DEFAULT_RETRY_AFTER_MS),
  /** `off` disables every rate limit (benchmarks only; logged as a warning at start). */
  RATE_LIMITS: z.enum(["on", "off"]).default("on"),
  /** `off` drops the edge-WAF policies, for deployments with a real WAF in front. */
  EDGE_LIMITS: z.enum(["on", "off"]).default("on"),
  /** How many proxies in front are trusted to append X-Forwarded-For (0: the socket address is the client). */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /** The listener for /metrics, /healthz and /readyz (docs/operations.md "Metrics"); unset: none. Never the public port. */
  METRICS_PORT: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(0).max(65535).optional()),
  METRICS_HOST: z.string().default("127.0.0.1"),
  /** How long the queue gauges' figures are reused before a scrape reads the database again. */
  METRICS_QUEUE_CACHE_MS: z.coerce.number().int().min(0).default(5_000),
  /** `on`: the buyer portal also serves the pseudo-locale en-XA (longer, accented English) to check layouts; never in production. */
  BUYER_PSEUDO_LOCALE: z.enum(["on", "off"]).default("off"),
  /** `on` only in `npm run demo`: serves the demo storefront page (/demo) with the test-mode demo merchant. */
  DEMO: z.enum(["on", "off"]).default("off"),
});

export type Config = z.output<typeof environment> & {
  PORTAL_URL: string;
  OPS_URL: string;
  DASHBOARD_URL: string;
  EMAIL_FROM: string;
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environment.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Invalid configuration: ${issue.path.join(".")}: ${issue.message}`);
  }
  const config = parsed.data;
  const portalUrl = (config.PORTAL_URL ?? `http://${config.HOST}:${config.PORT}/portal`).replace(/\/$/, "");
  return {
    ...config,
    PORTAL_URL: portalUrl,
    // Never the request's Host header: a sign-in link must not point wherever a request says.
    OPS_URL: (config.OPS_URL ?? new URL("/ops", portalUrl).href).replace(/\/$/, ""),
    DASHBOARD_URL: (config.DASHBOARD_URL ?? new URL("/dashboard", portalUrl).href).replace(/\/$/, ""),
    EMAIL_FROM: config.EMAIL_FROM ?? `${config.COMPANY_NAME.replace(/["<>]/g, "")} <protection@localhost>`,
  };
}
