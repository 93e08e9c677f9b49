import type { MiddlewareHandler } from "hono";
import type { ApiEnv } from "./env.ts";
import type { RouteDeprecation } from "./route.ts";
import { DAY_MS } from "../vocabulary/time.ts";

// docs/api.md "Versioning": a deprecated route, or a route with a deprecated field, answers every response — errors
// included — with `Deprecation` (RFC 9745, `@<unix seconds>`) and `Sunset` (RFC 8594, an HTTP-date), plus a `Link`
// with rel="deprecation" when the route names a migration guide. The route table's `deprecated` column is the one
// place that says so; this middleware and the OpenAPI document read it.

/** A deprecated route or field keeps working at least this long after its deprecation. */
export const DEPRECATION_OVERLAP_DAYS = 90;

/** The response headers of a deprecation; throws when the dates are unreadable or leave less than the overlap. */
export function deprecationHeaders(deprecation: RouteDeprecation): Record<string, string> {
  const since = Date.parse(deprecation.since);
  const sunset = Date.parse(deprecation.sunset);
  if (Number.isNaN(since) || Number.isNaN(sunset))
    throw new Error(
      `deprecated: since '${deprecation.since}' and sunset '${deprecation.sunset}' must be ISO 8601 dates`,
    );
  if (sunset - since < DEPRECATION_OVERLAP_DAYS * DAY_MS)
    throw new Error(
      `deprecated: the sunset ${deprecation.sunset} must be at least ${DEPRECATION_OVERLAP_DAYS} days after ${deprecation.since}`,
    );
  return {
    Deprecation: `@${Math.floor(since / 1000)}`,
    Sunset: new Date(sunset).toUTCString(),
    ...(deprecation.link ? { Link: `<${deprecation.link}>; rel="deprecation"; type="text/html"` } : {}),
  };
}

/** Adds a deprecated route's headers to whatever it answers. The dates are checked when the table is loaded. */
export function deprecationNotice(deprecation: RouteDeprecation): MiddlewareHandler<ApiEnv> {
  const headers = deprecationHeaders(deprecation);
  return async function announceDeprecation(c, next) {
    await next();
    for (const [name, value] of Object.entries(headers)) {
      if (name === "Link") c.res.headers.append(name, value);
      else c.res.headers.set(name, value);
    }
  };
}
