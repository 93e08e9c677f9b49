import { newId } from "./ids.ts";
import { DomainError, notFound } from "./errors.ts";
import { iso, type Actor, type Services, type Tx } from "./context.ts";
import { COVERED_REASONS } from "./disclosure.ts";
import { appendEvent } from "./events.ts";
import { listPage, type Page, type PageQuery } from "./pagination.ts";

export const CLAIM_STATUSES = ["submitted", "under_review", "approved", "paid", "denied"] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

/** A buyer's refund request under a plan. */
export interface Claim {
  id: string;
  object: "claim";
  planId: string;
  referenceNumber: string;
  orderId: string;
  reason: string;
  description: string;
  status: ClaimStatus;
  amountCents: number;
  currency: string;
  createdAt: string;
  updatedAt: string;
  livemode: boolean;
}

interface ClaimRow {
  id: string;
  plan_id: string;
  reference_number: string;
  order_id: string;
  reason: string;
  description: string;
  status: ClaimStatus;
  amount_cents: number;
  currency: string;
  created_at: number;
  updated_at: number;
  mode: string;
}

const CLAIM_COLUMNS = "c.id, c.plan_id, p.reference_number, p.order_id, c.reason, c.description, c.status, c.amount_cents, c.currency, c.created_at, c.updated_at, c.mode";

export interface ClaimFilters {
  status?: ClaimStatus;
  referenceNumber?: string;
  createdGte?: number;
  createdLt?: number;
}

export async function listClaims(db: Tx, actor: Actor, query: PageQuery & ClaimFilters): Promise<Page<Claim>> {
  const filters: [string, string | number | undefined][] = [
    ["c.status = ?", query.status],
    ["p.reference_number = ?", query.referenceNumber],
    ["c.created_at >= ?", query.createdGte],
    ["c.created_at < ?", query.createdLt],
  ];
  return listPage(db, actor, "claims c JOIN plans p ON p.id = c.plan_id", CLAIM_COLUMNS, filters, query, toClaim, "c");
}

/** Files a buyer's claim under an active plan (the consumer portal's path). */
export async function submitClaim(tx: Tx, services: Services, actor: Actor, input: { referenceNumber: string; reason: string; description?: string }): Promise<Claim> {
  if (!(COVERED_REASONS as readonly string[]).includes(input.reason)) {
    throw new DomainError("invalid", "reason_not_covered", `'${input.reason}' is not one of the covered reasons.`, "reason");
  }
  const plan = await tx.get<{ id: string; status: string; covered_amount_cents: number; currency: string }>(
    "SELECT id, status, covered_amount_cents, currency FROM plans WHERE reference_number = ? AND merchant_id = ? AND mode = ?",
    [input.referenceNumber, actor.merchantId, actor.mode],
  );
  if (!plan) throw notFound("plan", input.referenceNumber, "referenceNumber");
  if (plan.status !== "active") throw new DomainError("conflict", "plan_not_active", `Plan '${input.referenceNumber}' is ${plan.status}.`);
  const now = services.clock();
  const id = newId("clm", now, services.random);
  await tx.run(
    `INSERT INTO claims (id, merchant_id, mode, plan_id, reason, description, status, amount_cents, currency, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 'submitted', ?, ?, ?, ?)`,
    [id, actor.merchantId, actor.mode, plan.id, input.reason, input.description ?? "", plan.covered_amount_cents, plan.currency, now, now],
  );
  const row = await tx.get<ClaimRow>(`SELECT ${CLAIM_COLUMNS} FROM claims c JOIN plans p ON p.id = c.plan_id WHERE c.id = ?`, [id]);
  const claim = toClaim(row!);
  await appendEvent(tx, services, actor, "claim.created", claim);
  return claim;
}

function toClaim(row: ClaimRow): Claim {
  return {
    id: row.id,
    object: "claim",
    planId: row.plan_id,
    referenceNumber: row.reference_number,
    orderId: row.order_id,
    reason: row.reason,
    description: row.description,
    status: row.status,
    amountCents: row.amount_cents,
    currency: row.currency,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    livemode: row.mode === "live",
  };
}
