// What privacy requests erase and redact. The one list of what is erased when a merchant or a Shopify shop goes
// (Shopify's shop/redact): a table that holds a merchant's or a shop's rows is added here, and only here. And the
// updates that take one customer's personal data out of a merchant's rows (customers/redact); which data that is,
// and what replaces it, is the domain's rule (server/domain/privacy.ts).
import type { Actor } from "../vocabulary/actors.ts";
import { likeContaining, placeholders, type Queryable } from "./database.ts";

/** Tables keyed by merchant_id, children before parents (erasure.test.ts: every such table is here). */
export const MERCHANT_TABLES = [
  "webhook_attempts",
  "webhook_endpoints",
  "events",
  "email_messages",
  "idempotency_records",
  "settlement_credits",
  "ledger_entries",
  "settlement_statements",
  "claim_risk_assessments",
  "claim_evidence_hash_bands",
  "claim_evidence",
  "claim_timeline",
  "claims",
  "portal_sessions",
  "fee_refunds",
  "shipment_events",
  "shipments",
  "tracking_connections",
  "orders",
  "plans",
  "quotes",
  "offer_experiments",
  "protection_programs",
  "api_keys",
  "member_action_notices",
  "member_action_digests",
  "member_sessions",
  "member_sign_in_tokens",
  "merchant_members",
] as const;

/** Append-only while its merchant exists (a database trigger): erased after the merchant row. */
/** Tables keyed by a plan alone, erased with the merchant's plans (what a Shopify Markets buyer paid in their currency). */
export const PLAN_TABLES = ["plan_presentments"] as const;

export const AFTER_MERCHANT_TABLES = ["merchant_audit_log"] as const;

/** The Shopify app's tables keyed by shop; shop_installations last, as it maps the shop to its merchant. */
export const SHOP_TABLES = [
  "shopify_orders",
  "shopify_data_requests",
  "shopify_webhook_receipts",
  "shopify_jobs",
  "shopify_subscriptions",
  "shopify_statement_charges",
  "shop_installations",
] as const;

/** Deletes every row of the merchant, in both modes: its keys, programs, offers, plans, claims, events and webhooks. */
export async function eraseMerchantRows(tx: Queryable, merchantId: string): Promise<void> {
  await tx.run(
    "DELETE FROM webhook_deliveries WHERE endpoint_id IN (SELECT id FROM webhook_endpoints WHERE merchant_id = ?)",
    [merchantId],
  );
  for (const table of PLAN_TABLES) {
    await tx.run(`DELETE FROM ${table} WHERE plan_id IN (SELECT id FROM plans WHERE merchant_id = ?)`, [merchantId]);
  }
  for (const table of MERCHANT_TABLES) await tx.run(`DELETE FROM ${table} WHERE merchant_id = ?`, [merchantId]);
  await tx.run("DELETE FROM merchants WHERE id = ?", [merchantId]);
  for (const table of AFTER_MERCHANT_TABLES) await tx.run(`DELETE FROM ${table} WHERE merchant_id = ?`, [merchantId]);
}

/** Deletes everything the Shopify app kept about the shop (not its merchant: see eraseMerchantRows). */
export async function eraseShopRows(tx: Queryable, shop: string): Promise<void> {
  for (const table of SHOP_TABLES) await tx.run(`DELETE FROM ${table} WHERE shop = ?`, [shop]);
}

