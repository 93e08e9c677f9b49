// What the merchant dashboard records of sensitive actions (keys, webhooks, program, origins, team, going live), from
// either shell, in the transaction of the action itself: both are written or neither. Entries hold ids, codes and
// last fours only — never a secret or a buyer's data — because they can be neither changed nor erased while the
// merchant exists.
import type { Services, Tx } from "./context.ts";
import type { Mode } from "../vocabulary/ids.ts";
import { appendAudit, AUDIT_PAGE_SIZE, readAuditPage, type AuditDetail, type AuditPageEntry } from "./accounts.ts";

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
  "offer_experiment.started",
  "offer_experiment.stopped",
  "offer_experiment.rolled_out",
  "allowed_origins.updated",
  "merchant.went_live",
] as const;
export type MerchantAuditAction = (typeof MERCHANT_AUDIT_ACTIONS)[number];

export type MerchantAuditDetail = AuditDetail;

/** Who did it, for which merchant and mode, from where (a DashboardViewer has these fields). */
export interface MerchantAuditSource {
  merchantId: string;
  mode: Mode;
  actor: { id: string; email: string };
  ip: string;
}

export type MerchantAuditEntry = AuditPageEntry & { mode: Mode };

/** Appends one entry, in the caller's transaction (with what it records). */
export const appendMerchantAudit = (
  tx: Tx,
  services: Services,
  source: MerchantAuditSource,
  entry: { action: MerchantAuditAction; subject: string; detail?: MerchantAuditDetail },
): Promise<void> => appendAudit(tx, services, "merchant", source, entry);

export const MERCHANT_AUDIT_PAGE_SIZE = AUDIT_PAGE_SIZE;

/** The merchant's audit log (both modes), newest first, a page at a time; `nextBefore` continues it. */
export const listMerchantAudit = (db: Tx, merchantId: string, before?: string) =>
  readAuditPage(db, "merchant", { merchantId, before: before || undefined }) as Promise<{
    entries: MerchantAuditEntry[];
    nextBefore: string | null;
  }>;
