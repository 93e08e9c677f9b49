// The host APIs the widget uses (fetch, crypto, console, Intl), behind one small wrapper.
import { TAG } from "./events.ts";

export const TIMEOUT_MS = 3000;

export interface ApiResult<Body> {
  status: number;
  /** The JSON answer (null when it is not JSON): untrusted, so callers check each field before they use it. */
  body: Body | null;
  /** The X-Service-Quote-Token header: kept by the caller in its closure, never stored anywhere else. */
  token: string | null;
}

/** The header of a JSON request body (the API's and the Shopify cart's). */
export const JSON_CONTENT = { "Content-Type": "application/json" };

/**
 * 144 random bits as nine decimal numbers joined by "_", 17 to 53 characters (idempotency keys, cart order ids):
 * crypto.randomUUID is missing before Safari 15.4, and hex digits cost the byte budget more.
 */
export const uuid = (): string => crypto.getRandomValues(new Uint16Array(9)).join("_");

/**
 * POST {apiBase}{path} with the publishable key and an idempotency key. Aborted after 3 s (or by `controller`);
 * rejects on network failure, CSP refusal or timeout, so callers decide what "unavailable" means.
 */
export function post<Body>(
  apiBase: string,
  key: string,
  path: string,
  body: unknown,
  idempotencyKey: string,
  controller = new AbortController(),
): Promise<ApiResult<Body>> {
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  return fetch(apiBase + path, {
    method: "POST",
    signal: controller.signal,
    credentials: "omit",
    headers: { ...JSON_CONTENT, Authorization: `Bearer ${key}`, "Idempotency-Key": idempotencyKey },
    body: JSON.stringify(body),
  })
    .then(async (response) => ({
      status: response.status,
      body: await response.json().catch(() => null),
      token: response.headers.get("X-Service-Quote-Token"),
    }))
    .finally(() => clearTimeout(timer));
}

/** A rejected Promise whose Error message is `reason` (the confirm's reason codes). */
export const refuse = (reason: string): Promise<never> => Promise.reject(new Error(reason));

export type Log = (...parts: unknown[]) => void;

/** Diagnostic lines only with the `debug` attribute, each prefixed [service-widget]. */
export const logger = (debug: boolean): Log => (debug ? (...parts) => console.info(`[${TAG}]`, ...parts) : () => {});

/** The storefront's language: Shopify's, else the page's, else the browser's (packages/widget/README.md "Languages"). */
export const pageLocale = () => window.Shopify?.locale || document.documentElement.lang || navigator.language;
