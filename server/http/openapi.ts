import { KEY_PREFIX } from "../vocabulary/ids.ts";
import { z } from "zod";
import { IDEMPOTENCY_KEY_PATTERN } from "@purchase-protection/contract";
import type { Route } from "./route.ts";
import * as shapes from "./response-schemas.ts";
import { RULES, type RateLimitRule } from "../rate-limits/policies.ts";
import { EVIDENCE_CONTENT_TYPES, EVIDENCE_LIMITS } from "../evidence/index.ts";

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

/**
 * The credentials a route takes, by prefix: wk_, mch_, rk_ (merchant keys), pps_ (a portal session); none for anyone
 * or for AfterShip's callbacks (a signature, not a key).
 */
export const keyPrefixes = (route: Route): string[] =>
  route.keys.flatMap((kind) =>
    kind === "portal" ? ["pps_"] : kind === "anyone" || kind === "aftership" ? [] : [`${KEY_PREFIX[kind]}_`],
  );

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
    const deprecatedField = route.deprecated?.field;
    const queryParams = (route.query ? queryParameters(route.query) : []).map((parameter) =>
      parameter.name === deprecatedField ? { ...parameter, deprecated: true } : parameter,
    );
    const bodySchema = route.body
      ? withDeprecatedProperty(jsonSchema(route.body, "input"), deprecatedField)
      : undefined;
    const bodyFields = (bodySchema?.properties ?? {}) as Record<string, object>;
    if (deprecatedField && !(deprecatedField in bodyFields) && !queryParams.some((p) => p.name === deprecatedField))
      throw new Error(`${route.operationId}: the deprecated field '${deprecatedField}' is not in its body or query`);
    const mutating = route.method !== "GET";
    // A route anyone may call takes no credential, and as a mutation no idempotency key (route.ts ANYONE); nor does
    // a signed callback, whose signature is its credential (route.ts AFTERSHIP_SIGNATURE).
    const signed = route.keys.includes("aftership");
    const open = route.keys.includes("anyone") || signed;
    const limits = route.rateLimit ? RULES[route.rateLimit] : undefined;
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.deprecated && !deprecatedField ? { deprecated: true } : {}),
      security: signed ? [{ aftershipSignature: [] }] : open ? [] : [{ bearer: [] }],
      "x-key-kinds": keyPrefixes(route),
      ...(limits ? { "x-rate-limits": rateLimitPolicies(limits) } : {}),
      parameters: [
        ...pathParams,
        ...queryParams,
        ...(mutating && !open
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
              content: {
                "application/json": { schema: bodySchema },
                ...(route.multipart ? { "multipart/form-data": multipartSchema(route) } : {}),
              },
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
            ...(mutating && !open
              ? { "Idempotent-Replayed": { description: "'true' when this is a replay.", schema: { type: "string" } } }
              : {}),
            ...(limits ? RATE_LIMIT_HEADERS : {}),
            ...(route.deprecated ? DEPRECATION_HEADERS : {}),
          },
          content:
            route.response.schema === shapes.evidenceDownload
              ? Object.fromEntries(
                  EVIDENCE_CONTENT_TYPES.map((type) => [type, { schema: { type: "string", format: "binary" } }]),
                )
              : route.response.schema === shapes.settlementCsv || route.response.schema === shapes.metricsCsv
                ? { "text/csv": { schema: jsonSchema(route.response.schema, "output") } }
                : { "application/json": { schema: jsonSchema(route.response.schema, "output") } },
        },
        "400": errorResponse(
          `Invalid request (parameter_invalid, parameter_missing, parameter_unknown, idempotency_key_required, body_incomplete, ${route.multipart ? "body_invalid_multipart, form_limit_exceeded (past 100 parts, 20 repeats of a field or 64 KiB in one), " : ""}…).`,
        ),
        "401": errorResponse(
          signed
            ? "signature_invalid: the aftership-hmac-sha256 signature is missing or wrong; nothing was recorded."
            : "api_key_missing or api_key_invalid (portal routes: portal_session_invalid).",
        ),
        "403": errorResponse(
          "permission_error (secret_key_required, quote_token_invalid, origin_not_allowed; portal routes: portal_session_required).",
        ),
        "404": errorResponse("resource_missing."),
        "409": errorResponse(
          "idempotency_conflict, idempotency_in_progress, or the resource's state forbids the operation.",
        ),
        ...(route.operationId === "confirmQuote"
          ? {
              "422": errorResponse(
                "order_context_invalid, or customer_email_required (no buyer address on the confirm or its quote): nothing was created; the quote stays open.",
              ),
            }
          : {}),
        ...(route.operationId === "headlessConfirm"
          ? {
              "422": errorResponse(
                "customer_email_required (no buyer address on the confirm or its quote): nothing was created; the quote stays open.",
              ),
            }
          : {}),
        ...(route.operationId === "resolveClaim"
          ? { "422": errorResponse("amount_exceeds_claim: the amount is more than the claim's (nothing was changed).") }
          : {}),
        ...(route.operationId === "fileClaim" || route.operationId === "addClaimMessage"
          ? {
              "422": errorResponse(
                `A claim rule or an evidence limit (nothing was created): ${route.operationId === "fileClaim" ? "reason_not_covered, claim_window_expired, occurred_before_purchase, occurred_in_future, amount_exceeds_remaining, " : ""}too_many_evidence_files, evidence_too_large, evidence_type_unsupported (param: evidence[<index>]).`,
              ),
            }
          : {}),
        ...(mutating
          ? {
              "413": errorResponse(
                route.multipart ? "Body over 64 KB (JSON) or 51 MiB (multipart/form-data)." : "Body over 64 KB.",
              ),
              "415": errorResponse(
                `media_type_unsupported: the body is not JSON${route.multipart ? " or multipart/form-data" : ""}.`,
              ),
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
          description:
            "wk_test_/wk_live_ (publishable) or mch_test_/mch_live_ (secret) key; on buyer portal routes a portal session token (pps_…).",
        },
        aftershipSignature: {
          type: "apiKey",
          in: "header",
          name: "aftership-hmac-sha256",
          description:
            "AfterShip's tracking callbacks: the base64 HMAC-SHA256 of the raw body with the merchant's AfterShip webhook secret.",
        },
      },
      schemas: { Error: jsonSchema(shapes.error, "output") },
    },
    paths,
  };
}

