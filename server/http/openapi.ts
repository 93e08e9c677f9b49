import { z } from "zod";
import { IDEMPOTENCY_KEY_PATTERN } from "@purchase-protection/contract";
import type { Route } from "./route.ts";
import * as shapes from "./response-schemas.ts";
import { RULES, type RateLimitRule } from "../rate-limits/policies.ts";

// OpenAPI 3.1 from the route table: the request schemas are the zod schemas that validate requests
// (z.toJSONSchema emits JSON Schema 2020-12, the dialect OpenAPI 3.1 uses).

const jsonSchema = (schema: z.ZodType, io: "input" | "output") => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  return rest;
};

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

export function openApiDocument(routes: Route[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z]+)/g, "{$1}");
    const pathParams = [...route.path.matchAll(/:([A-Za-z]+)/g)].map(([, name]) => ({
      name,
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    const queryParams = route.query ? queryParameters(route.query) : [];
    const mutating = route.method !== "GET";
    const limits = route.rateLimit ? RULES[route.rateLimit] : undefined;
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = {
      operationId: route.operationId,
      summary: route.summary,
      security: [{ bearer: [] }],
      "x-key-kinds": route.keys.map((kind) => (kind === "publishable" ? "wk_" : "mch_")),
      ...(limits ? { "x-rate-limits": rateLimitPolicies(limits) } : {}),
      parameters: [
        ...pathParams,
        ...queryParams,
        ...(mutating
          ? [
              {
                name: "Idempotency-Key",
                in: "header",
                required: true,
                schema: { type: "string", pattern: IDEMPOTENCY_KEY_PATTERN.source },
              },
            ]
          : []),
      ],
      ...(route.body
        ? {
            requestBody: {
              required: route.operationId !== "reportMerchantRefund",
              content: { "application/json": { schema: jsonSchema(route.body, "input") } },
            },
          }
        : {}),
      responses: {
        "200": {
          description: route.response.description,
          headers: {
            "X-Request-Id": { schema: { type: "string" } },
            ...(route.operationId === "createQuote"
              ? { "X-Service-Quote-Token": { description: "Single-use quote token.", schema: { type: "string" } } }
              : {}),
            ...(mutating
              ? { "Idempotent-Replayed": { description: "'true' when this is a replay.", schema: { type: "string" } } }
              : {}),
            ...(limits ? RATE_LIMIT_HEADERS : {}),
          },
          content: { "application/json": { schema: jsonSchema(route.response.schema, "output") } },
        },
        "400": errorResponse(
          "Invalid request (parameter_invalid, parameter_missing, parameter_unknown, idempotency_key_required, body_incomplete, …).",
        ),
        "401": errorResponse("api_key_missing or api_key_invalid."),
        "403": errorResponse("permission_error (secret_key_required, quote_token_invalid, origin_not_allowed)."),
        "404": errorResponse("resource_missing."),
        "409": errorResponse(
          "idempotency_conflict, idempotency_in_progress, or the resource's state forbids the operation.",
        ),
        ...(route.operationId === "confirmQuote"
          ? { "422": errorResponse("order_context_invalid: nothing was created.") }
          : {}),
        ...(mutating
          ? {
              "413": errorResponse("Body over 64 KB."),
              "415": errorResponse("media_type_unsupported: the body is not JSON."),
            }
          : {}),
        ...(limits ? { "429": rateLimitedResponse(limits) } : {}),
        "500": errorResponse("api_error."),
      },
    };
    if (route.alsoAt) {
      // The spec's own-prefix path: the same operation, relative to the host rather than /api/v1.
      const alias = route.alsoAt.replace(/:([A-Za-z]+)/g, "{$1}");
      const operation = paths[path][route.method.toLowerCase()] as Record<string, unknown>;
      paths[alias] = {
        servers: [{ url: "/" }],
        [route.method.toLowerCase()]: { ...operation, operationId: `${route.operationId}AtOwnPrefix` },
      };
    }
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Purchase Protection API",
      version: "1",
      description: "Optional purchase protection at checkout: a contractual refund guarantee, not insurance.",
    },
    servers: [{ url: "/api/v1" }],
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "wk_test_/wk_live_ (publishable) or mch_test_/mch_live_ (secret) key.",
        },
      },
      schemas: { Error: jsonSchema(shapes.error, "output") },
    },
    paths,
  };
}

const RATE_LIMIT_HEADERS = {
  "RateLimit-Policy": {
    description:
      'The route\'s limits (draft-ietf-httpapi-ratelimit-headers): `"<name>";q=<quota>;w=<window seconds>`, comma-separated.',
    schema: { type: "string" },
  },
  RateLimit: {
    description: 'Each limit\'s state: `"<name>";r=<remaining>;t=<seconds until the quota is whole>`, comma-separated.',
    schema: { type: "string" },
  },
};

function rateLimitPolicies(rule: RateLimitRule) {
  return rule.policies.map((p) => ({
    name: p.name,
    quota: p.limit,
    windowSeconds: p.periodMs / 1000,
    keyedBy: p.keyedBy,
    edge: p.edge,
    code: p.code,
  }));
}

function rateLimitedResponse(rule: RateLimitRule) {
  const challenge = rule.policies.some((p) => p.code === "challenge_required");
  return {
    ...errorResponse(
      `rate_limit_error: ${challenge ? "rate_limited, or challenge_required when the edge limit per IP is exceeded" : "rate_limited"}. Retry after Retry-After seconds.`,
    ),
    headers: {
      "Retry-After": { description: "Whole seconds after which a retry is admitted.", schema: { type: "integer" } },
      ...RATE_LIMIT_HEADERS,
    },
  };
}

function queryParameters(schema: z.ZodType) {
  const json = jsonSchema(schema, "input") as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: "query",
    required: json.required?.includes(name) ?? false,
    schema: property,
  }));
}
