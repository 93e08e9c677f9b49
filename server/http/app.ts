import { Hono, type Context } from "hono";
import type { Logger } from "pino";
import type { Database, Queryable } from "../store/database.ts";
import type { Services } from "../domain/context.ts";
import type { Sealer } from "../secrets/sealer.ts";
import type { CoverageLinks } from "../email/coverage-link.ts";
import type { ApiEnv } from "./env.ts";
import { ApiError, errorBody, errors, inCallerSpelling, toApiError } from "./errors.ts";
import { parse, refuseNul } from "./input.ts";
import { callerSpelling } from "./casing.ts";
import { requestContext } from "./request-context.ts";
import { requestMetrics } from "../observability/request-metrics.ts";
import { isJsonMediaType, isMultipartFormData, readBodyText, readMultipartBody, type FormLimits } from "./body.ts";
import { authorizeKey, identifyKey } from "./auth.ts";
import { verifySignedCallback } from "./signed-callback.ts";
import { rateLimit, type RateLimitOptions } from "./rate-limit.ts";
import { RULES } from "../rate-limits/policies.ts";
import { browserAccess, originPolicy } from "./cors.ts";
import { createIdempotency, type StoredResponse } from "./idempotency.ts";
import { IDEMPOTENCY_KEY_PATTERN } from "@purchase-protection/contract";
import { routes as defaultRoutes } from "./routes.ts";
import type { Route } from "./route.ts";
import { openApiDocument } from "./openapi.ts";
import { deprecationNotice } from "./deprecation.ts";
import { EVIDENCE_LIMITS } from "../evidence/index.ts";

export const API_BASE_PATH = "/api/v1";
const MAX_BODY_BYTES = 64 * 1024;
/**
 * A multipart body (claims with evidence): five files of 10 MiB and 1 MiB for the text fields and the framing. One
 * file more and one byte more per file than the evidence rules allow, so the claim names the broken rule (422
 * too_many_evidence_files, evidence_too_large); past that, and past 100 parts, 20 repeats of a field or 64 KiB in one,
 * the body is refused as it streams (400 form_limit_exceeded).
 */
export const MULTIPART_LIMITS: FormLimits = {
  bytes: EVIDENCE_LIMITS.maxFiles * EVIDENCE_LIMITS.maxFileBytes + 1024 * 1024,
  parts: 100,
  fieldRepeats: 20,
  fieldBytes: 64 * 1024,
  files: EVIDENCE_LIMITS.maxFiles + 1,
  fileBytes: EVIDENCE_LIMITS.maxFileBytes + 1,
};

export interface HttpApiOptions {
  db: Database;
  services: Services;
  sealer: Sealer;
  /** The welcome e-mail's coverage links (POST /portal/coverage-link checks them). */
  coverageLinks: CoverageLinks;
  logger: Logger;
  /** How long a request waits for an in-flight request with the same idempotency key (default 2 s). */
  inFlightWaitMs?: number;
  /** Test seam: runs after a mutation's side effects, before its response is stored (fault injection). */
  afterSideEffects?: () => void;
  /** Rate limits (docs/api.md "Rate limits") of the routes with a `rateLimit` rule; unset: no limits (RATE_LIMITS=off, most tests). */
  rateLimits?: RateLimitOptions;
  /** Test seam: the route table (default routes.ts), e.g. with a deprecated row. */
  routes?: Route[];
}

