import type { MiddlewareHandler } from "hono";
import type { Principal } from "../domain/merchants.ts";
import { errors } from "./errors.ts";
import type { ApiEnv } from "./env.ts";
import { mayUseFromOrigin } from "./auth.ts";

const ALLOWED_HEADERS = "Authorization, Content-Type, Idempotency-Key, X-Merchant-Id";
const EXPOSED_HEADERS =
  "X-Service-Quote-Token, Idempotent-Replayed, X-Request-Id, Retry-After, Deprecation, Sunset, Link";

/**
 * Browser access for the publishable-key routes (quote, confirm, decline). A preflight carries no key, so it is
 * answered for any origin. The real request runs after the key is identified (auth.ts) and gets CORS headers only
 * when a page may read the answer: a publishable key used from an origin it may be used from (test keys: any origin;
 * live keys: the merchant's own), or no valid key at all (so the page can read its 401). A secret key never gets CORS
 * headers — on any response, a 429 included.
 */
export function browserAccess(): MiddlewareHandler<ApiEnv> {
  return async function corsForPublishableKeys(c, next) {
    const origin = c.req.header("origin");
    if (c.req.method === "OPTIONS") {
      if (!origin) return c.body(null, 204);
      return c.body(null, 204, {
        "Access-Control-Allow-Origin": origin,
        "Access-Control-Allow-Methods": "POST",
        "Access-Control-Allow-Headers": ALLOWED_HEADERS,
        "Access-Control-Max-Age": "600",
        Vary: "Origin",
      });
    }
    // Set before the response exists: cheaper, and errors thrown later (401, 429) stay readable by the page.
    c.header("Vary", "Origin");
    const principal = c.get("principal") as Principal | undefined;
    const readable =
      principal === undefined || (principal.kind === "publishable" && mayUseFromOrigin(principal, origin));
    if (origin && readable) {
      c.header("Access-Control-Allow-Origin", origin);
      c.header("Access-Control-Expose-Headers", EXPOSED_HEADERS);
    }
    await next();
  };
}

/** Runs after authentication: a live publishable key used from a foreign origin is refused outright. */
export function originPolicy(): MiddlewareHandler<ApiEnv> {
  return async function enforceOrigin(c, next) {
    const origin = c.req.header("origin");
    if (!mayUseFromOrigin(c.get("principal"), origin)) throw errors.originNotAllowed(origin!);
    await next();
  };
}
