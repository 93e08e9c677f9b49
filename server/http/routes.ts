import { z } from "zod";
import { acceptLanguageTags, negotiateLocale } from "@purchase-protection/contract";
import { createQuote, declineQuote } from "../domain/quotes.ts";
import { offerTexts } from "../domain/offer-texts.ts";
import { confirmQuote, setBuyerEmail, voidPlan } from "../domain/plans.ts";
import type { PlanSelector } from "../vocabulary/plans.ts";
import { reportMerchantRefund } from "../domain/orders.ts";
import { getOrderDelivery, reportShipment, reportShipmentEvent } from "../domain/shipments.ts";
import { connectAftership, receiveAftershipCallback } from "../domain/tracking-callbacks.ts";
import {
  addClaimMessage,
  fileClaim,
  getClaim,
  getPortalClaim,
  listClaims,
  listPlanClaims,
  prepareEvidence,
  readMerchantEvidence,
  readPortalEvidence,
  releaseEvidence,
} from "../domain/claims.ts";
import { resolveClaim } from "../domain/claim-decisions.ts";
import { getPurchase, listPurchases } from "../domain/purchases.ts";
import { confirmFeeRefund } from "../domain/fee-refunds.ts";
import {
  cancelInFreeLook,
  getPortalPlan,
  lookUpPlan,
  openCoverageLink,
  portalRulebook,
  signOutOfPortal,
} from "../domain/portal.ts";
import { getEvent, listEvents } from "../domain/events.ts";
import * as webhookEndpoints from "../domain/webhook-endpoints.ts";
import { listWebhookAttempts, redeliverEvent } from "../domain/webhook-deliveries.ts";
import { merchantAnalyticsCsv, merchantMetricsWithAnalytics } from "../domain/metrics.ts";
import { getSettlement, listSettlements, runningBalances, settlementEntriesCsv } from "../domain/settlements.ts";
import { DISCLOSURE_PHRASE } from "../domain/disclosure.ts";
import { getProgram, listPrograms } from "../domain/programs.ts";
import { notFound } from "../domain/errors.ts";
import { storeBuyerEmail } from "../domain/buyer-emails.ts";
import type { Principal } from "../domain/merchants.ts";
import * as wire from "./schemas.ts";
import * as shapes from "./response-schemas.ts";
import { AFTERSHIP_SIGNATURE, ANYONE, ok, okFile, okPage, PORTAL_SESSION, route, type Route } from "./route.ts";
import { toSnakeCase } from "./casing.ts";

// The route table. Its `keys` column is the key policy of docs/api.md "Authentication and keys" — the only place that decides which
// key kind may call which route. Its `rateLimit` column names the docs/api.md "Rate limits" rule of each limited route
// (server/rate-limits/policies.ts); both claim listings share the claims rule, so the alias is no way around it. Handlers validate nothing themselves and make one domain call each.

// Restricted keys (rk_, what a developer mints) call every merchant route but the ones that move money: voiding a
// plan, reporting a refund, resolving a claim, confirming a fee refund; and the ones that report the delivery facts
// automatic claim decisions rest on (docs/api.md "Authentication and keys").
const WIDGET_OR_SERVER = ["publishable", "secret", "restricted"] as const;
const SERVER_KEYS = ["secret", "restricted"] as const;
const SECRET_ONLY = ["secret"] as const;

/** `/merchants/{id}/…` is the caller's own merchant or does not exist for them. */
function ownMerchant(principal: Principal, id: string) {
  if (id !== principal.merchantId) throw notFound("merchant", id);
  return principal;
}

/** The quote bodies name the program `protection_program_id` (docs/api.md "Offers"); the domain calls it programId. */
const QUOTE_FIELD_NAMES = { programId: "protection_program_id" };

