import type { Context, MiddlewareHandler } from "hono";
import type { KeyKind } from "../domain/ids.ts";
import { authenticateKey, type Principal } from "../domain/merchants.ts";
import type { Queryable } from "../store/database.ts";
import { errors } from "./errors.ts";
import type { ApiEnv } from "./env.ts";

// Authentication in two steps, so that the rate limiter and CORS can run between them (app.ts): `identifyKey`
// resolves `Authorization: Bearer <key>` to a principal without rejecting anything, `authorizeKey` then rejects a
// missing or invalid key and enforces the route's key policy (the `keys` column of routes.ts) — the one place the
// widget key's restriction is enforced. `authorizedPrincipal` is the same decision without throwing, for the
// middleware in between.

/** Sets `principal` when the request carries a valid key, else `keyProblem`. Never rejects. */
export function identifyKey(db: Queryable): MiddlewareHandler<ApiEnv> {
  return async function identifyRequestKey(c, next) {
    const header = c.req.header("authorization");
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    const principal = match ? await authenticateKey(db, match[1]) : undefined;
    if (principal) c.set("principal", principal);
    else c.set("keyProblem", header ? "invalid" : "missing");
    await next();
  };
}

/** Rejects a request without a valid key (401) or with a key kind the route does not allow (403). */
export function authorizeKey(allowed: readonly KeyKind[]): MiddlewareHandler<ApiEnv> {
  return async function authorizeRequestKey(c, next) {
    const problem = c.get("keyProblem");
    if (problem === "missing") throw errors.apiKeyMissing();
    if (problem === "invalid") throw errors.apiKeyInvalid();
    if (!allowed.includes(c.get("principal").kind)) throw errors.secretKeyRequired();
    await next();
  };
}

/** Test publishable keys may be used from any origin, live ones only from the merchant's own origins. */
export function mayUseFromOrigin(principal: Principal, origin: string | undefined): boolean {
  return (
    origin === undefined ||
    principal.kind !== "publishable" ||
    principal.mode === "test" ||
    principal.allowedOrigins.includes(origin)
  );
}

/**
 * The request's principal when it will pass authorizeKey and the origin policy (cors.ts), else undefined: a
 * missing or invalid key, a key kind the route does not allow, a live publishable key from a foreign origin.
 */
export function authorizedPrincipal(c: Context<ApiEnv>, allowed: readonly KeyKind[]): Principal | undefined {
  const principal = c.get("principal") as Principal | undefined;
  if (!principal || !allowed.includes(principal.kind)) return undefined;
  return mayUseFromOrigin(principal, c.req.header("origin")) ? principal : undefined;
}
