import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import type { TestApi } from "./api-server.ts";
import { apiClient, type ApiResponse } from "./client.ts";
import { protectOrder } from "./protection-flows.ts";
import type { NewMerchant } from "../../server/domain/merchants.ts";

/**
 * A plan bought with a buyer's address (widget quote + confirm), for the buyer portal's tests. `key: "secret"`: from
 * the merchant's server instead, as a merchant-paid program's orders must be (docs/api.md "Who pays").
 */
export async function protectForBuyer(
  t: TestApi,
  options: {
    email?: string;
    merchant?: NewMerchant;
    orderAmountCents?: number;
    key?: "publishable" | "secret";
    /** The confirm's shipping_address (the plan keeps its keyed hash). */
    shippingAddress?: { country_code: string; postal_code?: string; line1: string };
  } = {},
) {
  const merchant = options.merchant ?? t.merchant;
  const email = options.email ?? `buyer-${randomUUID()}@example.test`;
  const client = apiClient(t.baseUrl, options.key === "secret" ? merchant.secretKey : merchant.publishableKey);
  const { confirmation } = await protectOrder(
    client,
    merchant.programId,
    {
      customer_email: email,
      ...(options.orderAmountCents ? { order_amount_cents: options.orderAmountCents } : {}),
    },
    options.shippingAddress ? { shipping_address: options.shippingAddress } : {},
  );
  return { email, referenceNumber: confirmation.referenceNumber as string, planId: confirmation.planId as string };
}

/** Signs in with e-mail + reference number (POST /portal/lookup): the session token and a client that sends it. */
export async function signIn(t: TestApi, plan: { email: string; referenceNumber: string }) {
  const response = await apiClient(t.baseUrl).post(
    "/portal/lookup",
    { email: plan.email, referenceNumber: plan.referenceNumber },
    { idempotencyKey: null },
  );
  assert.equal(response.status, 200, response.text);
  const token = response.body.portalToken as string;
  return { token, session: response.body, buyer: apiClient(t.baseUrl, token) };
}

/** A plan and a signed-in buyer of it. */
export async function signedInBuyer(t: TestApi, options: Parameters<typeof protectForBuyer>[1] = {}) {
  const plan = await protectForBuyer(t, options);
  return { ...plan, ...(await signIn(t, plan)) };
}

/** A file a multipart portal request sends in its `evidence` field. */
export interface EvidenceUpload {
  name: string;
  bytes: Uint8Array;
  type?: string;
}

/** A multipart POST with text fields and files in `evidence`, as a browser form sends it, with a portal session. */
export async function postForm(
  baseUrl: string,
  token: string,
  path: string,
  fields: Record<string, string>,
  files: readonly EvidenceUpload[],
  options: { idempotencyKey?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files)
    form.append("evidence", new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.type ?? "" }), file.name);
  const response = await fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${token}`,
      "Idempotency-Key": options.idempotencyKey ?? randomUUID(),
      ...options.headers,
    },
    body: form,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined, text };
}

/** A PDF of exactly `byteSize` bytes (at least 24), unlike any other this process made: new bytes for the store. */
export function uniquePdf(byteSize = 64): Uint8Array {
  const bytes = new Uint8Array(byteSize).fill(0x20);
  bytes.set(new TextEncoder().encode(`%PDF-1.4\n%${randomUUID().slice(0, 12)}`));
  return bytes;
}
