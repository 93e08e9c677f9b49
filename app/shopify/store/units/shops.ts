// The shop lifecycle's units of work (app/shopify/shop-lifecycle.server.ts): install with its setup jobs, uninstall,
// and Shopify's privacy erasures; each one transaction.
import {
  eraseMerchantRows,
  eraseShopRows,
  redactCustomer,
  type Actor,
  type CustomerSelector,
  type Database,
  type Sealer,
  type Services,
} from "../../../../server/index.ts";
import { installShop, uninstallShop } from "../../installations.server.ts";
import { enqueueNamedJob } from "../../named-jobs.ts";
import { deleteCustomerShopifyDataRequests } from "../data-requests.ts";
import { blankShopifyJobPayloadsMentioning } from "../jobs.ts";
import { findShopInstallation } from "../shops.ts";

/**
 * The shop becomes (again) an installed merchant; on a change, its storefront setup and its billing setup are queued
 * with it. Returns whether anything changed.
 */
export function installShopWithSetup(db: Database, services: Services, sealer: Sealer, shop: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const { changed } = await installShop(tx, services, sealer, shop);
    if (changed) {
      await enqueueNamedJob(tx, services, { shop, kind: "storefront_setup", payload: {} });
      // The usage subscription the merchant approves before going live (app/shopify/billing.server.ts).
      await enqueueNamedJob(tx, services, { shop, kind: "billing_setup", payload: {} });
    }
    return changed;
  });
}

/** The shop removed the app (see uninstallShop). */
export function saveShopUninstalled(db: Database, services: Services, shop: string): Promise<void> {
  return db.transaction((tx) => uninstallShop(tx, services, shop));
}

/**
 * customers/redact: the customer's personal data goes from the protection records of each of `owners`, from the
 * shop's exports of them (by Shopify's customer id) and from the payloads of the shop's jobs but this one.
 */
export function redactShopifyCustomer(
  db: Database,
  sealer: Sealer,
  request: { shop: string; owners: Actor[]; customer: CustomerSelector; customerId: string; exceptJobId: string },
): Promise<void> {
  const { shop, customer } = request;
  return db.transaction(async (tx) => {
    for (const owner of request.owners) await redactCustomer(tx, sealer, owner, customer);
    await deleteCustomerShopifyDataRequests(tx, shop, request.customerId);
    if (customer.email) await blankShopifyJobPayloadsMentioning(tx, shop, request.exceptJobId, customer.email);
  });
}

/** shop/redact: the shop's merchant, installed or not, and everything the app kept about the shop. */
export function eraseShopifyShop(db: Database, shop: string): Promise<void> {
  return db.transaction(async (tx) => {
    const merchantId = (await findShopInstallation(tx, shop))?.merchantId;
    if (merchantId) await eraseMerchantRows(tx, merchantId);
    await eraseShopRows(tx, shop);
  });
}
