// What a merchant's platform may ask of us about personal data: export what we hold about one customer, redact it,
// or erase the merchant entirely (Shopify's customers/data_request, customers/redact and shop/redact). Personal data
// lives in quotes.customer_email_*, plans.customer_email_*, plans.order_context (participants), claims.description,
// email_messages.recipient_* and the event payloads that copied a purchase. Addresses are stored sealed: rows are
// found by the address's keyed hash (buyer-emails.ts).
import type { Actor, Tx } from "./context.ts";
import type { Sealer } from "../secrets/sealer.ts";
import { placeholders } from "../store/database.ts";
import { getPurchase, type Purchase } from "./purchases.ts";
import { buyerEmailHash, normaliseEmail } from "./buyer-emails.ts";

/** One customer, as the platform names them: an e-mail address and/or the orders that were theirs. */
export interface CustomerSelector {
  email?: string | null;
  orderIds: string[];
}

export interface CustomerRecords {
  purchases: Purchase[];
  claims: { id: string; planId: string; reason: string; description: string; status: string; createdAt: string }[];
}

const REDACTED = "[redacted]";

/** The plans (with consent records) and claims that belong to the customer, for an access request. */
export async function customerRecords(tx: Tx, sealer: Sealer, actor: Actor, customer: CustomerSelector): Promise<CustomerRecords> {
  const planIds = await customerPlanIds(tx, sealer, actor, customer);
  const purchases: Purchase[] = [];
  for (const id of planIds) purchases.push(await getPurchase(tx, actor, id));
  const claims = planIds.length === 0 ? [] : await tx.all<{ id: string; plan_id: string; reason: string; description: string; status: string; created_at: number }>(
    `SELECT id, plan_id, reason, description, status, created_at FROM claims WHERE merchant_id = ? AND mode = ? AND plan_id IN (${placeholders(planIds)}) ORDER BY created_at`,
    [actor.merchantId, actor.mode, ...planIds],
  );
  return {
    purchases,
    claims: claims.map((row) => ({
      id: row.id, planId: row.plan_id, reason: row.reason, description: row.description, status: row.status,
      createdAt: new Date(Number(row.created_at)).toISOString(),
    })),
  };
}

/**
 * Removes the customer's personal data and keeps what the contract needs (amounts, dates, reference numbers,
 * states): e-mail addresses are cleared, order-context participants become unnamed, claim descriptions and any copy
 * of the address inside event payloads are replaced. Returns how many plans were touched.
 */
export async function redactCustomer(tx: Tx, sealer: Sealer, actor: Actor, customer: CustomerSelector): Promise<number> {
  const planIds = await customerPlanIds(tx, sealer, actor, customer);
  const email = (customer.email && normaliseEmail(customer.email)) || null;
  const noEmail = "customer_email_sealed = NULL, customer_email_hash = NULL";
  if (email) {
    await tx.run(`UPDATE quotes SET ${noEmail} WHERE merchant_id = ? AND mode = ? AND customer_email_hash = ?`, [actor.merchantId, actor.mode, buyerEmailHash(sealer, email)]);
  }
  if (customer.orderIds.length > 0) {
    await tx.run(`UPDATE quotes SET ${noEmail} WHERE merchant_id = ? AND mode = ? AND order_id IN (${placeholders(customer.orderIds)})`, [
      actor.merchantId, actor.mode, ...customer.orderIds,
    ]);
  }
  for (const planId of planIds) {
    const plan = await tx.get<{ order_context: string }>("SELECT order_context FROM plans WHERE id = ?", [planId]);
    const context = JSON.parse(plan!.order_context);
    context.participants = { mode: "unnamed" };
    await tx.run(`UPDATE plans SET ${noEmail}, order_context = ? WHERE id = ?`, [JSON.stringify(context), planId]);
    await tx.run("UPDATE claims SET description = ? WHERE plan_id = ? AND description <> ''", [REDACTED, planId]);
    // An e-mail not sent yet is not sent to a redacted address.
    await tx.run("UPDATE email_messages SET recipient_sealed = NULL, recipient_hash = NULL, status = CASE WHEN status = 'pending' THEN 'skipped' ELSE status END WHERE plan_id = ?", [planId]);
  }
  if (email) await redactEventPayloads(tx, actor, email);
  return planIds.length;
}

/** Deletes every row of the merchant, in both modes: its keys, programs, offers, plans, claims, events and webhooks. */
export async function eraseMerchant(tx: Tx, merchantId: string): Promise<void> {
  const byEndpoint = "endpoint_id IN (SELECT id FROM webhook_endpoints WHERE merchant_id = ?)";
  await tx.run(`DELETE FROM webhook_deliveries WHERE ${byEndpoint}`, [merchantId]);
  for (const table of [
    "webhook_attempts", "webhook_endpoints", "events", "email_messages", "idempotency_records", "settlement_credits", "claims", "orders",
    "plans", "quotes", "protection_programs", "api_keys",
  ]) {
    await tx.run(`DELETE FROM ${table} WHERE merchant_id = ?`, [merchantId]);
  }
  await tx.run("DELETE FROM merchants WHERE id = ?", [merchantId]);
}

async function customerPlanIds(tx: Tx, sealer: Sealer, actor: Actor, customer: CustomerSelector): Promise<string[]> {
  const email = customer.email?.trim() || null;
  const clauses: string[] = [];
  const params: string[] = [actor.merchantId, actor.mode];
  if (email) {
    clauses.push("customer_email_hash = ?");
    params.push(buyerEmailHash(sealer, email));
  }
  if (customer.orderIds.length > 0) {
    clauses.push(`order_id IN (${placeholders(customer.orderIds)})`);
    params.push(...customer.orderIds);
  }
  if (clauses.length === 0) return [];
  const rows = await tx.all<{ id: string }>(
    `SELECT id FROM plans WHERE merchant_id = ? AND mode = ? AND (${clauses.join(" OR ")}) ORDER BY created_at`,
    params,
  );
  return rows.map((row) => row.id);
}

/** Event payloads are JSON copies of purchases: replace every string equal to the address (any case). */
async function redactEventPayloads(tx: Tx, actor: Actor, email: string): Promise<void> {
  const rows = await tx.all<{ seq: number; data: string }>(
    "SELECT seq, data FROM events WHERE merchant_id = ? AND mode = ? AND LOWER(data) LIKE ?",
    [actor.merchantId, actor.mode, `%${email.replace(/[%_]/g, "")}%`],
  );
  const scrub = (value: unknown): unknown => {
    if (typeof value === "string") return value.toLowerCase() === email ? REDACTED : value;
    if (Array.isArray(value)) return value.map(scrub);
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, scrub(inner)]));
    return value;
  };
  for (const row of rows) await tx.run("UPDATE events SET data = ? WHERE seq = ?", [JSON.stringify(scrub(JSON.parse(row.data))), row.seq]);
}
