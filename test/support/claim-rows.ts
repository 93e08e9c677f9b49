// Claims and their timeline as rows (prisma/schema.prisma: Claim, ClaimTimelineEntry), for tests of what reads them
// (the claim e-mails) without going through the portal's routes.
import type { Queryable } from "../../server/store/database.ts";
import type { Actor } from "../../server/vocabulary/actors.ts";
import { cryptoRandom, newId } from "../../server/domain/ids.ts";
import { NEXT_CLAIM_NUMBER } from "../../server/store/claims.ts";

export interface ClaimRow {
  planId: string;
  reason?: string;
  description?: string;
  status?: "submitted" | "under_review" | "needs_information" | "approved" | "paid" | "denied";
  amountCents?: number;
  currency?: string;
  occurredAt?: number;
  decisionCode?: string | null;
  decisionMessage?: string | null;
  paidAmountCents?: number;
  at: number;
}

/** Inserts a claim; resolves with its id. */
export async function insertClaimRow(db: Queryable, owner: Actor, claim: ClaimRow): Promise<string> {
  const id = newId("clm", claim.at, cryptoRandom);
  const reason = claim.reason ?? "damaged_in_transit";
  const status = claim.status ?? "submitted";
  const open = status !== "paid" && status !== "denied";
  await db.run(
    `INSERT INTO claims (id, merchant_id, mode, plan_id, number, reason, description, status, amount_cents, currency,
                         occurred_at, decision_code, decision_message, decided_at, paid_amount_cents, open_slot,
                         created_at, updated_at)
     VALUES (?, ?, ?, ?, ${NEXT_CLAIM_NUMBER}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      id,
      owner.merchantId,
      owner.mode,
      claim.planId,
      claim.planId,
      reason,
      claim.description ?? "",
      status,
      claim.amountCents ?? 5_000,
      claim.currency ?? "USD",
      claim.occurredAt ?? claim.at,
      claim.decisionCode ?? null,
      claim.decisionMessage ?? null,
      claim.decisionMessage ? claim.at : null,
      claim.paidAmountCents ?? 0,
      open ? `${claim.planId}:${reason}` : null,
      claim.at,
      claim.at,
    ],
  );
  return id;
}

/** Moves a claim on: its status and decision columns as given. */
export async function updateClaimRow(
  db: Queryable,
  claimId: string,
  change: Pick<ClaimRow, "status" | "decisionCode" | "decisionMessage" | "paidAmountCents" | "at">,
): Promise<void> {
  await db.run(
    `UPDATE claims SET status = COALESCE(?, status), decision_code = COALESCE(?, decision_code),
                       decision_message = COALESCE(?, decision_message), paid_amount_cents = COALESCE(?, paid_amount_cents),
                       updated_at = ? WHERE id = ?`,
    [
      change.status ?? null,
      change.decisionCode ?? null,
      change.decisionMessage ?? null,
      change.paidAmountCents ?? null,
      change.at,
      claimId,
    ],
  );
}

/** Appends a timeline entry; resolves with its id. */
export async function insertTimelineRow(
  db: Queryable,
  owner: Actor,
  entry: {
    claimId: string;
    actor: "buyer" | "merchant" | "claims_team" | "service";
    kind: "submitted" | "message" | "status_changed";
    status?: string | null;
    text?: string;
    at: number;
  },
): Promise<string> {
  const id = newId("cte", entry.at, cryptoRandom);
  await db.run(
    `INSERT INTO claim_timeline (id, claim_id, merchant_id, mode, actor, kind, status, text, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      id,
      entry.claimId,
      owner.merchantId,
      owner.mode,
      entry.actor,
      entry.kind,
      entry.status ?? null,
      entry.text ?? "",
      entry.at,
    ],
  );
  return id;
}
