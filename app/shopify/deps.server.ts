// What the Shopify side's handlers use, gathered once: the protection API's database and services, the core's Shopify
// use cases, the sealer for the shops' keys, an SDK client per shop over the in-process transport, the Admin API per
// shop, the job queue.
// Tests build the same object around a test database and a fake Admin API (test/support/shopify.ts).
import { createHmac } from "node:crypto";
import type { Logger } from "pino";
import { deriveKey, type Core, type Database, type Sealer, type Services } from "../../server/index.ts";
import { ProtectionClient, type FetchLike } from "../../packages/sdk/src/index.ts";
import type { AdminGraphql } from "./admin/graphql.ts";
import { installationReader, type Installation } from "./installations.server.ts";

export interface ShopifyDeps {
  db: Database;
  services: Services;
  logger: Logger;
  sealer: Sealer;
  /** The app's public URL (the storefront config points the widget and the checkout extension at it). */
  appUrl: string;
  /** The installed shop, or undefined when it never installed or has uninstalled (then there is nothing to do). */
  installation(shop: string): Promise<Installation | undefined>;
  /** The core's Shopify use cases (server/core/shopify.ts): orders/create's quote, confirm and rows in one unit. */
  shopify: Core["shopify"];
  /** An SDK client acting with the shop's secret key against the bundled API. */
  protectionClient(installation: Installation): ProtectionClient;
  /**
   * The Idempotency-Key of one API call for an order: stable across retries and duplicate deliveries, unique per
   * step, and unpredictable to anyone without the server's encryption key (an outsider who could predict it could
   * pre-claim it).
   */
  idempotencyKey(shop: string, orderId: string, step: string): string;
  /** The Admin GraphQL API with the shop's offline session. */
  adminApi(shop: string): Promise<AdminGraphql>;
  /** Shopify sessions (Prisma session storage). */
  deleteSessions(shop: string): Promise<void>;
  updateSessionScopes(shop: string, scopes: string[]): Promise<void>;
  /** The shops whose offline session's refresh token ends before `before` (app/shopify/offline-tokens.server.ts). */
  agingOfflineSessions(before: Date): Promise<string[]>;
  /** Follow-up jobs were enqueued: look for them now rather than at the next poll. */
  wakeJobs(): void;
}

export interface DepsInput extends Omit<ShopifyDeps, "installation" | "protectionClient" | "idempotencyKey"> {
  /** How the SDK reaches the API: `createInProcessFetch(api)` in the app. */
  apiFetch: FetchLike;
  /** The runtime's encryption key: the idempotency keys' HMAC key is derived from it. */
  encryptionKey: Buffer;
}

/** The in-process API ignores the host; the path is what routes. */
const IN_PROCESS_BASE_URL = "http://in-process/api/v1";

export function createShopifyDeps(input: DepsInput): ShopifyDeps {
  const { apiFetch, encryptionKey, ...rest } = input;
  const readInstallation = installationReader(input.db, openingOnce(input.sealer));
  const idempotencyHmacKey = deriveKey(encryptionKey, "shopify-idempotency-keys");
  return {
    ...rest,
    async installation(shop) {
      const installation = await readInstallation(shop);
      return installation?.status === "installed" ? installation : undefined;
    },
    // Cancellations and refunds reach the core through the SDK and the in-process fetch: exactly the HTTP path any
    // other cart's server takes (orders/create is the core's unit of work, `shopify`). One attempt per call: the job
    // queue owns retries (with its longer backoff), so a job never stalls in the SDK.
    protectionClient: (installation) =>
      new ProtectionClient({
        apiKey: installation.secretKey,
        baseUrl: IN_PROCESS_BASE_URL,
        fetch: apiFetch,
        retry: { maxAttempts: 1 },
        timeoutMs: 10_000,
      }),
    idempotencyKey: (shop, orderId, step) =>
      `shopify-${createHmac("sha256", idempotencyHmacKey).update(`${shop}\u0000${orderId}\u0000${step}`).digest("base64url")}`,
  };
}

/**
 * Every order job reads its shop's installation; decrypting the same sealed key each time showed in profiles. A
 * sealed value never changes meaning (a new key is a new sealed value), so its plaintext can be remembered.
 */
function openingOnce(sealer: Sealer): Sealer {
  const opened = new Map<string, string>();
  return {
    seal: (plaintext) => sealer.seal(plaintext),
    hash: (plaintext) => sealer.hash(plaintext),
    open(sealed) {
      let plaintext = opened.get(sealed);
      if (plaintext === undefined) {
        if (opened.size >= 10_000) opened.clear();
        opened.set(sealed, (plaintext = sealer.open(sealed)));
      }
      return plaintext;
    },
  };
}
