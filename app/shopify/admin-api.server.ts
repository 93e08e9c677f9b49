// The Admin GraphQL operations the app performs, over whatever client runs them: `adminGraphqlOf(admin)` adapts the
// client `@shopify/shopify-app-remix` hands out (authenticate.admin / unauthenticated.admin). Every operation
// throws AdminApiError on GraphQL errors or mutation userErrors, so a job that calls it is retried.
import { formatDecimalAmount, parseDecimalAmount } from "../../server/domain/money.ts";
import type { FeeTier } from "./fee-tiers.ts";

export type AdminGraphql = <T = any>(query: string, variables?: Record<string, unknown>) => Promise<T>;

export class AdminApiError extends Error {
  readonly name = "AdminApiError";
}

/** Adapts the library's `admin.graphql(query, { variables })` (a fetch-style Response) to data-or-throw. */
export function adminGraphqlOf(admin: { graphql(query: string, options?: { variables?: Record<string, unknown> }): Promise<Response> }): AdminGraphql {
  return async (query, variables) => {
    const response = await admin.graphql(query, variables ? { variables } : undefined);
    const body = (await response.json()) as { data?: any; errors?: unknown };
    if (body.errors) throw new AdminApiError(`Admin API errors: ${JSON.stringify(body.errors)}`);
    for (const payload of Object.values(body.data ?? {}) as any[]) {
      if (payload?.userErrors?.length) throw new AdminApiError(`Admin API userErrors: ${JSON.stringify(payload.userErrors)}`);
    }
    return body.data;
  };
}

/** `gid://shopify/Product/123` → `123`. */
export const numericId = (gid: string) => gid.slice(gid.lastIndexOf("/") + 1);

export const PROTECTION_PRODUCT_HANDLE = "purchase-protection";
const TIER_OPTION = "Protection fee";

/**
 * Creates the hidden, non-shipping, untaxed "Purchase Protection" product with one variant per price tier, or brings
 * the existing one (same handle) back to exactly those tiers; hidden from search and collections (`seo.hidden`) and
 * published to the Online Store so the Ajax Cart API can add it. Returns its id and tiers.
 */
export async function ensureProtectionProduct(graphql: AdminGraphql, prices: number[]): Promise<{ productId: string; tiers: FeeTier[] }> {
  const { shop, productByIdentifier } = await graphql(
    `query ProtectionProduct($handle: String!) {
      shop { currencyCode }
      productByIdentifier(identifier: { handle: $handle }) { id }
    }`,
    { handle: PROTECTION_PRODUCT_HANDLE },
  );
  const currency: string = shop.currencyCode;
  const label = (cents: number) => formatDecimalAmount(cents, currency);
  const input = {
    ...(productByIdentifier?.id ? { id: productByIdentifier.id } : {}),
    title: "Purchase Protection",
    handle: PROTECTION_PRODUCT_HANDLE,
    status: "ACTIVE",
    productType: "Purchase protection",
    descriptionHtml: "<p>Optional purchase protection for this order: a contractual refund guarantee, not insurance.</p>",
    productOptions: [{ name: TIER_OPTION, values: prices.map((cents) => ({ name: label(cents) })) }],
    variants: prices.map((cents) => ({
      optionValues: [{ optionName: TIER_OPTION, name: label(cents) }],
      price: label(cents),
      taxable: false,
      inventoryPolicy: "CONTINUE",
      inventoryItem: { requiresShipping: false, tracked: false },
    })),
    metafields: [{ namespace: "seo", key: "hidden", type: "number_integer", value: "1" }],
  };
  const { productSet } = await graphql(
    `mutation ProtectionProductSet($input: ProductSetInput!) {
      productSet(input: $input, synchronous: true) {
        product { id variants(first: 250) { nodes { id price } } }
        userErrors { field message code }
      }
    }`,
    { input },
  );
  const product = productSet.product;
  await publishToOnlineStore(graphql, product.id);
  const tiers = (product.variants.nodes as { id: string; price: string }[])
    .map((variant) => ({ priceCents: parseDecimalAmount(variant.price, currency), variantId: numericId(variant.id) }))
    .sort((a, b) => a.priceCents - b.priceCents);
  return { productId: numericId(product.id), tiers };
}

async function publishToOnlineStore(graphql: AdminGraphql, productGid: string): Promise<void> {
  const { publications } = await graphql(`query Publications { publications(first: 50) { nodes { id name } } }`);
  const onlineStore = (publications.nodes as { id: string; name: string }[]).find((publication) => publication.name === "Online Store");
  if (!onlineStore) return; // No Online Store channel: the checkout extension (Plus) is the only cart surface.
  await graphql(
    `mutation PublishProtection($id: ID!, $input: [PublicationInput!]!) {
      publishablePublish(id: $id, input: $input) { userErrors { field message } }
    }`,
    { id: productGid, input: [{ publicationId: onlineStore.id }] },
  );
}