/** Sent on every response of a deprecated route or of a route with a deprecated field (deprecation.ts). */
const DEPRECATION_HEADERS = {
  Deprecation: {
    description: "RFC 9745: when this route (or a field of it) was deprecated, `@<unix seconds>`.",
    schema: { type: "string" },
  },
  Sunset: {
    description: "RFC 8594: the HTTP-date after which it may stop working (at least 90 days after the deprecation).",
    schema: { type: "string" },
  },
};

/** A body schema with its deprecated top-level property marked (JSON Schema `deprecated`). */
function withDeprecatedProperty(schema: Record<string, unknown>, field: string | undefined) {
  const properties = schema.properties as Record<string, object> | undefined;
  if (field === undefined || properties?.[field] === undefined) return schema;
  return { ...schema, properties: { ...properties, [field]: { ...properties[field], deprecated: true } } };
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

/**
 * A route's multipart/form-data body: its text fields (the JSON body's, or `multipart.fields`), and up to 5 files of at most 10 MiB in
 * the route's file field (docs/api.md "Claims": evidence).
 */
function multipartSchema(route: Route) {
  const fields = jsonSchema(route.multipart!.fields ?? route.body!, "input") as {
    properties?: Record<string, unknown>;
  };
  const fileField = route.multipart!.fileField;
  return {
    schema: {
      ...fields,
      properties: {
        ...fields.properties,
        [fileField]: {
          type: "array",
          maxItems: EVIDENCE_LIMITS.maxFiles,
          items: { type: "string", format: "binary", maxLength: EVIDENCE_LIMITS.maxFileBytes },
          description: `Evidence files: ${EVIDENCE_CONTENT_TYPES.join(", ")}, recognised by their bytes; at most ${EVIDENCE_LIMITS.maxFiles} of ${EVIDENCE_LIMITS.maxFileBytes} bytes each. Image metadata (Exif GPS…) is removed before storage.`,
        },
      },
    },
    encoding: { [fileField]: { contentType: EVIDENCE_CONTENT_TYPES.join(", ") } },
  };
}