/** The customer's plans (by the lookup hash of their address, or by their orders), oldest first. */
export async function findCustomerPlanIds(
  tx: Queryable,
  owner: Actor,
  customer: { emailHash: string | null; orderIds: string[] },
): Promise<string[]> {
  const clauses: string[] = [];
  const params: string[] = [owner.merchantId, owner.mode];
  if (customer.emailHash) {
    clauses.push("customer_email_hash = ?");
    params.push(customer.emailHash);
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

export interface ClaimRecord {
  id: string;
  planId: string;
  reason: string;
  description: string;
  status: string;
  createdAt: number;
}

/** The Shopify orders of any of the plans: their lines and destination as kept (JSON text; null: not kept). */
export async function listShopifyOrderFactsOfPlans(
  tx: Queryable,
  planIds: string[],
): Promise<{ planId: string; orderId: string; lines: unknown; shipTo: unknown }[]> {
  if (planIds.length === 0) return [];
  const rows = await tx.all<{ plan_id: string; order_id: string; order_lines: string | null; ship_to: string | null }>(
    `SELECT plan_id, order_id, order_lines, ship_to FROM shopify_orders WHERE plan_id IN (${placeholders(planIds)})
     ORDER BY created_at, order_id`,
    planIds,
  );
  const parsed = (text: string | null): unknown => (text === null ? null : JSON.parse(text));
  return rows.map((row) => ({
    planId: row.plan_id,
    orderId: row.order_id,
    lines: parsed(row.order_lines),
    shipTo: parsed(row.ship_to),
  }));
}

/** The claims on any of the plans, oldest first. */
export async function listClaimsOfPlans(tx: Queryable, owner: Actor, planIds: string[]): Promise<ClaimRecord[]> {
  if (planIds.length === 0) return [];
  const rows = await tx.all<{
    id: string;
    plan_id: string;
    reason: string;
    description: string;
    status: string;
    created_at: number | string;
  }>(
    `SELECT id, plan_id, reason, description, status, created_at FROM claims WHERE merchant_id = ? AND mode = ? AND plan_id IN (${placeholders(planIds)}) ORDER BY created_at`,
    [owner.merchantId, owner.mode, ...planIds],
  );
  return rows.map((row) => ({
    id: row.id,
    planId: row.plan_id,
    reason: row.reason,
    description: row.description,
    status: row.status,
    createdAt: Number(row.created_at),
  }));
}

const NO_EMAIL = "customer_email_sealed = NULL, customer_email_hash = NULL";

/** Clears the address from the quotes that hold it (by its lookup hash) or that are for one of the orders. */
export async function clearQuoteEmails(
  tx: Queryable,
  owner: Actor,
  customer: { emailHash: string | null; orderIds: string[] },
): Promise<void> {
  if (customer.emailHash) {
    await tx.run(`UPDATE quotes SET ${NO_EMAIL} WHERE merchant_id = ? AND mode = ? AND customer_email_hash = ?`, [
      owner.merchantId,
      owner.mode,
      customer.emailHash,
    ]);
  }
  if (customer.orderIds.length > 0) {
    await tx.run(
      `UPDATE quotes SET ${NO_EMAIL} WHERE merchant_id = ? AND mode = ? AND order_id IN (${placeholders(customer.orderIds)})`,
      [owner.merchantId, owner.mode, ...customer.orderIds],
    );
  }
}

/** The plan's order context (JSON), as stored. */
export async function findPlanOrderContext(tx: Queryable, planId: string): Promise<Record<string, unknown>> {
  const row = await tx.get<{ order_context: string }>("SELECT order_context FROM plans WHERE id = ?", [planId]);
  return JSON.parse(row!.order_context);
}

/**
 * Clears the plan's address, its shipping address hash and its order's risk (what the platform weighed about the
 * buyer), and replaces its order context; a Shopify order's destination (ship_to) goes too.
 */
export async function redactPlanRow(
  tx: Queryable,
  planId: string,
  orderContext: Record<string, unknown>,
): Promise<void> {
  await tx.run(
    `UPDATE plans SET ${NO_EMAIL}, shipping_address_hash = NULL, order_risk = NULL, order_context = ? WHERE id = ?`,
    [JSON.stringify(orderContext), planId],
  );
  await tx.run("UPDATE shopify_orders SET ship_to = NULL WHERE plan_id = ?", [planId]);
}

/** Replaces every non-empty claim description on the plan. */
export async function replaceClaimDescriptions(tx: Queryable, planId: string, replacement: string): Promise<void> {
  await tx.run("UPDATE claims SET description = ? WHERE plan_id = ? AND description <> ''", [replacement, planId]);
}

const PLAN_CLAIMS = "claim_id IN (SELECT id FROM claims WHERE plan_id = ?)";

/**
 * Takes the buyer's own words and files out of the plan's claims: their timeline messages are replaced, their
 * evidence rows (with the photos' hash bands) and the claims' risk assessments deleted (the files, addressed by
 * content, go with the evidence store's sweep once no row names them), and their portal sessions end.
 */
export async function redactClaimActivity(tx: Queryable, planId: string, replacement: string): Promise<void> {
  await tx.run(`UPDATE claim_timeline SET text = ? WHERE actor = 'buyer' AND text <> '' AND ${PLAN_CLAIMS}`, [
    replacement,
    planId,
  ]);
  // The risk signals were computed from the buyer's claims and photos: they go with them.
  await tx.run(`DELETE FROM claim_risk_assessments WHERE ${PLAN_CLAIMS}`, [planId]);
  await tx.run(`DELETE FROM claim_evidence_hash_bands WHERE ${PLAN_CLAIMS}`, [planId]);
  await tx.run(`DELETE FROM claim_evidence WHERE ${PLAN_CLAIMS}`, [planId]);
  await tx.run("DELETE FROM portal_sessions WHERE plan_id = ?", [planId]);
}

/** Clears the recipient of the plan's e-mails; one still pending becomes skipped. */
export async function clearEmailRecipients(tx: Queryable, planId: string): Promise<void> {
  await tx.run(
    "UPDATE email_messages SET recipient_sealed = NULL, recipient_hash = NULL, status = CASE WHEN status = 'pending' THEN 'skipped' ELSE status END WHERE plan_id = ?",
    [planId],
  );
}

/** Where the carriers scanned the plan's parcels and what they wrote: cleared (a town can point at the buyer). */
export async function clearShipmentScanPlaces(tx: Queryable, planId: string): Promise<void> {
  await tx.run(
    `UPDATE shipment_events SET location = NULL, message = NULL
     WHERE shipment_id IN (SELECT s.id FROM shipments s JOIN orders o ON o.id = s.order_id WHERE o.plan_id = ?)`,
    [planId],
  );
}

/** The shipment.updated events of the plan's order, payloads parsed. */
export async function listShipmentUpdatesOfPlan(
  tx: Queryable,
  planId: string,
): Promise<{ seq: number; data: unknown }[]> {
  const plan = await tx.get<{ merchant_id: string; mode: string; order_id: string }>(
    "SELECT merchant_id, mode, order_id FROM plans WHERE id = ?",
    [planId],
  );
  if (!plan) return [];
  const rows = await tx.all<{ seq: number | string; data: string }>(
    "SELECT seq, data FROM events WHERE merchant_id = ? AND mode = ? AND type = 'shipment.updated' AND data LIKE ? ESCAPE '\\'",
    [plan.merchant_id, plan.mode, likeContaining(`"orderId":${JSON.stringify(plan.order_id)}`)],
  );
  return rows.map((row) => ({ seq: Number(row.seq), data: JSON.parse(row.data) }));
}

/** Events whose payload contains the text in any case, payloads parsed. */
export async function listEventsMentioning(
  tx: Queryable,
  owner: Actor,
  text: string,
): Promise<{ seq: number; data: unknown }[]> {
  const rows = await tx.all<{ seq: number | string; data: string }>(
    "SELECT seq, data FROM events WHERE merchant_id = ? AND mode = ? AND LOWER(data) LIKE ? ESCAPE '\\'",
    [owner.merchantId, owner.mode, likeContaining(text.toLowerCase())],
  );
  return rows.map((row) => ({ seq: Number(row.seq), data: JSON.parse(row.data) }));
}

export async function replaceEventData(tx: Queryable, seq: number, data: unknown): Promise<void> {
  await tx.run("UPDATE events SET data = ? WHERE seq = ?", [JSON.stringify(data), seq]);
}
