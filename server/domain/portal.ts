import { DEFAULT_BUYER_LOCALE } from "@purchase-protection/contract";
import { cryptoRandom, newId, sha256Hex, type RandomSource } from "./ids.ts";
import type { Mode } from "../vocabulary/ids.ts";
import { iso, type Services, type Tx } from "./context.ts";
import { DomainError, notFound } from "./errors.ts";
import { CLAIM_WINDOW_DAYS, COVERED_REASONS, FREE_LOOK_HOURS, fullDisclosure, reasonName } from "./disclosure.ts";
import { rulebookText } from "./rulebook-text.ts";
import { buyerEmailHash } from "./buyer-emails.ts";
import { appendEvent } from "./events.ts";
import { queuePlanEmail } from "./emails.ts";
import { getPurchase } from "./purchases.ts";
import { owePlanFee } from "./fee-refunds.ts";
import { reverseFeeOnCancellation } from "./ledger.ts";
import { DENIAL_REASONS } from "./claim-decisions.ts";
import { CLAIM_WINDOW_MS, DELIVERY_WINDOW_REASONS } from "./claim-rules.ts";
import { planDeliveredAt } from "./shipments.ts";
import { EVIDENCE_CONTENT_TYPES, EVIDENCE_LIMITS, EVIDENCE_QUOTAS } from "../evidence/index.ts";
import type { CoverageLinks } from "../email/coverage-link.ts";
import type { Sealer } from "../secrets/sealer.ts";
import {
  deleteExpiredPortalSessions,
  endPortalSession,
  findLivePortalSession,
  insertPortalSession,
} from "../store/portal-sessions.ts";
import {
  findPortalPlan,
  findPortalPlanByOrder,
  findPortalPlanByReference,
  findPortalPlanBySignIn,
  orderNameKey,
  type PortalPlanRecord,
} from "../store/portal-plans.ts";
import { lockPlan, markPlanCancelled } from "../store/plans.ts";
import type { Payer, PlanStatus } from "../vocabulary/plans.ts";
import { BANK_REFUND_BUSINESS_DAYS, MERCHANT_PAYOUT_DAYS, SHOPIFY_PAYOUT_BUSINESS_DAYS } from "./payout-terms.ts";

// The buyer portal: sessions opened by a look-up (e-mail + reference number) or by the welcome e-mail's coverage
// link, the coverage summary (PortalPlan) and the free-look cancellation. A session is a bearer token `pps_…` that
// opens exactly one plan; only its SHA-256 is stored.

/** Who is calling on a portal route: the buyer of one plan, through a portal session. */
export interface PortalPrincipal {
  kind: "portal";
  merchantId: string;
  mode: Mode;
  planId: string;
  referenceNumber: string;
  sessionId: string;
}

export const PORTAL_TOKEN_PREFIX = "pps_";
/** `pps_` + 32 random bytes in base64url (43 characters). */
const PORTAL_TOKEN_PATTERN = /^pps_[A-Za-z0-9_-]{43}$/;
export const PORTAL_SESSION_TTL_MS = 30 * 60 * 1000;

export const newPortalToken = (random: RandomSource = cryptoRandom) =>
  `${PORTAL_TOKEN_PREFIX}${random(32).toString("base64url")}`;

/** Whether a bearer credential is a portal token at all (a merchant route refuses it as an invalid key). */
export const isPortalToken = (credential: string) => credential.startsWith(PORTAL_TOKEN_PREFIX);

/** The principal of a portal token whose session has not expired at `now`, else undefined. */
export async function authenticatePortalToken(
  db: Tx,
  token: string,
  now: number,
): Promise<PortalPrincipal | undefined> {
  if (!PORTAL_TOKEN_PATTERN.test(token)) return undefined;
  const session = await findLivePortalSession(db, sha256Hex(token), now);
  return (
    session && {
      kind: "portal",
      merchantId: session.merchantId,
      mode: session.mode,
      planId: session.planId,
      referenceNumber: session.referenceNumber,
      sessionId: session.id,
    }
  );
}

