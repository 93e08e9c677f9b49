import type { Logger } from "pino";
import type { Caller } from "./route.ts";

/** Per-request values the middleware hands on (Hono's typed context variables). */
export type ApiEnv = {
  Variables: {
    requestId: string;
    /** The request's logger (its request id bound), made on first use. */
    requestLog: () => Logger;
    /** The identified key or portal session (identifyKey); on an `anyone` route, the anonymous caller (authorizeKey). */
    principal: Caller;
    /** Set by identifyKey (auth.ts) when no valid credential came with the request. */
    keyProblem?: "missing" | "invalid" | "not_live";
    /** The raw body, when middleware before the handler had to read it (a rate rule keyed by the body's e-mail). */
    rawBody?: string;
  };
};
