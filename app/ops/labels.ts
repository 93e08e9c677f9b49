// The console's words for the core's codes (statuses, timeline actors, audit actions, views) and its durations.

export const STATUS_LABELS: Record<string, string> = {
  submitted: "Submitted",
  under_review: "Under review",
  needs_information: "Needs information",
  approved: "Approved",
  paid: "Paid",
  denied: "Denied",
};

export const VIEW_LABELS: Record<string, string> = {
  open: "Open (to decide or to pay)",
  ...STATUS_LABELS,
  payout_error: "Payout failed",
  all: "All claims",
};

export const ACTOR_LABELS: Record<string, string> = {
  buyer: "Buyer",
  merchant: "Merchant",
  claims_team: "Claims team",
  service: "Service",
};

export const AUDIT_ACTION_LABELS: Record<string, string> = {
  "staff.sign_in_link_sent": "Sign-in link sent",
  "staff.signed_in": "Signed in",
  "staff.signed_out": "Signed out",
  "staff.invited": "Invited a staff member",
  "staff.role_changed": "Changed a role",
  "staff.disabled": "Disabled an account",
  "staff.reactivated": "Reactivated an account",
  "claim.review_started": "Started a review",
  "claim.approved": "Approved a claim",
  "claim.denied": "Denied a claim",
  "claim.information_requested": "Asked for information",
  "claim.payment_recorded": "Recorded a payment made in the Shopify admin",
  "claim.assigned": "Took a claim",
  "claim.unassigned": "Gave a claim back",
};

export const ROLE_LABELS: Record<string, string> = { reviewer: "Reviewer", admin: "Admin" };
export const ACCOUNT_STATUS_LABELS: Record<string, string> = {
  invited: "Invited",
  active: "Active",
  disabled: "Disabled",
};

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "3 d 4 h", "5 h 10 min", "12 min": how long a claim has waited. */
export function formatAge(ms: number): string {
  if (ms >= DAY) return `${Math.floor(ms / DAY)} d ${Math.floor((ms % DAY) / HOUR)} h`;
  if (ms >= HOUR) return `${Math.floor(ms / HOUR)} h ${Math.floor((ms % HOUR) / MINUTE)} min`;
  return `${Math.max(0, Math.floor(ms / MINUTE))} min`;
}

/** A claim's risk level in words (the page's colour only repeats it). */
export const RISK_LEVEL_NAMES = { low: "Low", elevated: "Elevated", high: "High" } as const;
