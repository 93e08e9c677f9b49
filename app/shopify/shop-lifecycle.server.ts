// Install, uninstall and Shopify's privacy (compliance) topics, as jobs. Install's DB part runs in the OAuth
// callback (afterAuth); its Admin API part — the protection product and the storefront config — is the
// storefront_setup job, retried like any other.
import {
  customerRecords,
  loadActiveProgram,
  newId,
  type CustomerSelector,
  type Mode,
  type Queryable,
} from "../../server/index.ts";
import { insertShopifyDataRequest } from "./store/data-requests.ts";
import { findShopInstallation } from "./store/shops.ts";
import {
  eraseShopifyShop,
  installShopWithSetup,
  redactShopifyCustomer,
  saveShopUninstalled,
} from "./store/units/shops.ts";
import type { Job } from "./jobs.server.ts";
import type { JobHandlers, JobPayloads } from "./named-jobs.ts";
import type { PrivacyCustomer } from "./webhooks/privacy-payloads.ts";
import { ensureProtectionProduct, writeStorefrontConfig } from "./admin-api.server.ts";
import { tierPrices } from "./fee-tiers.ts";
import { saveProtectionProduct } from "./installations.server.ts";
import type { ShopifyDeps } from "./deps.server.ts";
import { ensureOrderMetafieldDefinitions } from "./order-states.server.ts";
import { ensureCartGuard } from "./cart-guard.server.ts";

const MODES: Mode[] = ["test", "live"];

/** afterAuth: the shop becomes (again) an installed merchant; on a change, its storefront setup is queued. */
export async function onShopAuthenticated(deps: ShopifyDeps, shop: string): Promise<void> {
  if (await installShopWithSetup(deps.db, deps.services, deps.sealer, shop)) deps.wakeJobs();
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
      await saveShopUninstalled(deps.db, deps.services, job.shop);
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
  await redactShopifyCustomer(deps.db, deps.sealer, {
    shop: job.shop,
    owners: MODES.map((mode) => ({ merchantId, mode })),
    customer,
    customerId: String(job.payload.customer?.id ?? ""),
    exceptJobId: job.id,
  });
}

/** shop/redact (48 h after uninstall): the shop's merchant and everything the app kept about the shop. */
async function eraseShop(deps: ShopifyDeps, shop: string): Promise<void> {
  await eraseShopifyShop(deps.db, shop);
  await deps.deleteSessions(shop);
}
