// What the merchant dashboard records of sensitive actions (keys, webhooks, program, origins, team, going live), from
// either shell, in the transaction of the action itself: both are written or neither. Entries hold ids, codes and
// last fours only — never a secret or a buyer's data — because they can be neither changed nor erased while the
// merchant exists.
import { iso, type Services, type Tx } from "./context.ts";
import { newId } from "./ids.ts";
import type { Mode } from "../vocabulary/ids.ts";
import { insertMerchantAuditEntry, listMerchantAuditEntries } from "../store/merchant-audit.ts";

export const MERCHANT_AUDIT_ACTIONS = [
  "member.signed_up",
  "member.signed_in",
  "member.signed_out_everywhere",
  "member.invited",
  "member.role_changed",
  "member.disabled",
  "member.reactivated",
  "api_key.minted",
  "api_key.rotated",
  "api_key.revoked",
  "webhook_endpoint.created",
  "webhook_endpoint.updated",
  "webhook_endpoint.secret_rotated",
  "webhook_endpoint.deleted",
  "program.updated",
  "allowed_origins.updated",
  "merchant.went_live",
] as const;
export type MerchantAuditAction = (typeof MERCHANT_AUDIT_ACTIONS)[number];

export type MerchantAuditDetail = Record<string, string | number | boolean | null>;
const MAX_DETAIL_CHARS = 1_000;

/** Who did it, for which merchant and mode, from where (a DashboardViewer has these fields). */
export interface MerchantAuditSource {
  merchantId: string;
  mode: Mode;
  actor: { id: string; email: string };
  ip: string;
}

export interface MerchantAuditEntry {
  id: string;
  at: string;
  actorId: string;
  actorEmail: string;
  mode: Mode;
  action: string;
  subject: string;
  detail: MerchantAuditDetail;
  ip: string;
}

/** Appends one entry, in the caller's transaction (with what it records). */
export async function appendMerchantAudit(
  tx: Tx,
  services: Services,
  source: MerchantAuditSource,
  entry: { action: MerchantAuditAction; subject: string; detail?: MerchantAuditDetail },
): Promise<void> {
  const detail = JSON.stringify(entry.detail ?? {});
  if (detail.length > MAX_DETAIL_CHARS) throw new Error(`audit detail of ${entry.action} is too long`);
  const now = services.clock();
  await insertMerchantAuditEntry(tx, {
    id: newId("maud", now, services.random),
    merchantId: source.merchantId,
    actorId: source.actor.id,
    actorEmail: source.actor.email,
    mode: source.mode,
    action: entry.action,
    subject: entry.subject,
    detail,
    ip: source.ip,
    createdAt: now,
  });
}

export const MERCHANT_AUDIT_PAGE_SIZE = 100;

/** The merchant's audit log, newest first, a page at a time; `nextBefore` continues it. */
export async function listMerchantAudit(
  db: Tx,
  merchantId: string,
  before?: string,
): Promise<{ entries: MerchantAuditEntry[]; nextBefore: string | null }> {
  const records = await listMerchantAuditEntries(db, merchantId, before || undefined, MERCHANT_AUDIT_PAGE_SIZE + 1);
  const page = records.slice(0, MERCHANT_AUDIT_PAGE_SIZE);
  return {
    entries: page.map((record) => ({
      id: record.id,
      at: iso(record.createdAt),
      actorId: record.actorId,
      actorEmail: record.actorEmail,
      mode: record.mode,
      action: record.action,
      subject: record.subject,
      detail: JSON.parse(record.detail) as MerchantAuditDetail,
      ip: record.ip,
    })),
    nextBefore: records.length > MERCHANT_AUDIT_PAGE_SIZE ? page[page.length - 1].id : null,
  };
}
