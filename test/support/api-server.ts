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
import { createInProcessFetch } from "../../server/in-process-fetch.ts";
import { registerInProcessApi } from "./client.ts";

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

/**
 * How a test's requests reach the API. "socket": a real HTTP server on loopback (the client's address, Content-Length,
 * chunked and streamed bodies, keep-alive: whatever the wire adds). "in-process": the app's fetch handed each Request
 * directly (server/in-process-fetch.ts), no port and no HTTP parsing — for tests whose subject is not the socket.
 */
export type Transport = "socket" | "in-process";

export interface TestApi {
  dialect: Dialect;
  transport: Transport;
  /**
   * The API's base URL. In process its host is made up (`*.in-process.invalid`, which no resolver answers): only
   * `fetch` below and apiClient (test/support/client.ts) reach it, so a request sent anywhere else fails loudly.
   */
  baseUrl: string;
  /** The fetch that reaches this API (the global one over the socket). */
  fetch: typeof fetch;
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
  /**
   * "in-process" unless given — except with `rateLimits`, whose keys are the client's socket address and
   * X-Forwarded-For, which always get a socket. Pass "socket" where the test hands `baseUrl` to a browser or another
   * process, or where the wire is what is under test (body sizes, chunked or multipart bodies, raw HTTP).
   */
  transport?: Transport;
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

let inProcessApiCount = 0;

/** Where the API listens: a server on a loopback port, or a made-up origin routed to its fetch in this process. */
async function attach(api: { fetch(request: Request): Response | Promise<Response> }, transport: Transport) {
  if (transport === "in-process") {
    const inProcessFetch = createInProcessFetch(api) as typeof fetch;
    const origin = `http://api-${process.pid}-${++inProcessApiCount}.in-process.invalid`;
    const unregister = registerInProcessApi(origin, inProcessFetch);
    return { origin, fetch: inProcessFetch, close: async () => void unregister() };
  }
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: api.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    fetch: globalThis.fetch,
    close: () => new Promise<unknown>((resolve) => server.close(resolve)),
  };
}

/**
 * The real API, over a fresh migrated database with one test merchant, reached in process or on a real HTTP server
 * on loopback (`transport`).
 */
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
  const transport = options.transport ?? (options.rateLimits ? "socket" : "in-process");
  const endpoint = await attach(api, transport);
  const createMerchant = (name = "Other Store", allowedOrigins: string[] = []) =>
    database.db.transaction((tx) => createTestMerchant(tx, services, { name, allowedOrigins }));
  const merchant = await createMerchant("Test Store");
  return {
    dialect: options.dialect,
    transport,
    baseUrl: `${endpoint.origin}/api/v1`,
    fetch: endpoint.fetch,
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
      await endpoint.close();
      await Promise.all([api.webhooks.stop(0), api.email?.stop()]);
      await limiter?.close();
      await database.drop();
      fs.rmSync(evidenceDir, { recursive: true, force: true });
    },
  };
}
