// Buyer portal sessions (portal_sessions): one row per sign-in, holding the SHA-256 of its pps_ token (never the
// token), the plan it opens and when it stops working.
import type { Mode } from "../vocabulary/ids.ts";
import type { Queryable } from "./database.ts";

export interface PortalSessionRecord {
  id: string;
  tokenHash: string;
  merchantId: string;
  mode: Mode;
  planId: string;
  via: "lookup" | "coverage_link";
  createdAt: number;
  expiresAt: number;
}

/** A session still in force, with its plan's reference number. */
export interface LivePortalSession {
  id: string;
  merchantId: string;
  mode: Mode;
  planId: string;
  referenceNumber: string;
  expiresAt: number;
}

export async function insertPortalSession(tx: Queryable, session: PortalSessionRecord): Promise<void> {
  await tx.run(
    `INSERT INTO portal_sessions (id, token_hash, merchant_id, mode, plan_id, via, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      session.id,
      session.tokenHash,
      session.merchantId,
      session.mode,
      session.planId,
      session.via,
      session.createdAt,
      session.expiresAt,
    ],
  );
}

/** The session of a token hash when it has not expired at `now`. */
export async function findLivePortalSession(
  tx: Queryable,
  tokenHash: string,
  now: number,
): Promise<LivePortalSession | undefined> {
  const row = await tx.get<{
    id: string;
    merchant_id: string;
    mode: Mode;
    plan_id: string;
    reference_number: string;
    expires_at: number;
  }>(
    `SELECT s.id, s.merchant_id, s.mode, s.plan_id, p.reference_number, s.expires_at
     FROM portal_sessions s JOIN plans p ON p.id = s.plan_id AND p.merchant_id = s.merchant_id AND p.mode = s.mode
     WHERE s.token_hash = ? AND s.expires_at > ?`,
    [tokenHash, now],
  );
  return (
    row && {
      id: row.id,
      merchantId: row.merchant_id,
      mode: row.mode,
      planId: row.plan_id,
      referenceNumber: row.reference_number,
      expiresAt: Number(row.expires_at),
    }
  );
}

/** Ends a session at `now` (sign-out): its token stops working; the purge removes the row with the expired ones. */
export async function endPortalSession(tx: Queryable, sessionId: string, now: number): Promise<void> {
  await tx.run("UPDATE portal_sessions SET expires_at = ? WHERE id = ? AND expires_at > ?", [now, sessionId, now]);
}

/** Deletes the sessions expired at `now`; resolves to how many went. */
export function deleteExpiredPortalSessions(tx: Queryable, now: number): Promise<number> {
  return tx.run("DELETE FROM portal_sessions WHERE expires_at <= ?", [now]);
}
