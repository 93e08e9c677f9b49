// The one entry point into the protection core for the Remix app (app/) and the scripts: the runtime and its
// configuration, the services the app calls in process (install and uninstall, privacy, the dashboard's reads), the
// database's types and helpers the Shopify app's own tables are written with (app/shopify/store/), the worker runtime
// its job queue runs on, the widget assets, the demo page and the API's error shape. Re-exports only: each rule stays
// in its own module. No table module of the core is exported (test/app/facade-boundary.test.ts).

// Runtime and configuration
export { loadConfig, type Config } from "./config.ts";
export { claimTitle } from "./domain/claim-name.ts";
export { createRuntime, type Runtime } from "./runtime.ts";
export {
  createCore,
  StaffRefused,
  type Core,
  type CoreDeps,
  type MerchantCaller,
  type StaffCaller,
  type Buyer,
  type PortalAnswer,
  type PortalForm,
  type PortalRulebook,
} from "./core/index.ts";
export { createServerApp } from "./server-app.ts";
export { exitGracefullyOnSignals, type Drain } from "./graceful-shutdown.ts";
export { probeRoutes, type ReadinessSources } from "./observability/probes.ts";
export { startProbeServer } from "./observability/probe-server.ts";
export { recordRequest } from "./observability/request-metrics.ts";
export { UNMATCHED_ROUTE } from "./observability/metrics.ts";
export { API_BASE_PATH, MULTIPART_LIMITS } from "./http/app.ts";
export { createInProcessFetch } from "./in-process-fetch.ts";
export { DEFAULT_DATABASE_URL, isPostgresUrl } from "./store/open.ts";
export { migrate, migrationsFolder } from "./store/migrations.ts";
export { forUpdate, likeContaining, type Database, type Queryable } from "./store/database.ts";
// A work table's lease (the Shopify app's job queue claims its due jobs as the e-mail queue does).
export { claimDueRows } from "./store/work-table.ts";
export { createSealer, type Sealer } from "./secrets/sealer.ts";
export { deriveKey } from "./secrets/derive.ts";
export { createPeriodicWorker, createWorker, workerGroup } from "./workers/worker.ts";
export { recordFailedAttempt } from "./workers/failure-recorder.ts";
export type { RetryPolicy } from "./workers/retry-policy.ts";

// Pages and errors the app serves as the standalone server does
export { widgetAssetResponse } from "./widget-assets.ts";
export { DEMO_PATH, demoKeysFor, demoPageResponse } from "./demo-page.ts";
export { ensureDemoMerchant } from "./demo-merchant.ts";
export { seedDemo, type DemoSeed } from "./demo-seed.ts";
export { ApiError, errorBody } from "./http/errors.ts";
export { isFormMediaType, readFormBody, type FormLimits } from "./http/body.ts";
export { newRequestId } from "./http/request-context.ts";

// Domain: values and rules
export { iso, type ChannelActions, type Services } from "./domain/context.ts";
export type { Actor } from "./vocabulary/actors.ts";
export { newId } from "./domain/ids.ts";
export type { Mode } from "./vocabulary/ids.ts";
export { applyBps } from "./domain/money.ts";
export { fullDisclosure } from "./domain/disclosure.ts";

