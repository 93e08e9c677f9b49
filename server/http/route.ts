import type { z } from "zod";
import type { KeyKind } from "../domain/ids.ts";
import type { Principal } from "../domain/merchants.ts";
import type { Services } from "../domain/context.ts";
import type { Queryable } from "../store/database.ts";
import type { Page } from "../domain/pagination.ts";
import type { Sealer } from "../secrets/sealer.ts";
import type { RouteResult } from "./idempotency.ts";
import type { RuleName } from "../rate-limits/policies.ts";

export interface RouteContext<Body, Query, Prepared = unknown> {
  /** The transaction of a mutation (POST/PATCH/DELETE), or the read connection of a GET. */
  db: Queryable;
  services: Services;
  /** Seals secrets at rest (webhook signing secrets). */
  sealer: Sealer;
  principal: Principal;
  params: Record<string, string>;
  body: Body;
  query: Query;
  /** What the route's `prepare` produced, outside the transaction (undefined without one). */
  prepared: Prepared;
}

/** One row of the route table: what the route accepts, which keys may call it, and the one domain call it makes. */
export interface Route<B extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, P = unknown> {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** Relative to /api/v1, with `:name` parameters. */
  path: string;
  /** The same route also answered at this absolute path (the spec's own-prefix `/v1/…` rotate path). */
  alsoAt?: string;
  operationId: string;
  summary: string;
  /** The key policy: which key kinds may call this route. */
  keys: readonly KeyKind[];
  /** The rate-limit rule of this route (server/rate-limits/policies.ts; README "Rate limits"); unset: not limited. */
  rateLimit?: RuleName;
  /** Browsers may call it with a publishable key (CORS). */
  browser?: boolean;
  body?: B;
  query?: Q;
  /** Domain field names this route's request spells otherwise than casing alone says (see callerSpelling in casing.ts). */
  fieldNames?: Record<string, string>;
  /** For the OpenAPI document: the 2xx body. */
  response: { description: string; schema: z.ZodType };
  /**
   * Slow checks (network look-ups) a mutation needs before it runs: done before the transaction opens, so that
   * no write lock is held while waiting. Its errors are answered like validation errors (not stored).
   */
  prepare?(context: Omit<RouteContext<z.output<B>, undefined, undefined>, "db" | "query" | "prepared">): Promise<P>;
  handle(context: RouteContext<z.output<B>, z.output<Q>, P>): Promise<RouteResult>;
}

/** Keeps each row's handler typed by its own schemas. */
export const route = <B extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, P = unknown>(
  definition: Route<B, Q, P>,
): Route => definition as unknown as Route;

export const ok = (body: unknown, headers?: Record<string, string>): RouteResult => ({ status: 200, body, headers });

/** A page as README "Lists" shows it: `{"object":"list","data":[…],"has_more":bool,"next_cursor":string|null}`. */
export const okPage = (page: Page<unknown>): RouteResult =>
  ok({ object: "list", data: page.data, has_more: page.hasMore, next_cursor: page.nextCursor });