/** The coverage summary the buyer portal shows (docs/api.md "Buyer portal API"). */
export interface PortalPlan {
  object: "portal_plan";
  referenceNumber: string;
  status: PlanStatus;
  merchantName: string;
  orderId: string;
  /** The store's own order name ("#1001"), what the buyer knows the order by; null when the store gave none. */
  orderName: string | null;
  currency: string;
  feeCents: number;
  /** Who paid for the protection, and what the buyer paid of the fee (a merchant-paid plan: 0, and no free look). */
  payer: Payer;
  buyerFeeCents: number;
  coveredAmountCents: number;
  remainingCoveredCents: number;
  purchasedAt: string;
  freeLookEndsAt: string;
  cancellable: boolean;
  cancelledAt: string | null;
  feeRefund: {
    amountCents: number;
    currency: string;
    status: "pending" | "refunded";
    refundedAt: string | null;
  } | null;
  claimWindowDays: typeof CLAIM_WINDOW_DAYS;
  /** When the carrier delivered the order (planDeliveredAt); null: no delivery recorded, or a parcel still out. */
  deliveredAt: string | null;
  /** The last moment to claim for a reason about the parcel as it arrived (DELIVERY_WINDOW_REASONS); null without a delivery. */
  deliveryClaimsUntil: string | null;
  coveredReasons: { code: string; name: string }[];
  disclosureText: string;
  /** The buyer's locale recorded at confirm (plans.locale): the portal's language for them; null when unknown. */
  locale: string | null;
  livemode: boolean;
}

export interface PortalSession {
  object: "portal_session";
  portalToken: string;
  expiresAt: string;
  plan: PortalPlan;
}

/** `deliveredAt`: planDeliveredAt of the record's plan. */
export function toPortalPlan(services: Services, record: PortalPlanRecord, deliveredAt: number | null): PortalPlan {
  return {
    object: "portal_plan",
    referenceNumber: record.referenceNumber,
    status: record.status,
    merchantName: record.merchantName,
    orderId: record.orderId,
    orderName: record.orderName,
    currency: record.currency,
    feeCents: record.feeCents,
    payer: record.payer,
    buyerFeeCents: record.buyerFeeCents,
    coveredAmountCents: record.coveredAmountCents,
    // An ended plan takes no claim (docs/api.md "Money invariants"): nothing is left to claim, whatever was paid.
    remainingCoveredCents: record.status === "active" ? Math.max(0, record.coveredAmountCents - record.paidCents) : 0,
    purchasedAt: iso(record.purchasedAt),
    freeLookEndsAt: iso(record.freeLookEndsAt),
    cancellable:
      record.payer !== "merchant" &&
      record.status === "active" &&
      services.clock() < record.freeLookEndsAt &&
      record.undeniedClaims === 0,
    cancelledAt: record.cancelledAt === null ? null : iso(record.cancelledAt),
    feeRefund: record.feeRefund && {
      amountCents: record.feeRefund.amountCents,
      currency: record.feeRefund.currency,
      status: record.feeRefund.status,
      refundedAt: record.feeRefund.refundedAt === null ? null : iso(record.feeRefund.refundedAt),
    },
    claimWindowDays: CLAIM_WINDOW_DAYS,
    deliveredAt: deliveredAt === null ? null : iso(deliveredAt),
    deliveryClaimsUntil: deliveredAt === null ? null : iso(deliveredAt + CLAIM_WINDOW_MS),
    coveredReasons: COVERED_REASONS.map((code) => ({ code, name: reasonName(code) })),
    disclosureText: fullDisclosure(services.settings.companyName),
    locale: record.locale,
    livemode: record.mode === "live",
  };
}

/**
 * The public rulebook (GET /portal/reasons): the 12 reasons, the denial reasons, the windows, the evidence limits;
 * the names, descriptions and sentences in `locale` (a buyer locale; English by default).
 */
