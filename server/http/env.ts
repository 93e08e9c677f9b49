import type { Logger } from "pino";
import type { Principal } from "../domain/merchants.ts";

/** Per-request values the middleware hands on (Hono's typed context variables). */
export type ApiEnv = {
  Variables: {
    requestId: string;
    log: Logger;
    principal: Principal;
    /** Set by identifyKey (auth.ts) when no valid key came with the request. */
    keyProblem?: "missing" | "invalid";
  };
};
