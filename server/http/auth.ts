import type { Context, MiddlewareHandler } from "hono";
import { authenticateKey } from "../domain/merchants.ts";
import { authenticatePortalToken, isPortalToken } from "../domain/portal.ts";
import type { Queryable } from "../store/database.ts";
import { errors } from "./errors.ts";
import type { ApiEnv } from "./env.ts";
import { ANONYMOUS_CALLER, type Caller, type CallerKind } from "./route.ts";

// Authentication in two steps, so that the rate limiter and CORS can run between them (app.ts): `identifyKey`
// resolves `Authorization: Bearer <credential>` — a merchant key or a buyer's portal session — to a principal
// without rejecting anything, `authorizeKey` then rejects a missing or invalid credential and enforces the route's
// key policy (the `keys` column of routes.ts) — the one place the widget key's restriction and the portal's
// separation from merchant keys are enforced. `authorizedPrincipal` is the same decision without throwing, for the
// middleware in between.

/** Sets `principal` when the request carries a valid key or live portal session, else `keyProblem`. Never rejects. */
export function identifyKey(db: Queryable, clock: () => number): MiddlewareHandler<ApiEnv> {
  return async function identifyRequestKey(c, next) {
    const header = c.req.header("authorization");
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    const credential = match?.[1];
    const principal =
      credential === undefined
        ? undefined
        : isPortalToken(credential)
          ? await authenticatePortalToken(db, credential, clock())
          : await authenticateKey(db, credential, clock());
    // A live key of a merchant that has not gone live identifies nobody: 403 live_mode_not_enabled.
    if (principal && principal.kind !== "portal" && principal.mode === "live" && !principal.merchantLive)
      c.set("keyProblem", "not_live");
    else if (principal) c.set("principal", principal);
    else c.set("keyProblem", header ? "invalid" : "missing");
    await next();
  };
}

/**
 * Rejects a request whose caller the route does not allow. Anyone: always admitted, as the anonymous caller.
 * Portal routes: a merchant key is 403 portal_session_required, no or a bad/expired token 401 portal_session_invalid.
 * AfterShip's callbacks: a signature that does not check (signed-callback.ts) is 401 signature_invalid, a key or none.
 * Merchant routes: no key 401 api_key_missing, a bad key — a portal token included — 401 api_key_invalid, a live key
 * before its merchant went live 403 live_mode_not_enabled, a key kind the route does not allow 403 secret_key_required.
 */
export function authorizeKey(allowed: readonly CallerKind[]): MiddlewareHandler<ApiEnv> {
  return async function authorizeRequestKey(c, next) {
    if (allowed.includes("anyone")) {
      c.set("principal", ANONYMOUS_CALLER);
      return next();
    }
    const principal = c.get("principal") as Caller | undefined;
    if (allowed.includes("aftership")) {
      if (principal?.kind === "aftership") return next();
      throw errors.callbackSignatureInvalid();
    }
    if (allowed.includes("portal")) {
      if (principal?.kind === "portal") return next();
      if (principal !== undefined) throw errors.portalSessionRequired();
      throw errors.portalSessionInvalid();
    }
    const problem = c.get("keyProblem");
    if (problem === "missing") throw errors.apiKeyMissing();
    if (problem === "not_live") throw errors.liveModeNotEnabled();
    if (problem === "invalid" || principal?.kind === "portal") throw errors.apiKeyInvalid();
    if (!allowed.includes(principal!.kind)) throw errors.secretKeyRequired();
    await next();
  };
}

/** Test publishable keys may be used from any origin, live ones only from the merchant's own origins. */
export function mayUseFromOrigin(principal: Caller, origin: string | undefined): boolean {
  return (
    origin === undefined ||
    principal.kind !== "publishable" ||
    principal.mode === "test" ||
    principal.allowedOrigins.includes(origin)
  );
}

/**
 * The request's caller when it will pass authorizeKey and the origin policy (cors.ts), else undefined: a
 * missing or invalid credential, a caller kind the route does not allow, a live publishable key from a foreign origin.
 */
export function authorizedPrincipal(c: Context<ApiEnv>, allowed: readonly CallerKind[]): Caller | undefined {
  if (allowed.includes("anyone")) return ANONYMOUS_CALLER;
  const principal = c.get("principal") as Caller | undefined;
  if (!principal || !allowed.includes(principal.kind)) return undefined;
  return mayUseFromOrigin(principal, c.req.header("origin")) ? principal : undefined;
}

/** The merchant a caller acts for (none for the anonymous caller). */
export const merchantOf = (caller: Caller | undefined): string | undefined =>
  caller && caller.kind !== "anyone" ? caller.merchantId : undefined;
