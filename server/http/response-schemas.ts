import { z } from "zod";
import { REFERENCE_NUMBER_PATTERN } from "@purchase-protection/contract";

// Response shapes for the OpenAPI document (requests are described by the schemas that validate them).

export const error = z.object({
  error: z.object({
    type: z.enum(["invalid_request_error", "authentication_error", "permission_error", "rate_limit_error", "api_error"]),
    code: z.string(),
    message: z.string(),
    param: z.string().optional(),
    request_id: z.string(),
  }),
});

export const quote = z.object({
  quoteId: z.string(),
  status: z.literal("open"),
  orderId: z.string(),
  currency: z.string(),
  orderAmountCents: z.number().int(),
  feeCents: z.number().int(),
  coveredAmountCents: z.number().int(),
  coveredReasons: z.array(z.string()).length(12),
  disclosureText: z.string().describe("The full two-sentence disclosure, to be shown verbatim."),
  termsUrl: z.string(),
  expiresAt: z.string().describe("ISO 8601 UTC; quotes live 30 minutes."),
  livemode: z.boolean(),
});

export const confirmation = z.object({
  referenceNumber: z.string().regex(REFERENCE_NUMBER_PATTERN),
  planId: z.string(),
  status: z.literal("confirmed"),
  orderId: z.string(),
  currency: z.string(),
  feeCents: z.number().int(),
  coveredAmountCents: z.number().int(),
  freeLookEndsAt: z.string(),
  coverageUrl: z.string(),
  livemode: z.boolean(),
});

export const event = z.object({
  id: z.string(),
  object: z.literal("event"),
  type: z.string(),
  created: z.number().int().describe("Unix seconds."),
  livemode: z.boolean(),
  data: z.object({ object: z.unknown() }),
});

export const list = z.object({
  object: z.literal("list"),
  data: z.array(z.unknown()),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
});
