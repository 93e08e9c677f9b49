import type { z } from "zod";
import type { KeyKind } from "../vocabulary/ids.ts";
import type { Actor } from "../vocabulary/actors.ts";
import type { Principal } from "../domain/merchants.ts";
import type { PortalPrincipal } from "../domain/portal.ts";
import type { Services } from "../domain/context.ts";
import type { Queryable } from "../store/database.ts";
import type { Page } from "../vocabulary/pages.ts";
import type { Sealer } from "../secrets/sealer.ts";
import type { CoverageLinks } from "../email/coverage-link.ts";
import type { RouteResult } from "./idempotency.ts";
import type { RuleName } from "../rate-limits/policies.ts";
import type { UploadedFile } from "../domain/claims.ts";

/**
 * Who may call a route (its `keys` column): a merchant's publishable (wk_) or secret (mch_) key, a buyer's portal
 * session (`pps_…`, one plan), AfterShip signing for a merchant (its callback's signature), or anyone (no credential).
 */
export type CallerKind = KeyKind | "portal" | "aftership" | "anyone";

/** The caller of an `anyone` route: nobody in particular (a credential sent with it is not looked at). */
export interface AnonymousCaller {
  kind: "anyone";
}
export const ANONYMOUS_CALLER: AnonymousCaller = { kind: "anyone" };

/**
 * The caller of a tracking callback: AfterShip, for the merchant and mode whose webhook secret signed the body
 * (signed-callback.ts). It sends no idempotency key: a repeated callback records nothing new (tracking-callbacks.ts).
 */
export interface SignedCallbackCaller extends Actor {
  kind: "aftership";
}

export type Caller = Principal | PortalPrincipal | SignedCallbackCaller | AnonymousCaller;

/** The principal a route's handler gets for the caller kinds it allows. */
export type CallerOf<K extends CallerKind> = K extends "portal"
  ? PortalPrincipal
  : K extends "anyone"
    ? AnonymousCaller
    : K extends "aftership"
      ? SignedCallbackCaller
      : Principal;

/** `keys` of the buyer portal's routes: a portal session only (merchant keys are 403 portal_session_required). */
export const PORTAL_SESSION = ["portal"] as const;
/**
 * `keys` of public routes: no credential. A mutation anyone may call has no caller to scope an idempotency key
 * by, so it takes none and nothing of it is stored (the portal sign-ins: a stored response would hand the session
 * token to whoever repeats the key).
 */
export const ANYONE = ["anyone"] as const;
/** `keys` of AfterShip's tracking callbacks: its signature with the merchant's webhook secret, no key. */
export const AFTERSHIP_SIGNATURE = ["aftership"] as const;

export interface RouteContext<Body, Query, Prepared = unknown, C extends Caller = Principal> {
  /** The transaction of a mutation (POST/PATCH/DELETE), or the read connection of a GET. */
  db: Queryable;
  services: Services;
  /** Seals secrets at rest (webhook signing secrets). */
  sealer: Sealer;
  /** Makes and checks the welcome e-mail's coverage links (the portal's link sign-in). */
  coverageLinks: CoverageLinks;
  principal: C;
  params: Record<string, string>;
  body: Body;
  query: Query;
  /** What the route's `prepare` produced, outside the transaction (undefined without one). */
  prepared: Prepared;
  /** A GET's Accept-Language header: the buyer's language for the texts of the public rulebook. */
  acceptLanguage?: string;
}

/** One row of the route table: what the route accepts, which keys may call it, and the one domain call it makes. */
export interface Route<
  B extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  P = unknown,
  K extends CallerKind = CallerKind,
