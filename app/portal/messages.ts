// Every sentence the buyer portal shows, in one place (English). Pages take their words from here; an API error is
// shown through `errorSentence`, which maps the API's stable error codes to plain sentences for a buyer.

export const messages = {
  siteName: "Purchase protection",
  skipToContent: "Skip to main content",
  signOut: "Sign out",
  // The footer's link to the rulebook; "What is covered" is the plan page's section and the rulebook's title, once each.
  termsLink: "Rules of the protection",
  planLink: "Your coverage",
  footerNote: "Questions about your order itself? Contact the store you bought from.",
  protectedBy: (merchantName: string) => `Your order from ${merchantName}`,

  lookup: {
    title: "Find your protection",
    intro:
      "Enter the e-mail address you used for the order and either the reference number from your protection e-mail or the store's order number.",
    email: "E-mail address",
    emailHint: "The address the store sent your order confirmation to.",
    reference: "Reference number or order number",
    referenceHint:
      "The reference number has the form CLM-YYYY-XXXXXXXX, for example CLM-2026-7K3M9Q2X: it is in your protection e-mail. Or the order number from the store's confirmation, for example #1001.",
    submit: "Continue",
    emailMissing: "Enter the e-mail address you used for the order.",
    referenceMissing: "Enter the reference number from your protection e-mail, or the store's order number.",
    signedOut: "You are signed out.",
    sessionExpired: "Your session has ended. Look up your protection again to continue.",
    linkFailed:
      "This link has expired or is not valid. Look up your protection with your e-mail address and reference number or order number.",
  },

  coverageLink: {
    title: "Open your coverage",
    intro: (referenceNumber: string) =>
      `This link opens the protection of your order, reference number ${referenceNumber}. Continue to see your coverage and make a request.`,
    submit: "Open my coverage",
  },

  plan: {
    title: "Your coverage",
    reference: "Reference number",
    order: "Order",
    actionTitle: "Action needed",
    actionIntro: "We need more information to decide this request. Answer on its page:",
    actionAnswer: (claim: string) => `Answer the question about ${claim}`,
    question: "Our question",
    status: "Status",
    statuses: { active: "Active", voided: "Voided by the store", cancelled: "Cancelled" } as Record<string, string>,
    fee: "Protection fee",
    covered: "Covered amount",
    remaining: "Still available to claim",
    purchased: "Protected since",
    claimWindow: (days: number) =>
      `Report a problem within ${days} days of the day it happened. One open request per reason at a time.`,
    // Followed by a <time> each (LocalTime): the delivery, then the end of the window that counts from it.
    deliveredOn: "The carrier delivered your order on",
    deliveryClaimsUntil: (days: number) =>
      `For a parcel that arrived damaged, defective, wrong or incomplete, or was stolen after delivery, the ${days} days count from the delivery: you can claim until`,
    reasonsTitle: "What is covered",
    reasonsIntro: "You can ask for a refund for any of these reasons:",
    reasonsIntroEnded: "While it was active, this protection covered these reasons:",
    fullTerms: "Read the full rules",
    freeLookTitle: "Changed your mind?",
    freeLookOpen: "You can cancel this protection and get the fee back until",
    freeLookRemaining: "Time left:",
    freeLookClosed: "The 48-hour window to cancel and get the fee back has ended.",
    // Within the 48 hours, a request that is not declined holds the fee (the API's plan_has_claims).
    freeLookHasClaims:
      "This protection has a request that is open, approved or paid, so it can no longer be cancelled for a refund of its fee.",
    freeLookVoided: "The store voided this protection, so there is nothing to cancel.",
    // A merchant-paid plan (the API's free_look_not_applicable): the buyer paid nothing, so nothing is refunded.
    freeLookMerchantPaid: (store: string) =>
      `${store} paid for this protection, so you paid nothing for it and there is nothing to cancel or refund.`,
    cancelButton: "Cancel protection",
    // The time follows as a <time> the browser writes in the buyer's zone (LocalTime).
    cancelledOn: "You cancelled this protection on",
    refundPending: (amount: string) => `Your fee of ${amount} will be refunded. Refund status: pending.`,
    refundDone: (amount: string) => `Your fee of ${amount} was refunded on`,
    claimsTitle: "Your refund requests",
    noClaims: "You have not asked for a refund yet.",
    newClaim: "Report a problem",
    viewClaim: (claim: string) => `View ${claim}`,
    filedOn: (date: string) => `sent on ${date}`,
    decisionReason: "Reason for the decision:",
    notActive: "This protection is not active, so no new requests can be filed.",
  },

  cancel: {
    title: "Cancel your protection",
    explain: (fee: string) =>
      `If you cancel, your order is no longer protected and you cannot ask for a refund under this protection. The fee of ${fee} is refunded to you.`,
    confirm: "I understand that my order will no longer be protected.",
    confirmMissing: "Tick the box to confirm that you want to cancel.",
    submit: "Yes, cancel protection",
    back: "Keep my protection",
    done: "Your protection is cancelled. The fee will be refunded.",
  },

  claim: {
    newTitle: "Report a problem",
    newIntro: "Tell us what went wrong. We answer every request, and every decision comes with its reason.",
    reason: "What happened?",
    reasonChoose: "Choose a reason",
    occurredAt: "When did it happen?",
    occurredAtHint:
      "The day you noticed the problem. It must be within the last 30 days; for a parcel as it arrived, within 30 days of its delivery.",
    description: "Describe the problem",
    descriptionHint: "What you ordered, what happened, and anything that helps us check it. Up to 5000 characters.",
    amount: "Amount to refund (optional)",
    amountHint: (remaining: string, example: string) =>
      `For example ${example}. Leave it empty to ask for the full remaining covered amount (${remaining}).`,
    evidence: "Photos or documents (optional)",
    // For the reasons a photo shows best (PHOTO_REASONS of the claim form): asked for, not required by the rulebook.
    evidencePhotos: "Photos of the problem (please add at least one)",
    photosAsked: "For a damaged, defective or wrong item, add at least one photo that shows the problem.",
    photosPlease: "A photo that shows the problem is how we can check it quickly.",
    evidenceHint: (maxFiles: number, maxSize: string, perRequest: string) =>
      `Up to ${maxFiles} files, ${maxSize} each: JPEG, PNG, WebP, HEIC or PDF. A request holds at most ${perRequest} in all.`,
    submit: "Send request",
    reasonMissing: "Choose what happened.",
    occurredAtMissing: "Enter the day it happened.",
    descriptionMissing: "Describe the problem.",
    amountInvalid: (example: string) => `Enter the amount as you would write it, for example ${example}.`,
    created: "Your request was sent. We will e-mail you when its status changes.",
    detailTitle: "Refund request",
    /** A claim's name for the buyer: "Claim 2 on CLM-2026-7K3M9Q2X" (the service's claimName). */
    name: (number: number, referenceNumber: string) => `Claim ${number} on ${referenceNumber}`,
    nameInline: (number: number, referenceNumber: string) => `claim ${number} on ${referenceNumber}`,
    payoutPending: (what: string) => `Approved: ${what}.`,
    // The day and time follow as a <time> the browser writes in the buyer's zone (LocalTime).
    payoutPaidPrefix: (what: string) => `Paid: ${what}, on`,
    paidBy: (payer: string, remedy: string, merchantName: string) =>
      remedy === "replacement"
        ? `${merchantName} sent you the replacement.`
        : payer === "shopify_refund"
          ? "The refund went back to the payment method you used for the order. Your bank can take 5–10 business days to show it."
          : `${merchantName} refunded you directly. Your bank can take 5–10 business days to show it.`,
    remedy: (remedy: string, amount: string) =>
      remedy === "replacement" ? `a replacement worth ${amount}` : `a refund of ${amount}`,
    actionTitle: "Action needed",
    status: "Status",
    statuses: {
      submitted: "Received",
      under_review: "Being reviewed",
      needs_information: "We need more information",
      approved: "Approved",
      paid: "Paid",
      denied: "Declined",
    } as Record<string, string>,
    reasonLabel: "Reason",
    amountLabel: "Amount asked",
    occurredLabel: "Happened on",
    filedLabel: "Sent on",
    decision: "Decision",
    decisionBasis: "What the decision rests on",
    yourDescription: "What you told us",
    timeline: "History",
    actors: {
      buyer: "You",
      merchant: "The store",
      claims_team: "Claims team",
      service: "Purchase protection",
    } as Record<string, string>,
    kinds: { submitted: "Request sent", message: "Message", status_changed: "Status changed" } as Record<
      string,
      string
    >,
    statusBecame: (status: string) => `Status: ${status}`,
    evidenceTitle: "Files",
    noEvidence: "No files yet.",
    download: (name: string) => `Download ${name}`,
    addInfoTitle: "Add information",
    addInfoIntro: "Send a message or more files for this request.",
    message: "Your message",
    messageMissing: "Write a message.",
    addInfoSubmit: "Send",
    added: "Thank you. Your information was added to the request.",
    closed: "This request is closed; no more information can be added.",
    back: "Back to your coverage",
  },

  terms: {
    title: "What is covered",
    intro:
      "One set of rules for every order protected by this service. There is no fine print beyond this page and the disclosure below.",
    reasonsTitle: "The reasons you can ask for a refund",
    freeLookTitle: "Cancel within 48 hours",
    freeLook: (hours: number) =>
      `You can cancel the protection within ${hours} hours of your purchase and get back what you paid for it, no questions asked. Protection your store paid for cost you nothing, so there is no fee to cancel it for.`,
    windowTitle: "Report within 30 days",
    window: (days: number) =>
      `Ask for a refund within ${days} days of the day the problem happened, and not before the purchase. You can have one open request per reason at a time. The amount is at most the covered amount, less what earlier requests on the same order were paid.`,
    deliveryWindow: (reasons: string) =>
      `For a problem with the parcel as it arrived (${reasons}), what happened is its delivery: once the carrier recorded the delivery, the 30 days count from it, whatever day you noticed the problem. Your coverage page says until when.`,
    evidenceTitle: "Photos and documents",
    evidence: (maxFiles: number, maxSize: string) =>
      `Each time you write to us you can add up to ${maxFiles} files of at most ${maxSize} each: JPEG, PNG, WebP, HEIC or PDF. Location data in photos is removed before they are stored. Only you, the store and the claims team can see them.`,
    evidenceQuotas: (claim: string, plan: string, session: string) =>
      `In all, one request holds at most ${claim}, all the requests of one purchase together ${plan}, and one visit to this site (one sign-in) can add ${session}.`,
    decisionsTitle: "How decisions work",
    decisions:
      "Every request is reviewed. If we need more information we ask you by e-mail, and you answer on this site. Every decision — approved or declined — comes with its reason, and you see it here.",
    denialReasonsIntro:
      "A request is declined only for one of these published reasons, with the sentence you will read:",
    payoutTitle: "When a request is approved",
    payout: (terms: { shopifyBusinessDays: number; merchantDays: number; bankBusinessDays: string }) =>
      `On a Shopify store the refund goes back automatically to the payment method you used (or a free replacement order is placed) within ${terms.shopifyBusinessDays} business day of the approval. On other stores the store refunds you directly, or sends the replacement, within ${terms.merchantDays} days of the approval. Your bank can take ${terms.bankBusinessDays} business days to show a refund.`,
    disclosureTitle: "Disclosure",
    start: "Look up your protection",
  },

  countdown: (hours: number, minutes: number) =>
    hours > 0 ? `${hours} h ${String(minutes).padStart(2, "0")} min` : `${minutes} min`,

  genericError: "Something went wrong on our side. Please try again in a moment.",
  forbidden: "This form has expired. Reload the page and try again.",
  notFound: "We could not find that page.",
} as const;

