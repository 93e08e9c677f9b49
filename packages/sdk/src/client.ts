import { ServiceValidationError } from "./errors.ts";
import { Transport, type FetchLike, type Query } from "./request.ts";
import { DEFAULT_RETRY, type RetryOptions } from "./retry.ts";
import { Offers } from "./resources/offers.ts";
import { Refunds } from "./resources/refunds.ts";
import { Shipments } from "./resources/shipments.ts";
import { Claims, Purchases } from "./resources/lists.ts";
import { Headless } from "./resources/headless.ts";
import { Events } from "./resources/events.ts";
import { Settlements } from "./resources/settlements.ts";
import { Programs } from "./resources/programs.ts";
import { WebhookEndpoints } from "./resources/webhook-endpoints.ts";
import { Merchants } from "./resources/merchants.ts";
import { Webhooks } from "./webhooks.ts";

export const SDK_VERSION = "0.1.0";
/** The standalone API started by `npm run api`; set `baseUrl` to your deployment. */
export const DEFAULT_BASE_URL = "http://127.0.0.1:8787/api/v1";
export const DEFAULT_TIMEOUT_MS = 30_000;

export interface ProtectionClientOptions {
  /** A merchant secret key (mch_…), a restricted key (rk_…: not void, refunds, claim resolutions or fee refunds) or, for quote/confirm/decline only, a publishable key (wk_…). */
  apiKey: string;
  /** The API base including /api/v1. Default DEFAULT_BASE_URL. */
  baseUrl?: string;
  /** Default globalThis.fetch. Pass `createInProcessFetch(api)` to call an embedded API without a socket. */
  fetch?: FetchLike;
  /** Waits between attempts. Default setTimeout. */
  sleep?: (ms: number) => Promise<void>;
  /** Per attempt, reading the body included. Default 30 000 ms. */
  timeoutMs?: number;
  retry?: Partial<RetryOptions>;
  /** Clock in epoch milliseconds (Retry-After dates, webhook tolerance). Default Date.now. */
  now?: () => number;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class ProtectionClient {
  readonly offers: Offers;
  /** Alias of `offers`. */
  readonly quotes: Offers;
  readonly refunds: Refunds;
  /** Delivery facts: shipments of protected orders and their carriers' scans. */
  readonly shipments: Shipments;
  readonly claims: Claims;
  readonly purchases: Purchases;
  readonly headless: Headless;
  readonly events: Events;
  readonly settlements: Settlements;
  /** The merchant's protection programs: their ids and terms. */
  readonly programs: Programs;
  readonly webhookEndpoints: WebhookEndpoints;
  readonly merchants: Merchants;
  /** Verifies the signatures of the webhooks you receive. */
  readonly webhooks: Webhooks;
  readonly #transport: Transport;

  constructor(options: ProtectionClientOptions) {
    if (typeof options?.apiKey !== "string" || options.apiKey.trim() === "")
      throw new ServiceValidationError("apiKey must be a non-empty string");
    const retry = { ...DEFAULT_RETRY, ...options.retry };
    validateRetry(retry);
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!(timeoutMs > 0)) throw new ServiceValidationError("timeoutMs must be a positive number");
    const fetch = options.fetch ?? globalThis.fetch?.bind(globalThis);
    if (typeof fetch !== "function") throw new ServiceValidationError("No fetch: pass options.fetch");
    const now = options.now ?? Date.now;

    this.#transport = new Transport({
      apiKey: options.apiKey,
      baseUrl: (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, ""),
      fetch,
      sleep: options.sleep ?? defaultSleep,
      now,
      random: Math.random,
      timeoutMs,
      retry,
      userAgent: `purchase-protection-sdk-js/${SDK_VERSION}`,
    });
    this.offers = new Offers(this.#transport);
    this.quotes = this.offers;
    this.refunds = new Refunds(this.#transport);
    this.shipments = new Shipments(this.#transport);
    this.claims = new Claims(this.#transport);
    this.purchases = new Purchases(this.#transport);
    this.headless = new Headless(this.#transport);
    this.events = new Events(this.#transport);
    this.settlements = new Settlements(this.#transport);
    this.programs = new Programs(this.#transport);
    this.webhookEndpoints = new WebhookEndpoints(this.#transport);
    this.merchants = new Merchants(this.#transport);
    this.webhooks = new Webhooks(now);
  }

  // The generic methods reach a route by its path, for example one newer than this SDK; the caller names the
  // response type (`client.get<MerchantMetrics>(…)`), which is `unknown` until it does.

  /** POST any route with a JSON body (sent as given: no key conversion). */
  post<T = unknown>(path: string, payload: object = {}, idempotencyKey?: string): Promise<T> {
    return this.#send("POST", path, JSON.stringify(payload), idempotencyKey);
  }

  /** GET any route. */
  get<T = unknown>(path: string, query: Query = {}): Promise<T> {
    return this.#transport.body({ method: "GET", path, query });
  }

  /** POST any route with the body bytes exactly as given (for example canonical JSON). */
  postRaw<T = unknown>(path: string, rawJsonBody: string, idempotencyKey?: string): Promise<T> {
    if (typeof rawJsonBody !== "string")
      return Promise.reject(new ServiceValidationError("rawJsonBody must be a string"));
    return this.#send("POST", path, rawJsonBody, idempotencyKey);
  }

  /** PATCH any route with a JSON body. */
  patch<T = unknown>(path: string, payload: object = {}, idempotencyKey?: string): Promise<T> {
    return this.#send("PATCH", path, JSON.stringify(payload), idempotencyKey);
  }

  /** DELETE any route. */
  delete<T = unknown>(path: string, idempotencyKey?: string): Promise<T> {
    return this.#send("DELETE", path, undefined, idempotencyKey);
  }

  #send<T>(
    method: "POST" | "PATCH" | "DELETE",
    path: string,
    body: string | undefined,
    idempotencyKey: string | undefined,
  ): Promise<T> {
    return this.#transport.body({ method, path, body, idempotencyKey });
  }
}

function validateRetry(retry: RetryOptions) {
  const check = (ok: boolean, message: string) => {
    if (!ok) throw new ServiceValidationError(`retry.${message}`);
  };
  check(Number.isInteger(retry.maxAttempts) && retry.maxAttempts >= 1, "maxAttempts must be an integer ≥ 1");
  check(retry.baseDelayMs >= 0, "baseDelayMs must be ≥ 0");
  check(retry.multiplier >= 1, "multiplier must be ≥ 1");
  check(retry.retryAfterCeilingSeconds >= 0, "retryAfterCeilingSeconds must be ≥ 0");
  check(typeof retry.jitter === "boolean", "jitter must be a boolean");
}