/** The protection API as a Hono app: `fetch(Request) => Response`, mounted at /api/v1. */
export function createHttpApi(options: HttpApiOptions) {
  const { db, services, logger } = options;
  const routeTable = options.routes ?? defaultRoutes;
  const idempotency = createIdempotency({
    db,
    clock: services.clock,
    sealer: options.sealer,
    inFlightWaitMs: options.inFlightWaitMs ?? 2_000,
    afterSideEffects: options.afterSideEffects,
  });
  // Not basePath(): the request id, error shape and 404 apply to every path the server answers, not only /api/v1.
  const app = new Hono<ApiEnv>();
  const at = (path: string) => `${API_BASE_PATH}${path}`;

  app.use(requestMetrics());
  app.use(requestContext(logger));
  app.onError((error, c) => {
    const apiError = toApiError(error);
    if (apiError.status >= 500) c.get("requestLog")().error({ err: error }, "unhandled error");
    return sendError(c, apiError);
  });

  const document = openApiDocument(routeTable);
  app.get(at("/openapi.json"), (c) => c.json(document));

  for (const route of routeTable) {
    const handlers = [
      // First, so that every answer of a deprecated route says so, a 401 or a 429 included.
      ...(route.deprecated ? [deprecationNotice(route.deprecated)] : []),
      identifyKey(db, services.clock),
      ...(route.keys.includes("aftership") ? [verifySignedCallback(db, options.sealer)] : []),
      ...(route.browser ? [browserAccess()] : []),
      ...(route.rateLimit && options.rateLimits
        ? [rateLimit(RULES[route.rateLimit], route.keys, { ...options.rateLimits, maxBodyBytes: MAX_BODY_BYTES })]
        : []),
      authorizeKey(route.keys),
      ...(route.browser ? [originPolicy()] : []),
    ];
    const spelledRoute = withCallerSpelling(route);
    const handle = route.method === "GET" ? read(spelledRoute) : mutate(spelledRoute);
    app.on([route.method], [at(route.path), ...(route.alsoAt ? [route.alsoAt] : [])], ...handlers, handle);
    if (route.browser) app.options(at(route.path), browserAccess());
  }

  app.notFound((c) => {
    const allowed = routeTable.filter((r) => matches(r.path, c.req.path)).map((r) => r.method);
    return sendError(
      c,
      allowed.length > 0
        ? errors.methodNotAllowed(c.req.method, c.req.path, allowed)
        : errors.routeNotFound(c.req.method, c.req.path),
    );
  });

  function read(route: Route) {
    return async (c: Context<ApiEnv>) => {
      const params = pathParams(c);
      const query = parse(route.query, refuseNul(c.req.query(), "query"), "query");
      const result = await route.handle({
        db,
        services,
        sealer: options.sealer,
        coverageLinks: options.coverageLinks,
        principal: c.get("principal"),
        params,
        body: undefined,
        query,
        prepared: undefined,
        acceptLanguage: c.req.header("accept-language"),
      });
      // A file download (okFile): its bytes as they are, with its own Content-Type.
      if (result.body instanceof Uint8Array)
        return c.body(result.body as Uint8Array<ArrayBuffer>, result.status as 200, { ...NO_STORE, ...result.headers });
      return send(c, {
        status: result.status,
        body: JSON.stringify(result.body),
        headers: result.headers ?? {},
        replayed: false,
      });
    };
  }

  function mutate(route: Route) {
    return async (c: Context<ApiEnv>) => {
      const principal = c.get("principal");
      // A caller-less mutation (the portal sign-ins) and a signed callback take no idempotency key: nothing of them is
      // stored (route.ts ANYONE, SignedCallbackCaller).
      const keyless = principal.kind === "anyone" || principal.kind === "aftership";
      const key = keyless ? undefined : c.req.header("idempotency-key");
      if (!keyless && (!key || !IDEMPOTENCY_KEY_PATTERN.test(key))) throw errors.idempotencyKeyRequired();
      const contentType = c.req.header("content-type");
      // A route taking files reads multipart/form-data (its own, larger cap); its fingerprint is the bytes' hash.
      const upload =
        route.multipart && contentType !== undefined && isMultipartFormData(contentType)
          ? await readMultipartBody(c, MULTIPART_LIMITS, route.multipart.fileField)
          : undefined;
      const rawBody = upload?.fingerprint ?? c.get("rawBody") ?? (await readBodyText(c, MAX_BODY_BYTES));
      if (!upload && contentType !== undefined && rawBody.trim() !== "" && !isJsonMediaType(contentType))
        throw errors.mediaTypeUnsupported(contentType);
      const params = pathParams(c);
      const body = upload
        ? parse(route.multipart!.fields ?? route.body, refuseNul(upload.fields, "body"), "body")
        : parse(route.body, refuseNul(parseJson(rawBody), "body"), "body");
      const files = upload?.files ?? [];
      const prepared = route.prepare
        ? await route.prepare({
            services,
            sealer: options.sealer,
            coverageLinks: options.coverageLinks,
            principal,
            params,
            body,
            files,
          })
        : undefined;
      try {
        const run = (tx: Queryable) =>
          route.handle({
            db: tx,
            services,
            sealer: options.sealer,
            coverageLinks: options.coverageLinks,
            principal,
            params,
            body,
            query: undefined,
            prepared,
          });
        if (keyless) {
          const result = await db.transaction(run);
          return send(c, {
            status: result.status,
            body: JSON.stringify(result.body),
            headers: result.headers ?? {},
            replayed: false,
          });
        }
        const response = await idempotency.execute(
          {
            requestId: c.get("requestId"),
            actor: principal,
            key: key!,
            method: route.method,
            path: c.req.path,
            rawBody,
          },
          run,
        );
        return send(c, response);
      } finally {
        // Evidence staged by `prepare` and not kept by the handler is removed, whatever the answer (route.ts).
        if (route.release && prepared !== undefined) await route.release(prepared);
      }
    };
  }

  return { app, fetch: app.fetch, purgeExpiredIdempotencyKeys: idempotency.purgeExpired, routes: routeTable };
}

/** The route, its domain errors naming their field as its caller spells it (callerSpelling in casing.ts). */
function withCallerSpelling(route: Route): Route {
  const spell = callerSpelling(route);
  async function spelled<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw inCallerSpelling(error, spell);
    }
  }
  const { prepare, handle } = route;
  return {
    ...route,
    prepare: prepare && ((context) => spelled(() => prepare(context))),
    handle: (context) => spelled(() => handle(context)),
  };
}

/** The route's path parameters (decoded); one holding NUL is refused like a body field. */
function pathParams(c: Context<ApiEnv>): Record<string, string> {
  return refuseNul(c.req.param() as Record<string, string>, "path");
}

// API answers are per caller and may reveal secrets (a signing secret, a quote token): no cache may keep them.
const NO_STORE = { "Cache-Control": "no-store" };

function send(c: Context<ApiEnv>, response: StoredResponse): Response {
  const headers: Record<string, string> = {
    "Content-Type": "application/json; charset=utf-8",
    ...NO_STORE,
    ...response.headers,
  };
  if (response.replayed) headers["Idempotent-Replayed"] = "true";
  return c.body(response.body, response.status as 200, headers);
}

function sendError(c: Context<ApiEnv>, error: ApiError): Response {
  return c.body(errorBody(error, c.get("requestId")), error.status as 400, {
    "Content-Type": "application/json; charset=utf-8",
    ...NO_STORE,
    ...error.headers,
  });
}

/** An empty body is an empty object (POST /orders/{id}/refund has a reserved, empty body). */
function parseJson(raw: string): unknown {
  if (raw.trim() === "") return {};
  try {
    return JSON.parse(raw);
  } catch {
    throw errors.bodyNotJson();
  }
}

function matches(pattern: string, path: string): boolean {
  const regex = new RegExp(`^${API_BASE_PATH}${pattern.replace(/:[^/]+/g, "[^/]+")}/?$`);
  return regex.test(path);
}
