import type { MiddlewareHandler } from "hono";
import { errors } from "./errors.ts";
import type { ApiEnv } from "./env.ts";

const ALLOWED_HEADERS = "Authorization, Content-Type, Idempotency-Key, X-Merchant-Id";
const EXPOSED_HEADERS = "X-Service-Quote-Token, Idempotent-Replayed, X-Request-Id, Retry-After";

/**
 * Browser access for the publishable-key routes (quote, confirm, decline). A preflight carries no key, so it
 * is answered for any origin; the real request is then checked against the key: test keys may be used from
 * any origin, live keys only from the merchant's own origins. Secret keys get no CORS headers at all.
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
    // Set before the response exists (cheaper, and errors before authentication stay readable by the page);
    // originPolicy withdraws them once the key turns out not to be allowed here.
    c.header("Vary", "Origin");
    if (origin) {
      c.header("Access-Control-Allow-Origin", origin);
      c.header("Access-Control-Expose-Headers", EXPOSED_HEADERS);
    }
    await next();
  };
}

/**
 * Runs after authentication: only a publishable key used from an origin it may be used from keeps the CORS
 * headers; a live publishable key used from a foreign origin is refused outright.
 */
export function originPolicy(): MiddlewareHandler<ApiEnv> {
  return async function enforceOrigin(c, next) {
    const origin = c.req.header("origin");
    const principal = c.get("principal");
    if (origin && !(principal.kind === "publishable" && mayUse(principal.mode, principal.allowedOrigins, origin))) {
      c.header("Access-Control-Allow-Origin", undefined);
      c.header("Access-Control-Expose-Headers", undefined);
      if (principal.kind === "publishable") throw errors.originNotAllowed(origin);
    }
    await next();
  };
}

function mayUse(mode: string, allowedOrigins: string[], origin: string): boolean {
  return mode === "test" || allowedOrigins.includes(origin);
}
