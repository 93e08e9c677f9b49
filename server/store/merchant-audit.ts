// The merchant audit log (merchant_audit_log): sensitive dashboard actions, append-only while the merchant exists
// (database triggers; server/store/erasure.ts removes the rows after the merchant row).
import type { Mode } from "../vocabulary/ids.ts";
import type { Queryable } from "./database.ts";

export interface MerchantAuditRecord {
  id: string;
  merchantId: string;
  actorId: string;
  actorEmail: string;
  mode: Mode;
  action: string;
  subject: string;
  /** JSON text. */
  detail: string;
  ip: string;
  createdAt: number;
}

interface MerchantAuditRow {
  id: string;
  merchant_id: string;
  actor_id: string;
  actor_email: string;
  mode: Mode;
  action: string;
  subject: string;
  detail: string;
  ip: string;
  created_at: number;
}

export async function insertMerchantAuditEntry(tx: Queryable, entry: MerchantAuditRecord): Promise<void> {
  await tx.run(
    `INSERT INTO merchant_audit_log (id, merchant_id, actor_id, actor_email, mode, action, subject, detail, ip, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      entry.id,
      entry.merchantId,
      entry.actorId,
      entry.actorEmail,
      entry.mode,
      entry.action,
      entry.subject,
      entry.detail,
      entry.ip,
      entry.createdAt,
    ],
  );
}

/** The merchant's newest `limit` entries (both modes), older than `before` (an entry id: ids sort by time) if given. */
export async function listMerchantAuditEntries(
  tx: Queryable,
  merchantId: string,
  before: string | undefined,
  limit: number,
): Promise<MerchantAuditRecord[]> {
  const rows = await tx.all<MerchantAuditRow>(
    `SELECT id, merchant_id, actor_id, actor_email, mode, action, subject, detail, ip, created_at FROM merchant_audit_log
     WHERE merchant_id = ?${before === undefined ? "" : " AND id < ?"} ORDER BY id DESC LIMIT ${limit}`,
    before === undefined ? [merchantId] : [merchantId, before],
  );
  return rows.map((row) => ({
    id: row.id,
    merchantId: row.merchant_id,
    actorId: row.actor_id,
    actorEmail: row.actor_email,
    mode: row.mode,
    action: row.action,
    subject: row.subject,
    detail: row.detail,
    ip: row.ip,
    createdAt: Number(row.created_at),
  }));
}
