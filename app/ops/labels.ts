// The console's words for the core's codes (statuses, timeline actors, audit actions, views, delivery states and scans).

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

/** A claim's risk level in words (the page's colour only repeats it). */
export const RISK_LEVEL_NAMES = { low: "Low", elevated: "Elevated", high: "High" } as const;

/** The queue's orders (the "Sort" choice); within a risk level the oldest comes first. */
export const QUEUE_SORT_LABELS = {
  oldest: "Oldest first",
  risk: "Highest risk first",
  newest: "Newest first",
} as const;

/** A shipment's derived state in words (docs/api.md "Delivery states"); a stall adds its "since" beside it. */
export const SHIPMENT_STATE_LABELS: Record<string, string> = {
  pending: "Pending (no scan yet)",
  in_transit: "In transit",
  stalled: "Stalled: presumed lost",
  delivered: "Delivered",
  failed: "Delivery failed",
  returned_to_sender: "Returned to sender",
};

/** An order's delivery state: its shipments' state that matters most to a claim, or nothing shipped yet. */
export const ORDER_DELIVERY_LABELS: Record<string, string> = {
  not_shipped: "No shipment reported",
  ...SHIPMENT_STATE_LABELS,
};

/** What a carrier's scan said. */
export const SCAN_STATUS_LABELS: Record<string, string> = {
  in_transit: "In transit",
  out_for_delivery: "Out for delivery",
  attempted_delivery: "Delivery attempted",
  delayed: "Delayed",
  delivered: "Delivered",
  failure: "Delivery failed",
  returned_to_sender: "Returned to sender",
};
