import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import pino from "pino";
import { randomBytes } from "node:crypto";
import { createProtectionApi, type ProtectionApiOptions } from "../../server/api.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";
import type { Services } from "../../server/domain/context.ts";
import { createTestMerchant, type NewMerchant } from "../../server/domain/merchants.ts";
import { filesystemEvidenceStore } from "../../server/evidence/index.ts";
import { createTestDatabase, type Dialect, type TestDatabase } from "./databases.ts";
import { createLimiter, type Limiter, type LimiterOptions } from "../../server/rate-limits/limiter.ts";

/** A clock tests move by hand. */
export class TestClock {
  now: number;
  constructor(start = Date.parse("2026-11-22T12:00:00.000Z")) {
    this.now = start;
  }
  advance(ms: number) {
    this.now += ms;
  }
  readonly read = () => this.now;
}

export interface TestApi {
  dialect: Dialect;
  baseUrl: string;
  database: TestDatabase;
  services: Services;
  clock: TestClock;
  merchant: NewMerchant;
  api: ReturnType<typeof createProtectionApi>;
  /** The key the API seals secrets with (and derives coverage-link tokens from). */
  encryptionKey: Buffer;
  /** The rate limiter when `rateLimits` was given. */
  limiter?: Limiter;
  /** The folder of the evidence store (a temporary one of this server's). */
  evidenceDir: string;
  /** Another merchant in the same database (for isolation tests). */
  createMerchant(name?: string, allowedOrigins?: string[]): Promise<NewMerchant>;
  close(): Promise<void>;
}

export interface TestApiOptions {
  dialect: Dialect;
  companyName?: string;
  inFlightWaitMs?: number;
  afterSideEffects?: ProtectionApiOptions["afterSideEffects"];
  random?: Services["random"];
  logger?: ProtectionApiOptions["logger"];
  /** Rate limits on the test clock (off unless given: other suites make many requests from one address). */
  rateLimits?: Pick<LimiterOptions, "redisUrl" | "keyPrefix" | "edge" | "stores"> & { trustProxy?: number };
  /** Webhook worker settings (schedule, timeout, …); the worker is not started: tests call `api.webhooks.runOnce()`. */
  webhooks?: ProtectionApiOptions["webhooks"];
  /** DNS seam for webhook URL checks. */
  resolveHost?: Services["resolveHost"];
  /** WEBHOOK_ALLOW_PRIVATE_URLS=on: test-mode endpoints may use receivers on loopback (off unless given, as in production). */
  allowPrivateWebhookUrls?: boolean;
  /** The e-mail worker's transport (not started: tests call `api.email.runOnce()`). */
  email?: ProtectionApiOptions["email"];
}

/** The real API on a real HTTP server on loopback, over a fresh migrated database with one test merchant. */
export async function startTestApi(options: TestApiOptions): Promise<TestApi> {
  const database = await createTestDatabase(options.dialect);
  // Claim evidence in a temporary folder of its own, removed with the database.
  const evidenceDir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-evidence-"));
  const clock = new TestClock();
  const services: Services = {
    clock: clock.read,
    random: options.random ?? cryptoRandom,
    settings: {
      companyName: options.companyName ?? "Test Protection Ltd",
      portalUrl: "https://portal.example.test",
      allowPrivateWebhookUrls: options.allowPrivateWebhookUrls,
    },
    resolveHost: options.resolveHost,
    evidence: filesystemEvidenceStore(evidenceDir),
  };
  const logger = options.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });
  const limiter = options.rateLimits && createLimiter({ ...options.rateLimits, clock: clock.read, logger });
  const encryptionKey = randomBytes(32);
  const api = createProtectionApi({
    db: database.db,
    services,
    encryptionKey,
    logger,
    rateLimits: limiter && { limiter, trustProxy: options.rateLimits?.trustProxy ?? 0 },
    inFlightWaitMs: options.inFlightWaitMs,
    afterSideEffects: options.afterSideEffects,
    webhooks: options.webhooks,
    email: options.email,
  });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: api.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const createMerchant = (name = "Other Store", allowedOrigins: string[] = []) =>
    database.db.transaction((tx) => createTestMerchant(tx, services, { name, allowedOrigins }));
  const merchant = await createMerchant("Test Store");
  return {
    dialect: options.dialect,
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    database,
    services,
    clock,
    merchant,
    api,
    encryptionKey,
    limiter,
    evidenceDir,
    createMerchant,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await Promise.all([api.webhooks.stop(0), api.email?.stop()]);
      await limiter?.close();
      await database.drop();
      fs.rmSync(evidenceDir, { recursive: true, force: true });
    },
  };
}