/** Sentences for the API's error codes; anything else falls back to the generic sentence. */
const ERROR_SENTENCES: Record<string, string> = {
  portal_lookup_failed:
    "We could not find protection for that e-mail address and reference or order number. Check both and try again.",
  portal_session_invalid: messages.lookup.sessionExpired,
  portal_session_required: messages.lookup.sessionExpired,
  free_look_expired: "The 48 hours to cancel have passed, so this protection can no longer be cancelled.",
  plan_not_active: "This protection is not active (it was cancelled or voided by the store).",
  plan_has_claims: messages.plan.freeLookHasClaims,
  free_look_not_applicable: "The store paid for this protection, so there is no fee to cancel it for.",
  reason_not_covered: "Choose one of the reasons in the list.",
  claim_window_expired:
    "The problem must have happened within the last 30 days; for a parcel as it arrived, within 30 days of its delivery.",
  occurred_before_purchase: "The date cannot be before your purchase.",
  occurred_in_future: "The date cannot be in the future.",
  amount_exceeds_remaining: "The amount is more than what is still covered.",
  evidence_type_unsupported: "One of the files is not a JPEG, PNG, WebP, HEIC or PDF file.",
  evidence_too_large: "One of the files is larger than 10 MB.",
  too_many_evidence_files: "You can add at most 5 files at a time.",
  evidence_quota_exceeded:
    "This request already holds as many files as we can take. Describe the rest in a message, or contact the store.",
  claim_already_open: "You already have an open request for this reason. Add information to that request instead.",
  claim_closed: messages.claim.closed,
  request_too_large: "The files are too large together. Send fewer files at a time.",
  resource_missing: messages.notFound,
  route_not_found: messages.notFound,
};

export interface ApiErrorBody {
  type?: string;
  code: string;
  message?: string;
  param?: string;
}

/** The buyer's sentence for an API error; a 429 says when to retry. */
export function errorSentence(error: ApiErrorBody, status: number, retryAfterSeconds?: number): string {
  if (status === 429) {
    const wait = retryAfterSeconds && retryAfterSeconds > 0 ? retryAfterSeconds : 60;
    return wait < 120
      ? `Too many attempts. Please wait ${wait} seconds and try again.`
      : `Too many attempts. Please wait about ${Math.ceil(wait / 60)} minutes and try again.`;
  }
  return ERROR_SENTENCES[error.code] ?? (status >= 500 ? messages.genericError : fallback(error));
}

/** An unmapped 4xx (validation of a field): the API's message names the rule; keep it, it is written for people. */
function fallback(error: ApiErrorBody): string {
  return error.message && error.message.length < 300 ? error.message : messages.genericError;
}
