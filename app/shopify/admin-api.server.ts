// What the app does through the Admin GraphQL API: the protection product, the storefront config, the reference
// write-back and the protection line's fulfillment. Each step is built from the operations in app/shopify/admin/
// (one operation per file, typed variables and results); every call throws AdminApiError on GraphQL errors or
// mutation userErrors, so a job that makes it is retried.
import { formatDecimalAmount, parseDecimalAmount } from "@purchase-protection/contract";
import {
  CONFIG_KEY,
  CONFIG_NAMESPACE,
  REFERENCE_ATTRIBUTE,
  SHOP_CONFIG_NAMESPACE,
  type FeeTier,
  type StorefrontConfig,
} from "@purchase-protection/contract";
import { numericId, type AdminGraphql } from "./admin/graphql.ts";
import { protectionProduct } from "./admin/protection-product.ts";
import { protectionProductSet, type ProductSetInput } from "./admin/protection-product-set.ts";
import { publications } from "./admin/publications.ts";
import { publishProtection } from "./admin/publish-protection.ts";
import { owners } from "./admin/owners.ts";
import { storefrontConfig } from "./admin/storefront-config.ts";
import { protectionReference } from "./admin/protection-reference.ts";
import type { OrderStateVariables } from "./admin/order-protection-state.ts";
import { protectionFulfillmentOrders, type FulfillmentOrderNode } from "./admin/protection-fulfillment-orders.ts";
import { fulfillProtection } from "./admin/fulfill-protection.ts";
import { PROTECTION_SKU } from "./webhook-filter.ts";

export const PROTECTION_PRODUCT_HANDLE = "purchase-protection";
const TIER_OPTION = "Protection fee";

/**
 * Creates the hidden, non-shipping, untaxed "Purchase Protection" product with one variant per price tier, or brings
 * the existing one (same handle) back to exactly those tiers; hidden from search and collections (`seo.hidden`) and
 * published to the Online Store so the Ajax Cart API can add it. Returns its id and tiers. The tiers are priced in
 * the shop's currency (`pricesIn` of it: a program's limits differ per currency).
 */
export async function ensureProtectionProduct(
  graphql: AdminGraphql,
  pricesIn: (currency: string) => number[],
): Promise<{ productId: string; tiers: FeeTier[] }> {
  const { shop, productByIdentifier } = await protectionProduct(graphql, { handle: PROTECTION_PRODUCT_HANDLE });
  const currency = shop.currencyCode;
  const prices = pricesIn(currency);
  const label = (cents: number) => formatDecimalAmount(cents, currency);
  const input: ProductSetInput = {
    ...(productByIdentifier?.id ? { id: productByIdentifier.id } : {}),
    title: "Purchase Protection",
    handle: PROTECTION_PRODUCT_HANDLE,
    status: "ACTIVE",
    productType: "Purchase protection",
    descriptionHtml:
      "<p>Optional purchase protection for this order: a contractual refund guarantee, not insurance.</p>",
    productOptions: [{ name: TIER_OPTION, values: prices.map((cents) => ({ name: label(cents) })) }],
    variants: prices.map((cents) => ({
      optionValues: [{ optionName: TIER_OPTION, name: label(cents) }],
      price: label(cents),
      sku: PROTECTION_SKU,
      taxable: false,
      inventoryPolicy: "CONTINUE",
      inventoryItem: { requiresShipping: false, tracked: false },
    })),
    metafields: [{ namespace: "seo", key: "hidden", type: "number_integer", value: "1" }],
  };
  const { productSet } = await protectionProductSet(graphql, { input });
  const product = productSet.product;
  await publishToOnlineStore(graphql, product.id);
  const tiers = product.variants.nodes
    .map((variant) => ({ priceCents: parseDecimalAmount(variant.price, currency), variantId: numericId(variant.id) }))
    .sort((a, b) => a.priceCents - b.priceCents);
  return { productId: numericId(product.id), tiers };
}

async function publishToOnlineStore(graphql: AdminGraphql, productGid: string): Promise<void> {
  const onlineStore = (await publications(graphql)).publications.nodes.find(
    (publication) => publication.catalog?.title === "Online Store",
  );
  if (!onlineStore) return; // No Online Store channel: the checkout extension (Plus) is the only cart surface.
  await publishProtection(graphql, { id: productGid, input: [{ publicationId: onlineStore.id }] });
}