> {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** Relative to /api/v1, with `:name` parameters. */
  path: string;
  /** The same route also answered at this absolute path (the spec's own-prefix `/v1/…` rotate path). */
  alsoAt?: string;
  operationId: string;
  summary: string;
  /** The key policy: which caller kinds may call this route (the handler's `principal` is of that kind). */
  keys: readonly K[];
  /** The rate-limit rule of this route (server/rate-limits/policies.ts; docs/api.md "Rate limits"); unset: not limited. */
  rateLimit?: RuleName;
  /** Browsers may call it with a publishable key (CORS). */
  browser?: boolean;
  body?: B;
  query?: Q;
  /** Domain field names this route's request spells otherwise than casing alone says (see callerSpelling in casing.ts). */
  fieldNames?: Record<string, string>;
  /**
   * The route also takes multipart/form-data (up to 5 × 10 MiB of files in `fileField` plus 1 MiB of text
   * fields): the text fields are its body, the files go to `prepare` (`files`). JSON without files is accepted too.
   */
  multipart?: {
    fileField: string;
    /** The text fields' schema where it differs from the JSON body's (a number arrives as a field's digits). */
    fields?: z.ZodType;
  };
  /**
   * Deprecated (docs/api.md "Versioning"): the route, or only `field` of its body or query. Every response then carries
   * the Deprecation and Sunset headers (deprecation.ts) and the OpenAPI document marks it `deprecated`. It keeps
   * working until `sunset`, at least 90 days after `since`.
   */
  deprecated?: RouteDeprecation;
  /** For the OpenAPI document: the 2xx body. */
  response: { description: string; schema: z.ZodType };
  /**
   * Slow checks (network look-ups) a mutation needs before it runs: done before the transaction opens, so that
   * no write lock is held while waiting. Its errors are answered like validation errors (not stored).
   */
  prepare?(
    context: Omit<RouteContext<z.output<B>, undefined, undefined, CallerOf<K>>, "db" | "query" | "prepared"> & {
      /** The files of a multipart request (empty for JSON). */
      files: readonly UploadedFile[];
    },
  ): Promise<P>;
  /**
   * Undoes what `prepare` left that the handler did not take (evidence staged but not kept): runs once the request
   * is answered, whatever the answer (a refusal, an idempotent replay, an error).
   */
  release?(prepared: P): Promise<void>;
  handle(context: RouteContext<z.output<B>, z.output<Q>, P, CallerOf<K>>): Promise<RouteResult>;
}

/** When a route or a field of it was deprecated and when it goes (ISO 8601 dates, UTC), and where to read why. */
export interface RouteDeprecation {
  since: string;
  sunset: string;
  /** A page on the change and what replaces it (Link rel="deprecation"). */
  link?: string;
  /** Only this top-level body or query field is deprecated, not the route. */
  field?: string;
}

/** Keeps each row's handler typed by its own schemas. */
export const route = <
  B extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  P = unknown,
  K extends CallerKind = CallerKind,
>(
  definition: Route<B, Q, P, K>,
): Route => definition as unknown as Route;

export const ok = (body: unknown, headers?: Record<string, string>): RouteResult => ({ status: 200, body, headers });

/**
 * A file download (GET only): the bytes as they are, never sniffed by the browser, never cached, saved rather than
 * shown. The file name is the buyer's display name, in RFC 6266/5987 form (an ASCII fallback and the UTF-8 name) —
 * written here because the only library for it is not one of our dependencies.
 */
export const okFile = (file: { bytes: Uint8Array; contentType: string; fileName: string }): RouteResult =>
  ok(file.bytes, {
    "Content-Type": file.contentType,
    "Content-Disposition": attachmentDisposition(file.fileName),
    "X-Content-Type-Options": "nosniff",
  });

/** `attachment` with the file name as an ASCII fallback and in UTF-8 (also the claims console's downloads). */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const utf8 = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${utf8}`;
}

/** A page as docs/api.md "Lists" shows it: `{"object":"list","data":[…],"has_more":bool,"next_cursor":string|null}`. */
export const okPage = (page: Page<unknown>): RouteResult =>
  ok({ object: "list", data: page.data, has_more: page.hasMore, next_cursor: page.nextCursor });
