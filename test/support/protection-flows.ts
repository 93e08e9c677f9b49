import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import type { Queryable } from "../../server/store/database.ts";
import { apiClient, orderContextFor, type ApiResponse } from "./client.ts";
import { buyerAddress, createQuote } from "./api-assertions.ts";
import type { Confirmation, HeadlessConfirmation, HeadlessQuote } from "../../packages/sdk/src/responses.ts";

// Multi-step flows through the API that several test files need: protect an order, read the outbox.

export type ApiClient = ReturnType<typeof apiClient>;

export const sha256Hex = (text: string) => createHash("sha256").update(text).digest("hex");

/** The body of POST /offers/confirm for a quote and its token. */
export function confirmBody(quote: { quoteId: string } & Parameters<typeof orderContextFor>[0], token: string) {
  return { quoteId: quote.quoteId, quoteToken: token, order_context: orderContextFor(quote) };
}

/** Quote (with `fields`) then confirm (with `confirmFields`) through /offers: the quote, its token and the confirmation. */
export async function protectOrder(
  client: ApiClient,
  programId: string,
  fields: Record<string, unknown> = {},
  confirmFields: Record<string, unknown> = {},
) {
  const { quote, token } = await createQuote(client, programId, fields);
  const response = await client.post<Confirmation>("/offers/confirm", {
    ...confirmBody(quote, token),
    ...confirmFields,
  });
  assert.equal(response.status, 200, response.text);
  return { quote, token, confirmation: response.body };
}

/** Quote (with a buyer address unless `fields` says otherwise) then confirm through /headless with a secret key. */
export async function protectOrderHeadless(secret: ApiClient, programId: string, fields: Record<string, unknown> = {}) {
  const quote = await secret.post<HeadlessQuote>("/headless/quote", {
    order_amount_cents: 10_000,
    order_id: `order-${crypto.randomUUID()}`,
    protection_program_id: programId,
    customer_email: buyerAddress(),
    ...fields,
  });
  assert.equal(quote.status, 200, quote.text);
  const confirmation = await secret.post<HeadlessConfirmation>("/headless/confirm", { quote_id: quote.body.quote_id });
  assert.equal(confirmation.status, 200, confirmation.text);
  return { quote: quote.body, confirmation: confirmation.body };
}

export interface EventRow {
  id: string;
  type: string;
  /** The event payload (`data.object` of the envelope). */
  data: Record<string, unknown>;
  created_at: number;
}

/** The outbox rows of a merchant in creation order, optionally of one type. */
export async function outbox(db: Queryable, merchantId: string, type?: string): Promise<EventRow[]> {
  const rows = await db.all<{ id: string; type: string; data: string; created_at: number }>(
    `SELECT id, type, data, created_at FROM events WHERE merchant_id = ?${type ? " AND type = ?" : ""} ORDER BY seq`,
    type ? [merchantId, type] : [merchantId],
  );
  return rows.map((row) => ({ ...row, created_at: Number(row.created_at), data: JSON.parse(row.data) }));
}

/** Every object key of a JSON value, at any depth. */
export function keysDeep(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysDeep);
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, inner]) => [key, ...keysDeep(inner)]);
}

/** Counts responses by `status code`, e.g. { "200": 1, "409 quote_already_used": 49 }. */
export function tally(responses: ApiResponse[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const response of responses) {
    const label = response.status === 200 ? "200" : `${response.status} ${response.body?.error?.code}`;
    counts[label] = (counts[label] ?? 0) + 1;
  }
  return counts;
}