/** What the theme embed and the checkout extension read (README "Shopify app"): one JSON value, two owners. */
export interface StorefrontConfig {
  version: 1;
  publishableKey: string;
  programId: string;
  apiBase: string;
  widgetUrl: string;
  productId: string;
  tiers: FeeTier[];
}

export const CONFIG_NAMESPACE = "protection";
export const CONFIG_KEY = "config";

/**
 * Writes the storefront config as app-owned metafields: on the app installation (the theme embed's Liquid reads
 * `app.metafields.protection.config`) and on the shop under `$app:protection` (checkout extensions read app-owned
 * shop metafields). Neither is visible to or editable by other apps.
 */
export async function writeStorefrontConfig(graphql: AdminGraphql, config: StorefrontConfig): Promise<void> {
  const { currentAppInstallation, shop } = await graphql(`query Owners { currentAppInstallation { id } shop { id } }`);
  const value = JSON.stringify(config);
  await graphql(
    `mutation StorefrontConfig($metafields: [MetafieldsSetInput!]!) {
      metafieldsSet(metafields: $metafields) { metafields { id } userErrors { field message code } }
    }`,
    {
      metafields: [
        { ownerId: currentAppInstallation.id, namespace: CONFIG_NAMESPACE, key: CONFIG_KEY, type: "json", value },
        { ownerId: shop.id, namespace: `$app:${CONFIG_NAMESPACE}`, key: CONFIG_KEY, type: "json", value },
      ],
    },
  );
}

/** The order attribute and app metafield the merchant's confirmation e-mail prints (README "Merchant e-mail"). */
export const REFERENCE_ATTRIBUTE = "_protection_reference";

/**
 * Writes the reference number back to the order: as a custom attribute (orderUpdate replaces the whole list, so the
 * order's other attributes are sent along) and as the app metafield `$app:protection.reference_number`.
 */
export async function writeOrderReference(
  graphql: AdminGraphql,
  order: { gid: string; attributes: { name: string; value: string }[] },
  referenceNumber: string,
): Promise<void> {
  const customAttributes = [
    ...order.attributes.filter((attribute) => attribute.name !== REFERENCE_ATTRIBUTE).map(({ name, value }) => ({ key: name, value })),
    { key: REFERENCE_ATTRIBUTE, value: referenceNumber },
  ];
  await graphql(
    `mutation ProtectionReference($input: OrderInput!) {
      orderUpdate(input: $input) { order { id } userErrors { field message } }
    }`,
    {
      input: {
        id: order.gid,
        customAttributes,
        metafields: [{ namespace: `$app:${CONFIG_NAMESPACE}`, key: "reference_number", type: "single_line_text_field", value: referenceNumber }],
      },
    },
  );
}

/**
 * Fulfills the order's protection line(s), without notifying the buyer: there is nothing to ship, and an unfulfilled
 * line would keep the order "partially fulfilled" forever (DESIGN §3.0: auto-fulfilled). Only what is still open is
 * fulfilled, so running it again does nothing. Returns the quantity fulfilled now.
 */
export async function fulfillProtectionLines(graphql: AdminGraphql, orderGid: string, productId: string): Promise<number> {
  const { order } = await graphql(
    `query ProtectionFulfillmentOrders($id: ID!) {
      order(id: $id) {
        fulfillmentOrders(first: 10) {
          nodes { id status lineItems(first: 50) { nodes { id remainingQuantity lineItem { product { id } } } } }
        }
      }
    }`,
    { id: orderGid },
  );
  const productGid = `gid://shopify/Product/${productId}`;
  const open = (order?.fulfillmentOrders.nodes ?? [])
    .filter((fulfillmentOrder: any) => fulfillmentOrder.status === "OPEN" || fulfillmentOrder.status === "IN_PROGRESS")
    .map((fulfillmentOrder: any) => ({
      fulfillmentOrderId: fulfillmentOrder.id as string,
      fulfillmentOrderLineItems: (fulfillmentOrder.lineItems.nodes as any[])
        .filter((item) => item.lineItem.product?.id === productGid && item.remainingQuantity > 0)
        .map((item) => ({ id: item.id as string, quantity: item.remainingQuantity as number })),
    }))
    .filter((group: { fulfillmentOrderLineItems: unknown[] }) => group.fulfillmentOrderLineItems.length > 0);
  if (open.length === 0) return 0;
  await graphql(
    `mutation FulfillProtection($fulfillment: FulfillmentInput!) {
      fulfillmentCreate(fulfillment: $fulfillment) { fulfillment { id status } userErrors { field message } }
    }`,
    { fulfillment: { lineItemsByFulfillmentOrder: open, notifyCustomer: false } },
  );
  return open.reduce((sum: number, group: any) => sum + group.fulfillmentOrderLineItems.reduce((n: number, item: any) => n + item.quantity, 0), 0);
}