export function portalRulebook(locale?: string) {
  const text = rulebookText(locale ?? DEFAULT_BUYER_LOCALE);
  return {
    object: "list" as const,
    data: COVERED_REASONS.map((code) => ({
      code,
      name: text.reasonName(code),
      description: text.reasonDescription(code),
      claimWindowFrom: DELIVERY_WINDOW_REASONS.includes(code) ? ("delivery" as const) : ("occurrence" as const),
    })),
    denialReasons: DENIAL_REASONS.map(({ code }) => ({ code, message: text.denial(code) })),
    claimWindowDays: CLAIM_WINDOW_DAYS,
    freeLookHours: FREE_LOOK_HOURS,
    // Who pays an approved claim and by when (server/domain/payout-terms.ts): the promise the buyer's e-mails repeat.
    payout: {
      shopifyBusinessDays: SHOPIFY_PAYOUT_BUSINESS_DAYS,
      merchantDays: MERCHANT_PAYOUT_DAYS,
      bankBusinessDays: BANK_REFUND_BUSINESS_DAYS,
    },
    evidence: {
      maxFiles: EVIDENCE_LIMITS.maxFiles,
      maxFileBytes: EVIDENCE_LIMITS.maxFileBytes,
      contentTypes: [...EVIDENCE_CONTENT_TYPES],
      quotas: EVIDENCE_QUOTAS,
    },
  };
}

/**
 * Every failed sign-in, whatever failed — no such reference or order, another address, a redacted plan, a bad or
 * expired link — is this one answer, so that a sign-in never tells whether a reference number or an order exists.
 */
const lookupFailed = () =>
  new DomainError(
    "not_found",
    "portal_lookup_failed",
    "No protection plan matches this e-mail address and reference or order number.",
  );

/** Reference numbers are read aloud and retyped: surrounding space and case do not matter. */
const normaliseReference = (referenceNumber: string) => referenceNumber.trim().toUpperCase();

/** What a buyer signs in with: their address and the plan's reference number or the store's order number (one). */
export interface PortalLookup {
  email: string;
  referenceNumber?: string;
  orderNumber?: string;
}

/**
 * POST /portal/lookup: the plan bought with the buyer's address (trimmed, any case) whose reference number matches,
 * or whose order the store names as the buyer typed it ("#1001", "1001") or whose order id it is (the newest such
 * plan when several match: findPortalPlanByOrder).
 */
export async function lookUpPlan(
  tx: Tx,
  services: Services,
  sealer: Sealer,
  input: PortalLookup,
): Promise<PortalSession> {
  // The address is matched through the keyed hash the plan holds (buyer-emails.ts): the plan never holds it in clear.
  const emailHash = buyerEmailHash(sealer, input.email);
  // A redacted plan has no hash: it matches no address. An order number of nothing but "#" and spaces names nothing.
  const { referenceNumber, orderNumber = "" } = input;
  const plan =
    referenceNumber !== undefined
      ? await findPortalPlanBySignIn(tx, normaliseReference(referenceNumber), emailHash)
      : orderNameKey(orderNumber) === ""
        ? undefined
        : await findPortalPlanByOrder(tx, orderNumber, emailHash);
  if (!plan) throw lookupFailed();
  return openPortalSession(tx, services, plan, "lookup");
}

/** POST /portal/coverage-link: the welcome e-mail's link (reference number + token, good for 180 days). */
export async function openCoverageLink(
  tx: Tx,
  services: Services,
  links: CoverageLinks,
  input: { referenceNumber: string; token: string },
): Promise<PortalSession> {
  const referenceNumber = normaliseReference(input.referenceNumber);
  if (!links.verify(referenceNumber, input.token, services.clock())) throw lookupFailed();
  const plan = await findPortalPlanByReference(tx, referenceNumber);
  // A redacted plan opens no session, by link or by look-up.
  if (!plan?.customerEmailHash) throw lookupFailed();
  return openPortalSession(tx, services, plan, "coverage_link");
}

async function openPortalSession(
  tx: Tx,
  services: Services,
  plan: PortalPlanRecord,
  via: "lookup" | "coverage_link",
): Promise<PortalSession> {
  const now = services.clock();
  const token = newPortalToken(services.random);
  const expiresAt = now + PORTAL_SESSION_TTL_MS;
  await insertPortalSession(tx, {
    id: newId("pss", now, services.random),
    tokenHash: sha256Hex(token),
    merchantId: plan.merchantId,
    mode: plan.mode,
    planId: plan.id,
    via,
    createdAt: now,
    expiresAt,
  });
  return {
    object: "portal_session",
    portalToken: token,
    expiresAt: iso(expiresAt),
    plan: toPortalPlan(services, plan, await planDeliveredAt(tx, services, plan.id)),
  };
}