/**
 * Writes the storefront config as app-owned metafields: on the app installation (the theme embed's Liquid reads
 * `app.metafields.protection.config`) and on the shop under `$app:protection` (checkout extensions read app-owned
 * shop metafields). Neither is visible to or editable by other apps.
 */
export async function writeStorefrontConfig(graphql: AdminGraphql, config: StorefrontConfig): Promise<void> {
  const { currentAppInstallation, shop } = await owners(graphql);
  const value = JSON.stringify(config);
  await storefrontConfig(graphql, {
    metafields: [
      { ownerId: currentAppInstallation.id, namespace: CONFIG_NAMESPACE, key: CONFIG_KEY, type: "json", value },
      { ownerId: shop.id, namespace: SHOP_CONFIG_NAMESPACE, key: CONFIG_KEY, type: "json", value },
    ],
  });
}

/**
 * Writes the reference number back to the order: as a custom attribute (orderUpdate replaces the whole list, so the
 * order's other attributes are sent along) and as the app metafield `$app:protection.reference_number`; with it, in the
 * same call, the plan's `state` (order-states.server.ts orderStateVariables). With `fulfilProductId`, the order's
 * lines of that product (the protection line) are fulfilled next, from the fulfillment orders the same call read.
 */
export async function writeOrderReference(
  graphql: AdminGraphql,
  order: { gid: string; attributes: { name: string; value: string }[] },
  referenceNumber: string,
  state: OrderStateVariables,
  fulfilProductId?: string,
): Promise<void> {
  const customAttributes = [
    ...order.attributes
      .filter((attribute) => attribute.name !== REFERENCE_ATTRIBUTE)
      .map(({ name, value }) => ({ key: name, value })),
    { key: REFERENCE_ATTRIBUTE, value: referenceNumber },
  ];
  const { orderUpdate } = await protectionReference(graphql, {
    ...state,
    input: {
      id: order.gid,
      customAttributes,
      metafields: [
        {
          namespace: SHOP_CONFIG_NAMESPACE,
          key: "reference_number",
          type: "single_line_text_field",
          value: referenceNumber,
        },
      ],
    },
    fulfilling: fulfilProductId !== undefined,
  });
  if (fulfilProductId !== undefined)
    await fulfillOpenLines(graphql, orderUpdate.order?.fulfillmentOrders?.nodes ?? [], fulfilProductId);
}

/**
 * Fulfills the order's protection line(s), without notifying the buyer: there is nothing to ship, and an unfulfilled
 * line would keep the order "partially fulfilled" forever (docs/shopify.md "Shopify app", orders/create). Only what is still open is
 * fulfilled, so running it again does nothing. Returns the quantity fulfilled now. (A new plan's reference write-back
 * fulfils its line itself; this serves the jobs queued before it did.)
 */
export async function fulfillProtectionLines(
  graphql: AdminGraphql,
  orderGid: string,
  productId: string,
): Promise<number> {
  const { order } = await protectionFulfillmentOrders(graphql, { id: orderGid });
  return fulfillOpenLines(graphql, order?.fulfillmentOrders.nodes ?? [], productId);
}

/** Fulfills what is still open of the product's lines among `fulfillmentOrders`; returns the quantity fulfilled. */
async function fulfillOpenLines(
  graphql: AdminGraphql,
  fulfillmentOrders: FulfillmentOrderNode[],
  productId: string,
): Promise<number> {
  const productGid = `gid://shopify/Product/${productId}`;
  const open = fulfillmentOrders
    .filter((fulfillmentOrder) => fulfillmentOrder.status === "OPEN" || fulfillmentOrder.status === "IN_PROGRESS")
    .map((fulfillmentOrder) => ({
      fulfillmentOrderId: fulfillmentOrder.id,
      fulfillmentOrderLineItems: fulfillmentOrder.lineItems.nodes
        .filter((item) => item.lineItem.product?.id === productGid && item.remainingQuantity > 0)
        .map((item) => ({ id: item.id, quantity: item.remainingQuantity })),
    }))
    .filter((group) => group.fulfillmentOrderLineItems.length > 0);
  if (open.length === 0) return 0;
  await fulfillProtection(graphql, { fulfillment: { lineItemsByFulfillmentOrder: open, notifyCustomer: false } });
  return open.reduce(
    (sum, group) => sum + group.fulfillmentOrderLineItems.reduce((n, item) => n + item.quantity, 0),
    0,
  );
}