// Services: install and uninstall, privacy, the dashboard's reads
export { createTestMerchant, mintKeyPair, revokeMerchantKeys } from "./domain/merchants.ts";
export { gettingStartedFacts, type GettingStartedFacts } from "./domain/getting-started.ts";
export {
  DEFAULT_AUTO_APPROVE_MAX_CENTS,
  DEFAULT_CURRENCY_LIMITS,
  loadActiveProgram,
  programTermsOf,
  type EditableProgram,
} from "./domain/programs.ts";
export { listPrograms, type ProgramView } from "./domain/programs.ts";
export {
  dashboardExperiments,
  programOfferWording,
  variantRateBounds,
  MIN_OFFERS_TO_CALL,
  type ExperimentResult,
} from "./domain/experiments.ts";
export { priceOffer, splitFee } from "./domain/quotes.ts";
export { SUPPORTED_CURRENCIES, type Currency } from "./vocabulary/money.ts";
export { DAY_MS } from "./vocabulary/time.ts";
export { customerRecords, redactCustomer, type CustomerSelector } from "./domain/privacy.ts";
export { eraseMerchantRows, eraseShopRows } from "./store/erasure.ts";
export {
  MAX_ANALYTICS_DAYS,
  METRICS_INTERVALS,
  claimDecisionStats,
  dailyActivity,
  merchantAnalytics,
  merchantAnalyticsCsv,
  merchantMetrics,
  type ClaimDecisionStats,
  type DailyActivity,
  type MerchantAnalytics,
  type MerchantMetrics,
  type MetricsInterval,
} from "./domain/metrics.ts";
export { listWebhookEndpoints, type WebhookEndpoint } from "./domain/webhook-endpoints.ts";
export type { EndpointStatus } from "./vocabulary/webhook-endpoints.ts";
export { EVENT_TYPES, TEST_EVENT_TYPE, type StoredEventType } from "./vocabulary/events.ts";
export { listWebhookAttempts, type WebhookAttempt } from "./domain/webhook-deliveries.ts";
// The free-look fee refund: the Shopify app records the refund it made through the order (channel "shopify").
export { assertFeeRefundable, confirmFeeRefund, type FeeRefundChannel } from "./domain/fee-refunds.ts";
// Deliveries: the Shopify app records the carrier's "delivered" on the protected order (the claim rules read it), and
// a fulfilment and its events as the order's shipment and its scans (docs/shopify.md "Delivery facts from Shopify").
export { recordOrderDelivered } from "./domain/orders.ts";
export { recordShopifyFulfillment, recordShopifyFulfillmentEvent } from "./domain/shipments.ts";
// Fraud signals from the channel: the keyed hash of the order's shipping address (a buyer's claims are counted by it
// too), and the platform's own risk assessment of the order, which assesses the plan's open claims again.
export { shippingAddressHash, type ShippingAddress } from "./domain/buyer-addresses.ts";
export { recordOrderRisk } from "./domain/claim-risk-record.ts";
export type { OrderRisk } from "./vocabulary/orders.ts";
export type { ShipmentEventStatus } from "./vocabulary/deliveries.ts";
// Deciding and paying claims: the claims team's console decides, the Shopify app records the payouts it made.
export {
  approveClaim,
  beginClaimPayout,
  claimActorOf,
  denyClaim,
  DENIAL_REASONS,
  recordClaimPayoutStep,
  requestInformation,
  resolveClaim,
  startReview,
  type ClaimDecider,
  type ClaimResolutionInput,
} from "./domain/claim-decisions.ts";
export { getMerchantClaim, listClaims, readMerchantEvidence } from "./domain/claims.ts";
export type { Claim, ClaimDecision, ClaimResolution } from "./domain/claim-views.ts";
export { CLAIM_STATUSES, type ClaimStatus } from "./vocabulary/claims.ts";

// What the Shopify app's own tables (app/shopify/store/) and billing build on: the core's records they join, the
// channel's actions the core lists for the merchant, live protection paused while its charges are not approved.
export type { OrderLine, ShipTo } from "./vocabulary/orders.ts";
export type { PlanStatus } from "./vocabulary/plans.ts";
export type { PlanPresentmentRecord } from "./vocabulary/plans.ts";
export type { ClaimPayoutState } from "./vocabulary/claims.ts";
export type { StuckClaimPayout, StuckFeeRefund } from "./vocabulary/channel-actions.ts";
export { setLiveProtectionPause } from "./domain/merchants.ts";
export { settleStatementThroughPlatform, type StatementSettlement } from "./domain/platform-charges.ts";
export { createOutboxFollower, type OutboxTaker } from "./webhooks/outbox-follower.ts";

