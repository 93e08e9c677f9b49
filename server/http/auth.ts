import type { MiddlewareHandler } from "hono";
import type { KeyKind } from "../domain/ids.ts";
import { authenticateKey, type Principal } from "../domain/merchants.ts";
import type { Queryable } from "../store/database.ts";
import { errors } from "./errors.ts";
import type { ApiEnv } from "./env.ts";

/**
 * Authenticates `Authorization: Bearer <key>` and enforces the route's key policy (the `keys` column of the
 * route table in routes.ts). This is the one place the widget key's restriction is enforced.
 */
export function authenticate(db: Queryable, allowed: readonly KeyKind[]): MiddlewareHandler<ApiEnv> {
  return async function authenticateRequest(c, next) {
    const header = c.req.header("authorization");
    if (!header) throw errors.apiKeyMissing();
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw errors.apiKeyInvalid();
    const principal: Principal | undefined = await authenticateKey(db, match[1]);
    if (!principal) throw errors.apiKeyInvalid();
    if (!allowed.includes(principal.kind)) throw errors.secretKeyRequired();
    c.set("principal", principal);
    await next();
  };
}