/**
 * POST /portal/sign-out: the session ends now, on the server — its token is refused from the next request on, not
 * only forgotten by the browser.
 */
export async function signOutOfPortal(
  tx: Tx,
  services: Services,
  buyer: PortalPrincipal,
): Promise<{ object: "portal_session"; deleted: true }> {
  await endPortalSession(tx, buyer.sessionId, services.clock());
  return { object: "portal_session", deleted: true };
}

/** GET /portal/plan: the session's plan. */
export async function getPortalPlan(db: Tx, services: Services, buyer: PortalPrincipal): Promise<PortalPlan> {
  const plan = await findPortalPlan(db, buyer, buyer.planId);
  if (!plan) throw notFound("plan", buyer.referenceNumber);
  return toPortalPlan(services, plan, await planDeliveredAt(db, services, plan.id));
}

/**
 * POST /portal/cancel: the free-look cancellation, within 48 hours of the purchase and while the plan has no claim
 * that is not denied (409 plan_has_claims). In one transaction: the plan
 * becomes cancelled, the fee is owed back (a fee_refunds row: the Shopify app refunds it through the order, any
 * other merchant confirms it through POST /purchases/{id}/fee-refund), the event `protection.cancelled` carries the
 * purchase with its fee refund, and the buyer's confirmation e-mail is queued.
 */
export async function cancelInFreeLook(
  tx: Tx,
  services: Services,
  buyer: PortalPrincipal,
  referenceNumber: string,
): Promise<PortalPlan> {
  if (normaliseReference(referenceNumber) !== buyer.referenceNumber)
    throw notFound("plan", referenceNumber, "referenceNumber");
  const locked = await lockPlan(tx, buyer, { planId: buyer.planId });
  const plan = locked && (await findPortalPlan(tx, buyer, buyer.planId));
  if (!plan) throw notFound("plan", referenceNumber, "referenceNumber");
  if (plan.status !== "active")
    throw new DomainError(
      "conflict",
      "plan_not_active",
      `Plan ${plan.referenceNumber} is ${plan.status}: only an active plan can be cancelled.`,
    );
  // The free look returns what the buyer paid: the buyer of a merchant-paid plan paid nothing, and the protection is
  // the merchant's to end (a void), not the buyer's.
  if (plan.payer === "merchant")
    throw new DomainError(
      "conflict",
      "free_look_not_applicable",
      `Plan ${plan.referenceNumber} was paid for by ${plan.merchantName}: you paid nothing, so there is no fee to cancel for.`,
    );
  const now = services.clock();
  if (now >= plan.freeLookEndsAt)
    throw new DomainError(
      "conflict",
      "free_look_expired",
      `The 48-hour free look of plan ${plan.referenceNumber} ended at ${iso(plan.freeLookEndsAt)}; it can no longer be cancelled.`,
    );
  // docs/api.md "Money invariants": the fee comes back, or the coverage pays — never both. A claim not denied may still be
  // (or was) paid, so it ends the free look; the plan's row lock keeps a claim from being filed or decided meanwhile.
  if (plan.undeniedClaims > 0)
    throw new DomainError(
      "conflict",
      "plan_has_claims",
      `Plan ${plan.referenceNumber} has a claim that is open, approved or paid: a plan whose coverage was claimed cannot be cancelled for its fee.`,
    );
  await markPlanCancelled(tx, plan.id, now);
  await owePlanFee(tx, services, buyer, plan);
  await reverseFeeOnCancellation(tx, services, { merchantId: buyer.merchantId, mode: buyer.mode }, plan.id);
  await appendEvent(tx, services, buyer, "protection.cancelled", await getPurchase(tx, buyer, plan.id, false));
  await queuePlanEmail(tx, services, buyer, { template: "free_look_cancelled", planId: plan.id });
  return getPortalPlan(tx, services, buyer);
}

/** Deletes the portal sessions past their 30 minutes (the periodic purge of server/workers). */
export const purgeExpiredPortalSessions = (tx: Tx, now: number) => deleteExpiredPortalSessions(tx, now);
