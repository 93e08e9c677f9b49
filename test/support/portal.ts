import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import type { TestApi } from "./api-server.ts";
import { apiClient } from "./client.ts";
import { protectOrder } from "./protection-flows.ts";
import type { NewMerchant } from "../../server/domain/merchants.ts";

/** A plan bought with a buyer's address (widget quote + confirm), for the buyer portal's tests. */
export async function protectForBuyer(
  t: TestApi,
  options: { email?: string; merchant?: NewMerchant; orderAmountCents?: number } = {},
) {
  const merchant = options.merchant ?? t.merchant;
  const email = options.email ?? `buyer-${randomUUID()}@example.test`;
  const widget = apiClient(t.baseUrl, merchant.publishableKey);
  const { confirmation } = await protectOrder(widget, merchant.programId, {
    customer_email: email,
    ...(options.orderAmountCents ? { order_amount_cents: options.orderAmountCents } : {}),
  });
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
