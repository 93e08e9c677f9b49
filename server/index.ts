// The one entry point into the protection core for the Remix app (app/) and the scripts: the runtime and its
// configuration, the services the app calls in process (install and uninstall, privacy, the dashboard's reads), the
// Shopify app's repositories, the worker runtime its job queue runs on, the widget assets, the demo page and the
// API's error shape. Re-exports only: each rule stays in its own module.

// Runtime and configuration
export { loadConfig, type Config } from "./config.ts";
export { createRuntime, type Runtime } from "./runtime.ts";
export { createServerApp } from "./server-app.ts";
export { exitGracefullyOnSignals } from "./graceful-shutdown.ts";
export { API_BASE_PATH } from "./http/app.ts";
export { createInProcessFetch } from "./in-process-fetch.ts";
export { DEFAULT_DATABASE_URL, isPostgresUrl } from "./store/open.ts";
export { migrate, migrationsFolder } from "./store/migrations.ts";
export type { Database, Queryable } from "./store/database.ts";
export { createSealer, type Sealer } from "./secrets/sealer.ts";
export { deriveKey } from "./secrets/derive.ts";
export { createPeriodicWorker, createWorker, workerGroup } from "./workers/worker.ts";
export { recordFailedAttempt } from "./workers/failure-recorder.ts";
export type { RetryPolicy } from "./workers/retry-policy.ts";

// Pages and errors the app serves as the standalone server does
export { widgetAssetResponse } from "./widget-assets.ts";
export { DEMO_PATH, demoKeysFor, demoPageResponse } from "./demo-page.ts";
export { DEMO_SAMPLE_ORDER, ensureDemoMerchant, ensureDemoSample, type DemoSample } from "./demo-merchant.ts";
export { ApiError, errorBody } from "./http/errors.ts";
export { newRequestId } from "./http/request-context.ts";

// Domain: values and rules
export { iso, type Actor, type Services } from "./domain/context.ts";
export { newId, type Mode } from "./domain/ids.ts";
export { applyBps, formatDecimalAmount, parseDecimalAmount } from "./domain/money.ts";
export { fullDisclosure } from "./domain/disclosure.ts";

// Services: install and uninstall, privacy, the dashboard's reads
export { createTestMerchant, mintTestKeys, revokeMerchantKeys } from "./domain/merchants.ts";
export { loadActiveProgram } from "./domain/programs.ts";
export { customerRecords, redactCustomer, type CustomerSelector } from "./domain/privacy.ts";
export { eraseMerchantRows, eraseShopRows } from "./store/erasure.ts";
export { merchantMetrics, type MerchantMetrics } from "./domain/metrics.ts";
export { listWebhookEndpoints, type EndpointStatus } from "./domain/webhook-endpoints.ts";
export { listWebhookAttempts, type WebhookAttempt } from "./domain/webhook-deliveries.ts";
// The free-look fee refund: the Shopify app records the refund it made through the order (channel "shopify").
export { confirmFeeRefund, type FeeRefundChannel } from "./domain/fee-refunds.ts";

// The Shopify app's tables
export * from "./store/shopify-shops.ts";
export * from "./store/shopify-jobs.ts";
export * from "./store/shopify-webhook-receipts.ts";
export * from "./store/shopify-orders.ts";
export * from "./store/shopify-order-protection.ts";
export * from "./store/shopify-data-requests.ts";
export * from "./store/shopify-fee-refunds.ts";

// The buyer portal's wire shapes (the portal pages are server-side clients of the portal API)
export type { PortalPlan, PortalSession } from "./domain/portal.ts";
export type { EvidenceFile, PortalClaim, PortalClaimWithTimeline, TimelineEntry } from "./domain/claims.ts";
