// The dashboard's words for the core's codes: claim and purchase statuses, a claim's timeline, webhook endpoints and
// deliveries, remedies. One table per code, so every page says the same thing; a code without a word (one added to the
// core later) is shown with its underscores as spaces rather than not at all. Covered reasons have published names
// (the rulebook's, server-side): loaders hand them to pages as `reasonNames` (reason-names.server.ts).

import type { MerchantAuditAction } from "../../server/index.ts";

const words =
  (table: Record<string, string>) =>
  (code: string): string =>
    table[code] ?? code.replace(/_/g, " ");

/** A claim's status as the merchant reads it: what is happening and who it waits for. */
export const claimStatusLabel = words({
  submitted: "Waiting for review",
  under_review: "Being reviewed",
  needs_information: "Waiting for the buyer",
  approved: "Approved",
  paid: "Paid",
  denied: "Denied",
});

/** A claim timeline entry's kind. */
export const timelineKindLabel = words({
  submitted: "Filed by the buyer",
  message: "Message",
  status_changed: "Status changed",
});

/** Who wrote a timeline entry. */
export const timelineActorLabel = words({
  buyer: "the buyer",
  merchant: "you",
  claims_team: "the claims team",
  service: "the service",
});

/** A purchase's (plan's) status; a plan voided because the merchant refunded the order says so. */
export const purchaseStatusLabel = (status: string, orderStatus?: string | null): string =>
  orderStatus === "merchant_refunded"
    ? "Refunded by you"
    : words({ active: "Active", voided: "Voided", cancelled: "Cancelled by the buyer" })(status);

/** How an approved claim is settled. */
export const remedyLabel = words({ refund: "a refund", replacement: "a replacement" });

/** A webhook endpoint's status. */
export const endpointStatusLabel = words({ enabled: "Enabled", failing: "Failing", disabled: "Paused" });

/** The outcome of one delivery attempt. */
export const deliveryOutcomeLabel = words({ succeeded: "Delivered", failed: "Failed" });

/** A covered reason's published name, given the names the loader sent. */
export const reasonLabel = (names: Record<string, string>, code: string) => names[code] ?? code.replace(/_/g, " ");

/** An audit log entry's action, as a sentence's verb phrase; every action the core records has its words (the type). */
const AUDIT_ACTION_WORDS: Record<MerchantAuditAction, string> = {
  "member.signed_up": "Signed up",
  "member.signed_in": "Signed in",
  "member.signed_out_everywhere": "Signed out everywhere",
  "member.invited": "Invited a member",
  "member.role_changed": "Changed a member's role",
  "member.disabled": "Disabled a member",
  "member.reactivated": "Reactivated a member",
  "api_key.minted": "Minted a key",
  "api_key.rotated": "Rotated a key",
  "api_key.revoked": "Revoked a key",
  "webhook_endpoint.created": "Added a webhook endpoint",
  "webhook_endpoint.updated": "Changed a webhook endpoint",
  "webhook_endpoint.secret_rotated": "Rotated a webhook signing secret",
  "webhook_endpoint.deleted": "Deleted a webhook endpoint",
  "program.updated": "Changed the program's terms",
  "offer_experiment.started": "Started an offer experiment",
  "offer_experiment.stopped": "Stopped an offer experiment",
  "offer_experiment.rolled_out": "Rolled out an offer experiment's variant",
  "allowed_origins.updated": "Changed the widget's allowed origins",
  "merchant.went_live": "Went live",
};
export const auditActionLabel = words(AUDIT_ACTION_WORDS);