// The claims team's console (/ops): staff accounts (signing in is core.accounts'), the audit log, the cross-merchant
// queue and claim, and the staff's actions on claims (each with its audit entry, in one transaction).
export {
  authenticateStaff,
  ensureStaffAccount,
  issueSignInLink,
  listAuditLog,
  listStaff,
  SIGN_IN_LINK_TTL_MS,
  STAFF_ROLES,
  type AuditEntry,
  type StaffMember,
  type StaffPrincipal,
  type StaffRole,
} from "./domain/staff.ts";
export {
  DECISION_STATS_DAYS,
  getOpsClaim,
  listClaimQueue,
  readOpsEvidence,
  QUEUE_VIEWS,
  type ClaimActionName,
  type OpsClaimDetail,
  type Queue,
  type QueueFilters,
  type QueueRow,
} from "./domain/ops-claims.ts";
export { sendStaffSignInEmail, type Mail } from "./email/staff-sign-in.ts";
export { getPurchase, listPurchases, type Purchase } from "./domain/purchases.ts";
export {
  getSettlement,
  listSettlements,
  runningBalances,
  settlementEntriesCsv,
  type RunningBalance,
  type Statement,
} from "./domain/settlements.ts";
export { countBuyersRefusedForNoAddress } from "./domain/plans.ts";
export type { ConsentEvidence, ConsentRecord } from "./vocabulary/plans.ts";
export type { MerchantRefund } from "./domain/orders.ts";
export { sendMemberSignInEmail, sendMemberSignUpEmail } from "./email/member-sign-in.ts";
export { listPurchaseEmails, type PurchaseEmail } from "./domain/emails.ts";
export {
  MINTABLE_KEY_KINDS,
  ROTATION_OVERLAPS,
  type ApiKeySummary,
  type MintedKey,
  type RotationOverlap,
} from "./domain/api-keys.ts";
export {
  goLive,
  goLiveState,
  setAllowedOrigins,
  type ChecklistItem,
  type ChecklistItemId,
  type GoLiveState,
} from "./domain/go-live.ts";
export {
  listFeeRefundsToConfirm,
  merchantActions,
  OVERVIEW_ACTION_LIMIT,
  type ActionGroup,
  type ActionItem,
  type ActionKind,
  type MerchantActions,
} from "./domain/merchant-actions.ts";
export {
  chooseActionEmails,
  composeActionDigests,
  DIGEST_INTERVAL_MS,
  memberWantsActionEmails,
  teamActionEmails,
} from "./domain/action-digests.ts";
export {
  authenticateMember,
  listTeam,
  MEMBER_ROLES,
  type MemberPrincipal,
  type MemberRole,
  type MemberSignInLink,
  type TeamActor,
  type TeamMember,
} from "./domain/members.ts";
export { SIGN_UP_LINK_TTL_MS, type SignUpRequest } from "./domain/sign-ups.ts";
export {
  listMerchantAudit,
  MERCHANT_AUDIT_ACTIONS,
  type MerchantAuditAction,
  type MerchantAuditEntry,
  type MerchantAuditSource,
} from "./domain/merchant-audit.ts";
export { DomainError } from "./domain/errors.ts";
export { COVERED_REASONS, reasonName } from "./domain/disclosure.ts";
export { rulebookText } from "./domain/rulebook-text.ts";
export { parseStoredClaimRules, type ClaimRules } from "./domain/claim-rules.ts";
export {
  MERCHANT_PAYOUT_DAYS,
  payoutTerms,
  SHOPIFY_PAYOUT_BUSINESS_DAYS,
  type PayoutChannel,
  type PayoutTerms,
} from "./domain/payout-terms.ts";
export { clientAddress } from "./http/client-ip.ts";
export { logStartupWarnings } from "./startup-warnings.ts";
export { attachmentDisposition } from "./http/route.ts";
export { RULES as RATE_LIMIT_RULES } from "./rate-limits/policies.ts";

// The buyer portal's answers (the portal pages call the core's portal use cases)
export type { PortalPlan, PortalSession } from "./domain/portal.ts";
export type { EvidenceFile, PortalClaim, PortalClaimWithTimeline, TimelineEntry } from "./domain/claim-views.ts";
