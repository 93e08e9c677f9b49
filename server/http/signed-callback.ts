import type { MiddlewareHandler } from "hono";
import type { Queryable } from "../store/database.ts";
import type { Sealer } from "../secrets/sealer.ts";
import { AFTERSHIP_SIGNATURE_HEADER, authenticateAftershipCallback } from "../domain/tracking-callbacks.ts";
import { readBodyBytes } from "./body.ts";
import type { ApiEnv } from "./env.ts";

/**
 * A tracking callback's body: AfterShip sends the whole tracking with every checkpoint so far, larger than the API's
 * own bodies (64 KB).
 */
export const CALLBACK_MAX_BODY_BYTES = 512 * 1024;

/**
 * AfterShip's tracking callbacks (routes.ts AFTERSHIP_SIGNATURE): reads the raw body and, when its signature is the
 * body's under the webhook secret of the URL's merchant and mode, makes AfterShip the caller for them. Never rejects:
 * authorizeKey (auth.ts) refuses a callback that is not so signed, as it does a missing key.
 */
export function verifySignedCallback(db: Queryable, sealer: Sealer): MiddlewareHandler<ApiEnv> {
  return async function verifyCallbackSignature(c, next) {
    const body = await readBodyBytes(c, CALLBACK_MAX_BODY_BYTES);
    // The handler parses the same bytes the signature was checked over.
    c.set("rawBody", Buffer.from(body).toString("utf8"));
    const actor = await authenticateAftershipCallback(
      db,
      sealer,
      c.req.param("merchantId") ?? "",
      c.req.param("mode") ?? "",
      body,
      c.req.header(AFTERSHIP_SIGNATURE_HEADER),
    );
    if (actor) c.set("principal", { kind: "aftership", ...actor });
    await next();
  };
}