export const routes: Route[] = [
  route({
    method: "POST",
    path: "/offers/quote",
    operationId: "createQuote",
    keys: WIDGET_OR_SERVER,
    rateLimit: "quote",
    browser: true,
    summary:
      "Quote a protection offer for an order. The single-use quote token is returned only in the X-Service-Quote-Token header. A merchant-paid program is quoted with payer merchant and buyerFeeCents 0: the page shows its notice, and the merchant's server confirms the order.",
    body: wire.quoteRequest,
    fieldNames: QUOTE_FIELD_NAMES,
    response: { description: "The offer (camelCase).", schema: shapes.quote },
    async handle({ db, services, sealer, principal, body }) {
      const { quote, token, storeName } = await createQuote(db, services, principal, {
        orderAmountCents: body.order_amount_cents,
        orderId: body.order_id,
        programId: body.protection_program_id,
        currency: body.currency,
        customerEmail: body.customer_email === undefined ? undefined : storeBuyerEmail(sealer, body.customer_email),
        orderName: body.order_name,
        cartId: body.cart_id,
      });
      // The storefront's words in the buyer's language; a test key may ask for the pseudo-locale.
      const locale = negotiateLocale([body.locale], { pseudo: principal.mode === "test" });
      const texts = offerTexts(locale, services.settings.companyName, quote.offerWording, storeName);
      return ok({ ...quote, offerTexts: texts }, { "X-Service-Quote-Token": token });
    },
  }),
  route({
    method: "POST",
    path: "/offers/confirm",
    operationId: "confirmQuote",
    keys: WIDGET_OR_SERVER,
    rateLimit: "confirm",
    browser: true,
    summary:
      "Confirm a protection plan for a quoted offer. An invalid order_context is 422 order_context_invalid; without a buyer address (customer_email here or on the quote) 422 customer_email_required: either creates nothing and the quote stays open. A publishable key's confirm of a merchant-paid quote is 409 payer_requires_server_confirm, creating nothing.",
    body: wire.confirmRequest,
    response: { description: "The confirmed plan with its reference number.", schema: shapes.confirmation },
    async handle({ db, services, sealer, principal, body }) {
      const surface = principal.kind === "publishable" ? "widget" : "api";
      return ok(
        await confirmQuote(db, services, principal, {
          surface,
          quoteId: body.quoteId,
          quoteToken: body.quoteToken,
          orderContext: body.order_context,
          customerEmail: body.customer_email === undefined ? undefined : storeBuyerEmail(sealer, body.customer_email),
          shippingAddressHash: wire.shippingAddressHashOf(body.shipping_address, sealer),
          language: wire.customerLanguageOf(body),
        }),
      );
    },
  }),
  route({
    method: "POST",
    path: "/offers/decline",
    operationId: "declineQuote",
    keys: WIDGET_OR_SERVER,
    browser: true,
    summary:
      "Record that the buyer declined the offer. A publishable key declines only quotes made with a publishable key (any other is 404, as an unknown id).",
    body: wire.declineRequest,
    response: { description: "The declined quote.", schema: shapes.declined },
    handle: async ({ db, services, principal, body }) =>
      ok(await declineQuote(db, services, principal, body.quoteId, body.reason)),
  }),
  route({
    method: "POST",
    path: "/offers/void",
    operationId: "voidPlan",
    keys: SECRET_ONLY,
    rateLimit: "void",
    summary:
      "Void an active plan (for example when the order is cancelled). Give exactly one of planId, referenceNumber, orderId.",
    body: wire.voidRequest,
    response: { description: "The voided purchase.", schema: shapes.purchase },
    async handle({ db, services, principal, body }) {
      const selector: PlanSelector = body.planId
        ? { planId: body.planId }
        : body.referenceNumber
          ? { referenceNumber: body.referenceNumber }
          : { orderId: body.orderId! };
      return ok(await voidPlan(db, services, principal, selector, body.reason ?? null));
    },
  }),
  route({
    method: "POST",
    path: "/orders/:orderId/refund",
    operationId: "reportMerchantRefund",
    keys: SECRET_ONLY,
    summary:
      "Report that the merchant refunded a protected order: the order becomes merchant_refunded, the plan is voided, the fee share is credited on the next settlement statement, and no consumer refund is issued. An order whose plan has a claim approved or paid is refunded through the claim: 409 order_has_claim_payout.",
    body: wire.refundRequest,
    response: { description: "The refund report.", schema: shapes.merchantRefund },
    handle: async ({ db, services, principal, params }) =>
      ok(await reportMerchantRefund(db, services, principal, params.orderId)),
  }),
  route({
    method: "POST",
    path: "/orders/:orderId/shipments",
    operationId: "reportShipment",
    keys: SECRET_ONLY,
    summary:
      'Report a shipment of a protected order: its carrier, tracking number and promised delivery date (docs/api.md "Delivery facts"). The same tracking number again is the same shipment: a differing carrier or promised date is updated, else nothing changes. Appends shipment.updated when something changed.',
    body: wire.shipmentRequest,
    response: { description: "The shipment with its scans and state.", schema: shapes.shipment },
    handle: async ({ db, services, principal, params, body }) =>
      ok(await reportShipment(db, services, principal, params.orderId, body)),
  }),
  route({
    method: "POST",
    path: "/shipments/:shipmentId/events",
    operationId: "reportShipmentEvent",
    keys: SECRET_ONLY,
    summary:
      "Report a carrier's scan of a shipment. The same status at the same time again changes nothing; a scan in the future is 400 occurred_at_in_future. The shipment's state is recomputed; its first delivered scan is the order's delivery. Appends shipment.updated when something changed.",
    body: wire.shipmentEventRequest,
    response: { description: "The shipment with its scans and state.", schema: shapes.shipment },
    handle: async ({ db, services, principal, params, body }) =>
      ok(await reportShipmentEvent(db, services, principal, params.shipmentId, body)),
  }),
  route({
    method: "GET",
    path: "/orders/:orderId/delivery",
    operationId: "getOrderDelivery",
    keys: SERVER_KEYS,
    summary:
      "A protected order's delivery: its shipments with their scans and states, and the order's state (docs/api.md \"Delivery states\").",
    query: wire.noQuery,
    response: { description: "The order's delivery.", schema: shapes.orderDelivery },
    handle: async ({ db, services, principal, params }) =>
      ok(await getOrderDelivery(db, services, principal, params.orderId)),
  }),
  route({
    method: "POST",
    path: "/tracking/aftership",
    operationId: "connectAftership",
    keys: SECRET_ONLY,
    summary:
      'Connect your AfterShip account for the key\'s mode (docs/api.md "Tracking callbacks"): its webhook secret, kept sealed and never shown again; set again, it replaces the old one. Answers the callbackPath to give AfterShip as the webhook URL.',
    body: wire.aftershipConnectionRequest,
    response: { description: "The connection (never its secret).", schema: shapes.trackingConnection },
    handle: async ({ db, services, sealer, principal, body }) =>
      ok(await connectAftership(db, services, sealer, principal, body.secret)),
  }),
  route({
    method: "POST",
    path: "/tracking/aftership/:merchantId/:mode",
    operationId: "receiveAftershipCallback",
    keys: AFTERSHIP_SIGNATURE,
    summary:
      "AfterShip's tracking webhook for a merchant and mode (test or live), signed with the connected secret (else 401 signature_invalid, nothing recorded). Each checkpoint of a tracking_update is a scan of the merchant's shipments of that tracking number and carrier; a repeated checkpoint, another event or an unknown tracking number records nothing and is still answered 200.",
    body: wire.aftershipCallback,
    response: { description: "What the callback recorded.", schema: shapes.trackingCallback },
    handle: async ({ db, services, principal, body }) =>
      ok(await receiveAftershipCallback(db, services, principal, body)),
  }),
  route({
    method: "GET",
    path: "/merchant/claims",
    operationId: "listClaims",
    keys: SERVER_KEYS,
    rateLimit: "claims",
    summary: "List refund requests (claims) of the key's merchant, newest first.",
    query: wire.claimsQuery,
    response: { description: "A page of claims.", schema: shapes.page(shapes.claim) },
    handle: async ({ db, principal, query }) => okPage(await listClaims(db, principal, claimFilters(query))),
  }),
  route({
    method: "GET",
    path: "/merchants/:merchantId/claims",
    operationId: "listMerchantClaims",
    keys: SERVER_KEYS,
    rateLimit: "claims",
    summary:
      "The same listing as /merchant/claims for an explicit merchant id, which must be the key's own (404 otherwise).",
    query: wire.claimsQuery,
    response: { description: "A page of claims.", schema: shapes.page(shapes.claim) },
    handle: async ({ db, principal, params, query }) =>
      okPage(await listClaims(db, ownMerchant(principal, params.merchantId), claimFilters(query))),
  }),
  route({
    method: "GET",
    path: "/merchant/claims/:claimId",
    operationId: "getClaim",
    keys: SERVER_KEYS,
    rateLimit: "claims",
    summary: "One refund request (claim) of the key's merchant, with its decision and resolution.",
    query: wire.noQuery,
    response: { description: "The claim.", schema: shapes.claim },
    handle: async ({ db, principal, params }) => ok(await getClaim(db, principal, params.claimId)),
  }),
  route({
    method: "POST",
    path: "/merchant/claims/:claimId/resolution",
    operationId: "resolveClaim",
    keys: SECRET_ONLY,
    summary:
      "Confirm that you paid an approved claim (other carts: its resolution's channel is merchant): the refund or the replacement and your reference. The claim becomes paid, the buyer is e-mailed and the amount is owed to you on the next settlement statement. Not approved: 409 claim_transition_invalid; a Shopify shop's claim is paid by the app: 409 claim_resolution_automatic; a kind other than the approved remedy: 409 remedy_mismatch; a plan cancelled or voided since the approval: 409 plan_not_active. A second confirmation returns the paid claim unchanged.",
    body: wire.claimResolutionRequest,
    response: { description: "The paid claim.", schema: shapes.claim },
    handle: async ({ db, services, principal, params, body }) =>
      ok(
        await resolveClaim(db, services, principal, params.claimId, {
          channel: "merchant",
          kind: body.kind,
          amountCents: body.amountCents,
          reference: body.reference,
          note: body.note,
        }),
      ),
  }),
  route({
    method: "GET",
    path: "/merchant/claims/:claimId/evidence/:evidenceId",
    operationId: "getMerchantClaimEvidence",
    keys: SERVER_KEYS,
    summary:
      "Download an evidence file of one of the merchant's claims (its bytes, as an attachment; the claim's listing gives evidenceCount, the buyer's portal lists the files).",
    query: wire.noQuery,
    response: { description: "The file's bytes.", schema: shapes.evidenceDownload },
    handle: async ({ db, services, principal, params }) =>
      okFile(await readMerchantEvidence(db, services, principal, params.claimId, params.evidenceId)),
  }),
  route({
    method: "POST",
    path: "/portal/claims",
    operationId: "fileClaim",
    keys: PORTAL_SESSION,
    rateLimit: "portalMutation",
    multipart: { fileField: "evidence", fields: wire.fileClaimForm },
    summary:
      "File a claim under the signed-in plan: multipart/form-data with up to 5 evidence files of at most 10 MiB (JPEG, PNG, WebP, HEIC, PDF, recognised by their bytes), or JSON without files. A broken filing rule is a 422 naming it, files past the claim's, plan's or session's evidence quota 409 evidence_quota_exceeded; nothing is created or stored.",
    body: wire.fileClaimRequest,
    response: { description: "The claim with its timeline.", schema: shapes.portalClaimWithTimeline },
    prepare: ({ services, files }) => prepareEvidence(services, files),
    release: releaseEvidence,
    handle: async ({ db, services, principal, body, prepared }) =>
      ok(
        await fileClaim(
          db,
          services,
          principal,
          {
            referenceNumber: body.referenceNumber,
            reason: body.reason,
            occurredAt: body.occurredAt.at,
            occurredOnDay: body.occurredAt.day,
            description: body.description,
            amountCents: body.amountCents,
          },
          prepared,
        ),
      ),
  }),
  route({
    method: "GET",
    path: "/claims",
    operationId: "listPortalClaims",
    keys: PORTAL_SESSION,
    summary: "The signed-in plan's claims, newest first (a portal session; merchant keys are refused).",
    query: wire.portalClaimsQuery,
    response: { description: "A page of claims.", schema: shapes.page(shapes.portalClaim) },
    handle: async ({ db, principal, query }) =>
      okPage(await listPlanClaims(db, principal, { limit: query.limit, startingAfter: query.starting_after })),
  }),
  route({
    method: "GET",
    path: "/portal/claims/:claimId",
    operationId: "getPortalClaim",
    keys: PORTAL_SESSION,
    summary: "One claim of the signed-in plan with its timeline (a claim of another plan is 404).",
    query: wire.noQuery,
    response: { description: "The claim with its timeline.", schema: shapes.portalClaimWithTimeline },
    handle: async ({ db, principal, params }) => ok(await getPortalClaim(db, principal, params.claimId)),
  }),
  route({
    method: "POST",
    path: "/portal/claims/:claimId/messages",
    operationId: "addClaimMessage",
    keys: PORTAL_SESSION,
    rateLimit: "portalMutation",
    multipart: { fileField: "evidence" },
    summary:
      "Add a message and evidence files (multipart/form-data, same limits and quotas as filing; or JSON) to a claim of the signed-in plan. A claim in needs_information goes back to under_review; a paid or denied claim is 409 claim_closed.",
    body: wire.claimMessageRequest,
    response: { description: "The claim with its timeline.", schema: shapes.portalClaimWithTimeline },
    prepare: ({ services, files }) => prepareEvidence(services, files),
    release: releaseEvidence,
    handle: async ({ db, services, principal, params, body, prepared }) =>
      ok(await addClaimMessage(db, services, principal, params.claimId, { message: body.message }, prepared)),
  }),
  route({
    method: "GET",
    path: "/portal/claims/:claimId/evidence/:evidenceId",
    operationId: "getPortalClaimEvidence",
    keys: PORTAL_SESSION,
    summary: "Download an evidence file of a claim of the signed-in plan (its bytes, as an attachment).",
    query: wire.noQuery,
    response: { description: "The file's bytes.", schema: shapes.evidenceDownload },
    handle: async ({ db, services, principal, params }) =>
      okFile(await readPortalEvidence(db, services, principal, params.claimId, params.evidenceId)),
  }),
  route({
    method: "GET",
    path: "/merchants/:merchantId/metrics",
    operationId: "getMerchantMetrics",
    keys: SERVER_KEYS,
    rateLimit: "metrics",
    summary:
      "Quote, plan, claim and fee figures of the key's merchant, optionally within [from, to), and the analytics of a period of UTC days (the last 30 by default) against the one before.",
    query: wire.metricsQuery,
    response: { description: "Merchant metrics.", schema: shapes.merchantMetrics },
    handle: async ({ db, services, principal, params, query }) =>
      ok(
        await merchantMetricsWithAnalytics(
          db,
          ownMerchant(principal, params.merchantId),
          { fromMs: query.from, toMs: query.to },
          services.clock(),
          query.interval,
        ),
      ),
  }),
  route({
    method: "GET",
    path: "/merchants/:merchantId/metrics.csv",
    operationId: "getMerchantMetricsCsv",
    keys: SERVER_KEYS,
    rateLimit: "metrics",
    summary: "The analytics' series as CSV (text/csv, one row per currency and day, week or month, as an attachment).",
    query: wire.metricsQuery,
    response: { description: "The CSV.", schema: shapes.metricsCsv },
    handle: async ({ db, services, principal, params, query }) =>
      okFile(
        await merchantAnalyticsCsv(
          db,
          ownMerchant(principal, params.merchantId),
          { fromMs: query.from, toMs: query.to },
          services.clock(),
          query.interval,
        ),
      ),
  }),
  route({
    method: "GET",
    path: "/purchases",
    operationId: "listPurchases",
    keys: SERVER_KEYS,
    summary: "List protected purchases, newest first.",
    query: wire.purchasesQuery,
    response: { description: "A page of purchases.", schema: shapes.page(shapes.purchase) },
    handle: async ({ db, principal, query }) =>
      okPage(
        await listPurchases(db, principal, {
          limit: query.limit,
          startingAfter: query.starting_after,
          status: query.status,
          orderId: query.order_id,
          createdGte: query.created_gte,
          createdLt: query.created_lt,
        }),
      ),
  }),
  route({
    method: "GET",
    path: "/purchases/:purchaseId",
    operationId: "getPurchase",
    keys: SERVER_KEYS,
    summary: "One protected purchase with its consent record (what the buyer saw and agreed to).",
    query: wire.noQuery,
    response: { description: "The purchase with its consent record.", schema: shapes.purchaseWithConsent },
    handle: async ({ db, principal, params }) => ok(await getPurchase(db, principal, params.purchaseId)),
  }),
  route({
    method: "POST",
    path: "/purchases/:purchaseId/fee-refund",
    operationId: "confirmFeeRefund",
    keys: SECRET_ONLY,
    summary:
      "Confirm that you refunded the protection fee of a plan the buyer cancelled in its 48-hour free look (other carts; a Shopify shop's fee is refunded by the app: 409 fee_refund_automatic). Not cancelled: 409 fee_refund_not_owed. A second confirmation returns the same purchase.",
    body: wire.feeRefundRequest,
    response: { description: "The purchase with its refunded feeRefund.", schema: shapes.purchase },
    handle: async ({ db, services, principal, params, body }) =>
      ok(
        await confirmFeeRefund(db, services, principal, params.purchaseId, {
          reference: body.reference ?? null,
          channel: "merchant",
        }),
      ),
  }),
  route({
    method: "POST",
    path: "/purchases/:purchaseId/customer-email",
    operationId: "setPurchaseCustomerEmail",
    keys: SERVER_KEYS,
    summary:
      "Set or correct the buyer's e-mail address of a plan (docs/api.md \"The buyer's address\"). The welcome e-mail goes to the new address (instead, while it waits; else a new one). The address the plan holds already changes nothing. Appends protection.updated.",
    body: wire.purchaseCustomerEmailRequest,
    response: { description: "The purchase.", schema: shapes.purchase },
    handle: async ({ db, services, sealer, principal, params, body }) =>
      ok(await setBuyerEmail(db, services, principal, params.purchaseId, storeBuyerEmail(sealer, body.customer_email))),
  }),
  route({
    method: "POST",
    path: "/portal/lookup",
    operationId: "portalLookup",
    keys: ANYONE,
    rateLimit: "portalLookup",
    summary:
      "Buyer sign-in with the e-mail address and either the reference number of a plan or the store's order number (or order id; the newest plan when several match): a portal session (30 minutes) and the coverage summary. Any mismatch is the same 404 portal_lookup_failed. Takes no Idempotency-Key and is not stored.",
    body: wire.portalLookupRequest,
    response: { description: "The portal session and the plan.", schema: shapes.portalSession },
    handle: async ({ db, services, sealer, body }) => ok(await lookUpPlan(db, services, sealer, body)),
  }),
  route({
    method: "POST",
    path: "/portal/coverage-link",
    operationId: "portalCoverageLink",
    keys: ANYONE,
    rateLimit: "portalLookup",
    summary:
      "Buyer sign-in with the welcome e-mail's coverage link (reference number and token, good for 180 days): the same answer as /portal/lookup; a bad or expired link is 404 portal_lookup_failed. Takes no Idempotency-Key and is not stored.",
    body: wire.portalCoverageLinkRequest,
    response: { description: "The portal session and the plan.", schema: shapes.portalSession },
    handle: async ({ db, services, coverageLinks, body }) =>
      ok(await openCoverageLink(db, services, coverageLinks, body)),
  }),
  route({
    method: "POST",
    path: "/portal/sign-out",
    operationId: "portalSignOut",
    keys: PORTAL_SESSION,
    rateLimit: "portalMutation",
    summary:
      "End the portal session now: its token is refused from the next request on (401 portal_session_invalid), before its 30 minutes are over.",
    body: wire.emptyBody,
    response: { description: "The ended session.", schema: shapes.deletedPortalSession },
    handle: async ({ db, services, principal }) => ok(await signOutOfPortal(db, services, principal)),
  }),
  route({
    method: "GET",
    path: "/portal/plan",
    operationId: "getPortalPlan",
    keys: PORTAL_SESSION,
    summary: "The signed-in plan's coverage summary: status, amounts, free-look deadline, fee refund, covered reasons.",
    query: wire.noQuery,
    response: { description: "The plan.", schema: shapes.portalPlan },
    handle: async ({ db, services, principal }) => ok(await getPortalPlan(db, services, principal)),
  }),
  route({
    method: "GET",
    path: "/portal/reasons",
    operationId: "getPortalReasons",
    keys: ANYONE,
    summary:
      "The public rulebook: the 12 covered reasons with their names and descriptions, the windows, the evidence limits.",
    query: wire.noQuery,
    response: { description: "The rulebook.", schema: shapes.portalReasons },
    handle: async ({ acceptLanguage }) => {
      const locale = negotiateLocale(acceptLanguageTags(acceptLanguage));
      return ok(portalRulebook(locale), { "Content-Language": locale, Vary: "Accept-Language" });
    },
  }),
  route({
    method: "POST",
    path: "/portal/cancel",
    operationId: "cancelPortalPlan",
    keys: PORTAL_SESSION,
    rateLimit: "portalMutation",
    summary:
      "Cancel the signed-in plan within 48 hours of the purchase: it becomes cancelled and the fee is refunded. After 48 hours 409 free_look_expired; a voided or cancelled plan 409 plan_not_active; a plan with a claim that is not denied 409 plan_has_claims (the fee comes back or the coverage pays, never both); a merchant-paid plan (the buyer paid nothing) 409 free_look_not_applicable.",
    body: wire.portalCancelRequest,
    response: { description: "The cancelled plan with its fee refund.", schema: shapes.portalPlan },
    handle: async ({ db, services, principal, body }) =>
      ok(await cancelInFreeLook(db, services, principal, body.referenceNumber)),
  }),
  route({
    method: "POST",
    path: "/headless/quote",
    operationId: "headlessQuote",
    keys: SERVER_KEYS,
    summary:
      "Server-side quote (snake_case in and out). disclosure_text is always the byte-string 'This is not insurance'.",
    body: wire.headlessQuoteRequest,
    fieldNames: QUOTE_FIELD_NAMES,
    response: { description: "The offer (snake_case).", schema: shapes.headlessQuote },
    async handle({ db, services, sealer, principal, body }) {
      const { quote } = await createQuote(db, services, principal, wire.headlessQuoteInput(body, sealer));
      const { disclosureText, ...rest } = quote;
      return ok(toSnakeCase({ ...rest, disclosureText: DISCLOSURE_PHRASE, disclosure: disclosureText }));
    },
  }),
  route({
    method: "POST",
    path: "/headless/confirm",
    operationId: "headlessConfirm",
    keys: SERVER_KEYS,
    summary:
      "Server-side confirm of a headless quote by its quote_id (no quote token: the secret key is the authority). Without a buyer address (customer_email here or on the quote): 422 customer_email_required, nothing created, the quote stays open.",
    body: wire.headlessConfirmRequest,
    response: { description: "The confirmed plan (snake_case).", schema: shapes.headlessConfirmation },
    handle: async ({ db, services, sealer, principal, body }) =>
      ok(
        toSnakeCase(
          await confirmQuote(db, services, principal, {
            surface: "server",
            quoteId: (body.quote_id ?? body.quoteId)!,
            customerEmail: body.customer_email === undefined ? undefined : storeBuyerEmail(sealer, body.customer_email),
            shippingAddressHash: wire.shippingAddressHashOf(body.shipping_address, sealer),
            language: wire.customerLanguageOf(body),
          }),
        ),
      ),
  }),
  route({
    method: "POST",
    path: "/headless/decline",
    operationId: "headlessDecline",
    keys: SERVER_KEYS,
    summary: "Server-side decline of a headless quote.",
    body: wire.headlessDeclineRequest,
    response: { description: "The declined quote (snake_case).", schema: shapes.headlessDeclined },
    handle: async ({ db, services, principal, body }) =>
      ok(toSnakeCase(await declineQuote(db, services, principal, (body.quote_id ?? body.quoteId)!, body.reason))),
  }),
  route({
    method: "GET",
    path: "/programs",
    operationId: "listPrograms",
    keys: SERVER_KEYS,
    summary:
      "The key's merchant's protection programs in its mode, newest first: each id (what quotes name as protection_program_id) and its terms.",
    query: wire.programsQuery,
    response: { description: "A page of programs.", schema: shapes.page(shapes.program) },
    handle: async ({ db, principal, query }) =>
      okPage(await listPrograms(db, principal, { limit: query.limit, startingAfter: query.starting_after })),
  }),
  route({
    method: "GET",
    path: "/programs/:programId",
    operationId: "getProgram",
    keys: SERVER_KEYS,
    summary: "One protection program and its terms; another merchant's is 404, as an unknown id.",
    query: wire.noQuery,
    response: { description: "The program.", schema: shapes.program },
    handle: async ({ db, principal, params }) => ok(await getProgram(db, principal, params.programId)),
  }),
  route({
    method: "GET",
    path: "/settlements",
    operationId: "listSettlements",
    keys: SERVER_KEYS,
    summary:
      'Closed settlement statements of the key\'s merchant and mode, newest period first (docs/api.md "Settlement").',
    query: wire.settlementsQuery,
    response: { description: "A page of statements.", schema: shapes.page(shapes.settlementStatement) },
    handle: async ({ db, principal, query }) =>
      okPage(await listSettlements(db, principal, { limit: query.limit, startingAfter: query.starting_after })),
  }),
  route({
    method: "GET",
    path: "/settlements/balance",
    operationId: "getSettlementBalance",
    keys: SERVER_KEYS,
    summary:
      'The open period\'s running balance per currency: what its statement would close with now, which way it is owed and when it closes (docs/api.md "The running balance").',
    query: wire.noQuery,
    response: { description: "The running balance of each currency.", schema: shapes.settlementBalances },
    handle: async ({ db, principal, services }) =>
      ok({ object: "list", data: await runningBalances(db, principal, services.clock()) }),
  }),
  route({
    method: "GET",
    path: "/settlements/:statementId",
    operationId: "getSettlement",
    keys: SERVER_KEYS,
    summary: "One settlement statement with its ledger entries, oldest first.",
    query: wire.noQuery,
    response: { description: "The statement and its entries.", schema: shapes.settlementWithEntries },
    handle: async ({ db, principal, params }) => ok(await getSettlement(db, principal, params.statementId)),
  }),
  route({
    method: "GET",
    path: "/settlements/:statementId/entries.csv",
    operationId: "getSettlementEntriesCsv",
    keys: SERVER_KEYS,
    summary: "A statement's entries as CSV (text/csv, one row per entry, as an attachment).",
    query: wire.noQuery,
    response: { description: "The CSV.", schema: shapes.settlementCsv },
    handle: async ({ db, principal, params }) => okFile(await settlementEntriesCsv(db, principal, params.statementId)),
  }),
  route({
    method: "GET",
    path: "/events",
    operationId: "listEvents",
    keys: SERVER_KEYS,
    summary: "The event log behind webhooks, newest first.",
    query: wire.eventsQuery,
    response: { description: "A page of events.", schema: shapes.page(shapes.event) },
    handle: async ({ db, principal, query }) =>
      okPage(
        await listEvents(db, principal, { limit: query.limit, startingAfter: query.starting_after, type: query.type }),
      ),
  }),
  route({
    method: "GET",
    path: "/events/:eventId",
    operationId: "getEvent",
    keys: SERVER_KEYS,
    summary: "One event.",
    query: wire.noQuery,
    response: { description: "The event.", schema: shapes.event },
    handle: async ({ db, principal, params }) => ok(await getEvent(db, principal, params.eventId)),
  }),
  route({
    method: "POST",
    path: "/events/:eventId/redeliver",
    operationId: "redeliverEvent",
    keys: SERVER_KEYS,
    rateLimit: "redeliver",
    summary: "Queue an event again for every subscribed endpoint that is not disabled, or for one endpoint_id.",
    body: wire.redeliverRequest,
    response: { description: "The deliveries queued.", schema: shapes.redelivery },
    handle: async ({ db, services, principal, params, body }) =>
      ok(await redeliverEvent(db, services, principal, params.eventId, body.endpoint_id)),
  }),
  route({
    method: "POST",
    path: "/webhooks/endpoints",
    operationId: "createWebhookEndpoint",
    keys: SERVER_KEYS,
    summary: "Create a webhook endpoint. The response reveals its signing secret (whsec_…) this once.",
    body: wire.webhookEndpointCreate,
    response: { description: "The endpoint with its signing secret.", schema: shapes.webhookEndpointWithSecret },
    prepare: ({ services, principal, body }) => webhookEndpoints.checkEndpointUrl(services, principal, body.url),
    handle: async ({ db, services, sealer, principal, body, prepared: url }) =>
      secretReveal(await webhookEndpoints.createWebhookEndpoint(db, services, sealer, principal, { ...body, url })),
  }),
  route({
    method: "GET",
    path: "/webhooks/endpoints",
    operationId: "listWebhookEndpoints",
    keys: SERVER_KEYS,
    summary: "List webhook endpoints, newest first (never their secrets).",
    query: wire.webhookEndpointsQuery,
    response: { description: "A page of endpoints.", schema: shapes.page(shapes.webhookEndpoint) },
    handle: async ({ db, principal, query }) =>
      okPage(
        await webhookEndpoints.listWebhookEndpoints(db, principal, {
          limit: query.limit,
          startingAfter: query.starting_after,
        }),
      ),
  }),
  route({
    method: "GET",
    path: "/webhooks/endpoints/:endpointId",
    operationId: "getWebhookEndpoint",
    keys: SERVER_KEYS,
    summary: "One webhook endpoint (never its secret).",
    query: wire.noQuery,
    response: { description: "The endpoint.", schema: shapes.webhookEndpoint },
    handle: async ({ db, principal, params }) =>
      ok(await webhookEndpoints.getWebhookEndpoint(db, principal, params.endpointId)),
  }),
  route({
    method: "PATCH",
    path: "/webhooks/endpoints/:endpointId",
    operationId: "updateWebhookEndpoint",
    keys: SERVER_KEYS,
    summary: "Change the URL, the subscribed events and/or the status (enabled, disabled). Never rotates the secret.",
    body: wire.webhookEndpointUpdate,
    response: { description: "The endpoint.", schema: shapes.webhookEndpoint },
    prepare: async ({ services, principal, body }) =>
      body.url === undefined ? undefined : webhookEndpoints.checkEndpointUrl(services, principal, body.url),
    handle: async ({ db, services, principal, params, body, prepared: url }) =>
      ok(await webhookEndpoints.updateWebhookEndpoint(db, services, principal, params.endpointId, { ...body, url })),
  }),
  route({
    method: "DELETE",
    path: "/webhooks/endpoints/:endpointId",
    operationId: "deleteWebhookEndpoint",
    keys: SERVER_KEYS,
    summary: "Delete a webhook endpoint; deliveries not yet made to it are dropped.",
    body: wire.emptyBody,
    response: { description: "The deleted endpoint's id.", schema: shapes.deletedWebhookEndpoint },
    handle: async ({ db, principal, params }) =>
      ok(await webhookEndpoints.deleteWebhookEndpoint(db, principal, params.endpointId)),
  }),
  route({
    method: "POST",
    path: "/webhooks/endpoints/:endpointId/secret/rotate",
    alsoAt: "/v1/webhooks/endpoints/:endpointId/secret/rotate",
    operationId: "rotateWebhookSecret",
    keys: SERVER_KEYS,
    summary:
      "A new signing secret, revealed this once. The old one keeps signing beside it (a second v1= entry) for 24 h.",
    body: wire.emptyBody,
    response: { description: "The endpoint with its new signing secret.", schema: shapes.webhookEndpointWithSecret },
    handle: async ({ db, services, sealer, principal, params }) =>
      secretReveal(await webhookEndpoints.rotateWebhookSecret(db, services, sealer, principal, params.endpointId)),
  }),
  route({
    method: "GET",
    path: "/webhooks/endpoints/:endpointId/deliveries",
    operationId: "listWebhookDeliveries",
    keys: SERVER_KEYS,
    summary: "The endpoint's delivery attempt log, newest first: time, event, outcome, HTTP status, duration, error.",
    query: wire.webhookEndpointsQuery,
    response: { description: "A page of attempts.", schema: shapes.page(shapes.webhookAttempt) },
    handle: async ({ db, principal, params, query }) =>
      okPage(
        await listWebhookAttempts(db, principal, params.endpointId, {
          limit: query.limit,
          startingAfter: query.starting_after,
        }),
      ),
  }),
];

/** A response that shows a signing secret: stored sealed under its idempotency key. */
const secretReveal = (body: unknown) => ({ ...ok(body), sensitive: true });

function claimFilters(query: z.output<typeof wire.claimsQuery>) {
  return {
    limit: query.limit,
    startingAfter: query.starting_after,
    status: query.status,
    referenceNumber: query.reference_number,
    createdGte: query.created_gte,
    createdLt: query.created_lt,
  };
}
