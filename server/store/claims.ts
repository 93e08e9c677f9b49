// Claims (claims): a buyer's refund requests under a plan, read with the plan's reference number and order id.
import type { Actor } from "../domain/context.ts";
import type { ClaimStatus } from "../domain/claims.ts";
import type { Mode } from "../domain/ids.ts";
import type { Page, PageQuery } from "../domain/pagination.ts";
import type { Queryable } from "./database.ts";
import { listPage } from "./pagination.ts";

export interface ClaimRecord {
  id: string;
  planId: string;
  referenceNumber: string;
  orderId: string;
  reason: string;
  description: string;
  status: ClaimStatus;
  amountCents: number;
  currency: string;
  createdAt: number;
  updatedAt: number;
  mode: Mode;
}

export type NewClaim = Pick<
  ClaimRecord,
  "id" | "planId" | "reason" | "description" | "amountCents" | "currency" | "createdAt"
>;

export interface ClaimFilters {
  status?: ClaimStatus;
  referenceNumber?: string;
  createdGte?: number;
  createdLt?: number;
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
  mode: Mode;
}

const CLAIMS = "claims c JOIN plans p ON p.id = c.plan_id";
const CLAIM_COLUMNS =
  "c.id, c.plan_id, p.reference_number, p.order_id, c.reason, c.description, c.status, c.amount_cents, c.currency, c.created_at, c.updated_at, c.mode";

function toClaimRecord(row: ClaimRow): ClaimRecord {
  return {
    id: row.id,
    planId: row.plan_id,
    referenceNumber: row.reference_number,
    orderId: row.order_id,
    reason: row.reason,
    description: row.description,
    status: row.status,
    amountCents: row.amount_cents,
    currency: row.currency,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    mode: row.mode,
  };
}

/** Stores a submitted claim (created and updated now). */
export async function insertClaim(tx: Queryable, owner: Actor, claim: NewClaim): Promise<void> {
  await tx.run(
    `INSERT INTO claims (id, merchant_id, mode, plan_id, reason, description, status, amount_cents, currency, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 'submitted', ?, ?, ?, ?)`,
    [
      claim.id,
      owner.merchantId,
      owner.mode,
      claim.planId,
      claim.reason,
      claim.description,
      claim.amountCents,
      claim.currency,
      claim.createdAt,
      claim.createdAt,
    ],
  );
}

export async function findClaim(tx: Queryable, claimId: string): Promise<ClaimRecord | undefined> {
  const row = await tx.get<ClaimRow>(`SELECT ${CLAIM_COLUMNS} FROM ${CLAIMS} WHERE c.id = ?`, [claimId]);
  return row && toClaimRecord(row);
}

export function listClaimsPage(
  tx: Queryable,
  owner: Actor,
  query: PageQuery & ClaimFilters,
): Promise<Page<ClaimRecord>> {
  const filters: [string, string | number | undefined][] = [
    ["c.status = ?", query.status],
    ["p.reference_number = ?", query.referenceNumber],
    ["c.created_at >= ?", query.createdGte],
    ["c.created_at < ?", query.createdLt],
  ];
  return listPage(tx, owner, CLAIMS, CLAIM_COLUMNS, filters, query, toClaimRecord, "c");
}
