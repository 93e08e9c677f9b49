// The web app's own requests (its pages, their data requests and resource routes) in the request metrics, labelled by
// the Remix route's path template (`/dashboard/claims/:id`) as the API labels its routes. /api/v1 is left to the API,
// which counts its requests itself; the static files and the probes answer before this runs.
import { matchRoutes, type AgnosticRouteObject } from "@remix-run/router";
import type { ServerBuild } from "@remix-run/node";
import type { MiddlewareHandler } from "hono";
import type { API_BASE_PATH, recordRequest, UNMATCHED_ROUTE } from "../server/index.ts";

/** The core's request metrics, as the build carries them (scripts/web-server.ts). */
interface Metrics {
  recordRequest: typeof recordRequest;
  API_BASE_PATH: typeof API_BASE_PATH;
  UNMATCHED_ROUTE: typeof UNMATCHED_ROUTE;
}

export function pageMetrics(
  routes: ServerBuild["routes"],
  { recordRequest, API_BASE_PATH, UNMATCHED_ROUTE }: Metrics,
): MiddlewareHandler {
  const tree = routeTree(routes);
  return async function measurePage(c, next) {
    if (c.req.path === API_BASE_PATH || c.req.path.startsWith(`${API_BASE_PATH}/`)) return next();
    const started = performance.now();
    await next();
    // matchRoutes decodes the path and warns on the console about a malformed percent-escape: such a path is
    // matched by no route anyway.
    const matches = decodable(c.req.path) ? matchRoutes(tree, c.req.path) : null;
    const template = matches && `/${matches.flatMap((match) => match.route.path || []).join("/")}`;
    recordRequest(c.req.method, template ?? UNMATCHED_ROUTE, c.res.status, started);
  };
}

function decodable(path: string): boolean {
  try {
    decodeURI(path);
    return true;
  } catch {
    return false;
  }
}

/** The build's flat route manifest (each route names its parent) as the nested tree matchRoutes takes. */
function routeTree(routes: ServerBuild["routes"], parentId?: string): AgnosticRouteObject[] {
  return Object.values(routes)
    .filter((route) => route.parentId === parentId)
    .map((route) =>
      route.index
        ? { id: route.id, path: route.path, index: true }
        : { id: route.id, path: route.path, caseSensitive: route.caseSensitive, children: routeTree(routes, route.id) },
    );
}
