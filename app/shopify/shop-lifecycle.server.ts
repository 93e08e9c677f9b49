// Install, uninstall and Shopify's privacy (compliance) topics, as jobs. Install's DB part runs in the OAuth
// callback (afterAuth); its Admin API part — the protection product and the storefront config — is the
// storefront_setup job, retried like any other.
import {
  customerRecords,
  eraseMerchantRows,
  eraseShopRows,
  loadActiveProgram,
  newId,
  redactCustomer,
  type CustomerSelector,
  type Mode,
  type Queryable,
} from "../../server/index.ts";
import { deleteCustomerShopifyDataRequests, insertShopifyDataRequest } from "./store/data-requests.ts";
import { blankShopifyJobPayloadsMentioning } from "./store/jobs.ts";
import { findShopInstallation } from "./store/shops.ts";
import type { Job } from "./jobs.server.ts";
import { enqueueNamedJob, type JobHandlers, type JobPayloads } from "./named-jobs.ts";
import type { PrivacyCustomer } from "./webhooks/privacy-payloads.ts";
import { ensureProtectionProduct, writeStorefrontConfig } from "./admin-api.server.ts";
import { tierPrices } from "./fee-tiers.ts";
import { installShop, saveProtectionProduct, uninstallShop } from "./installations.server.ts";
import type { ShopifyDeps } from "./deps.server.ts";
import { ensureOrderMetafieldDefinitions } from "./order-states.server.ts";
import { ensureCartGuard } from "./cart-guard.server.ts";

const MODES: Mode[] = ["test", "live"];

/** afterAuth: the shop becomes (again) an installed merchant; on a change, its storefront setup is queued. */
export async function onShopAuthenticated(deps: ShopifyDeps, shop: string): Promise<void> {
  const queued = await deps.db.transaction(async (tx) => {
    const { changed } = await installShop(tx, deps.services, deps.sealer, shop);
    if (changed) {
      await enqueueNamedJob(tx, deps.services, { shop, kind: "storefront_setup", payload: {} });
      // The usage subscription the merchant approves before going live (app/shopify/billing.server.ts).
      await enqueueNamedJob(tx, deps.services, { shop, kind: "billing_setup", payload: {} });
    }
    return changed;
  });
  if (queued) deps.wakeJobs();
}

type ShopLifecycleJobs = Pick<
  JobHandlers,
  | "storefront_setup"
  | "app/uninstalled"
  | "app/scopes_update"
  | "customers/data_request"
  | "customers/redact"
  | "shop/redact"
>;

export function shopLifecycleHandlers(deps: ShopifyDeps): ShopLifecycleJobs {
  return {
    storefront_setup: (job) => setUpStorefront(deps, job.shop),
    "app/uninstalled": async (job) => {
      await deps.db.transaction((tx) => uninstallShop(tx, deps.services, job.shop));
      await deps.deleteSessions(job.shop);
    },
    "app/scopes_update": (job) => deps.updateSessionScopes(job.shop, job.payload.current ?? []),
    "customers/data_request": (job) => exportCustomer(deps, job),
    "customers/redact": (job) => redactCustomerData(deps, job),
    "shop/redact": (job) => eraseShop(deps, job.shop),
  };
}

async function setUpStorefront(deps: ShopifyDeps, shop: string): Promise<void> {
  const installation = await deps.installation(shop);
  if (!installation) return;
  const program = await loadActiveProgram(
    deps.db,
    { merchantId: installation.merchantId, mode: installation.mode },
    installation.programId,
  );
  const admin = await deps.adminApi(shop);
  const product = await ensureProtectionProduct(admin, (currency) => tierPrices(program, currency));
  await saveProtectionProduct(deps.db, deps.services, shop, product);
  await writeStorefrontConfig(admin, {
    version: 1,
    publishableKey: installation.publishableKey,
    programId: installation.programId,
    apiBase: new URL("/api/v1", deps.appUrl).href,
    widgetUrl: new URL("/widget/v1/service-widget.js", deps.appUrl).href,
    ...product,
  });
  await ensureOrderMetafieldDefinitions(admin);
  await ensureCartGuard(admin);
}

/** The shop's merchant id, installed or not: privacy requests arrive after uninstall too. */
async function merchantOf(db: Queryable, shop: string): Promise<string | undefined> {
  return (await findShopInstallation(db, shop))?.merchantId;
}

/** Either may be missing: customers/redact empties the payload (`{}`) of every other job that names the customer. */
function customerOf(customer: PrivacyCustomer | undefined, orderIds: number[] | undefined): CustomerSelector {
  return { email: customer?.email ?? null, orderIds: (orderIds ?? []).map(String) };
}

/** customers/data_request: everything we hold about the customer, kept for the merchant (dashboard, 30 days). */
async function exportCustomer(deps: ShopifyDeps, job: Job<JobPayloads["customers/data_request"]>): Promise<void> {
  const merchantId = await merchantOf(deps.db, job.shop);
  if (!merchantId) return;
  const customer = customerOf(job.payload.customer, job.payload.orders_requested);
  const records: Record<string, unknown> = {};
  for (const mode of MODES) records[mode] = await customerRecords(deps.db, deps.sealer, { merchantId, mode }, customer);
  const now = deps.services.clock();
  await insertShopifyDataRequest(deps.db, {
    id: newId("dreq", now, deps.services.random),
    shop: job.shop,
    customerId: String(job.payload.customer?.id ?? ""),
    export: JSON.stringify({
      dataRequestId: job.payload.data_request?.id ?? null,
      customer: job.payload.customer ?? null,
      records,
    }),
    createdAt: now,
  });
}

/** customers/redact: the customer's personal data goes from the protection records, the exports and kept job payloads. */
async function redactCustomerData(deps: ShopifyDeps, job: Job<JobPayloads["customers/redact"]>): Promise<void> {
  const merchantId = await merchantOf(deps.db, job.shop);
  if (!merchantId) return;
  const customer = customerOf(job.payload.customer, job.payload.orders_to_redact);
  await deps.db.transaction(async (tx) => {
    for (const mode of MODES) await redactCustomer(tx, deps.sealer, { merchantId, mode }, customer);
    await deleteCustomerShopifyDataRequests(tx, job.shop, String(job.payload.customer?.id ?? ""));
    if (customer.email) await blankShopifyJobPayloadsMentioning(tx, job.shop, job.id, customer.email);
  });
}

/** shop/redact (48 h after uninstall): the shop's merchant and everything the app kept about the shop. */
async function eraseShop(deps: ShopifyDeps, shop: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const merchantId = await merchantOf(tx, shop);
    if (merchantId) await eraseMerchantRows(tx, merchantId);
    await eraseShopRows(tx, shop);
  });
  await deps.deleteSessions(shop);
}
