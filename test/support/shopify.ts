// Shopify, faked from its documented shapes — the only part of the product's world that cannot run here:
// webhook requests signed exactly as Shopify signs them (base64 HMAC-SHA256 of the raw body with the app's secret,
// in X-Shopify-Hmac-Sha256, plus the X-Shopify-* headers), orders/create-style payloads, and a fake Admin GraphQL
// API on loopback that answers the operations the app sends (and OAuth token exchange) and records them.
import assert from "node:assert/strict";
import { createHmac, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { ShopifyOrder } from "../../app/shopify/webhooks/shopify-order.ts";
import type { ShopifyRefund } from "../../app/shopify/webhooks/shopify-refund.ts";
import type { ShopifyShop } from "../../app/shopify/webhooks/app-uninstalled.ts";
import type { AppScopesUpdate } from "../../app/shopify/webhooks/app-scopes-update.ts";
import type { CustomersDataRequest, CustomersRedact, ShopRedact } from "../../app/shopify/webhooks/privacy-payloads.ts";
import type {
  ProtectionProductResult,
  ProtectionProductVariables,
} from "../../app/shopify/admin/protection-product.ts";
import type { ProductSetInput, ProtectionProductSetResult } from "../../app/shopify/admin/protection-product-set.ts";
import type { PublishProtectionVariables } from "../../app/shopify/admin/publish-protection.ts";
import type { PublicationsResult } from "../../app/shopify/admin/publications.ts";
import type { OwnersResult } from "../../app/shopify/admin/owners.ts";
import type { MetafieldsSetInput, StorefrontConfigResult } from "../../app/shopify/admin/storefront-config.ts";
import type {
  FulfillmentOrders,
  ProtectionFulfillmentOrdersResult,
} from "../../app/shopify/admin/protection-fulfillment-orders.ts";
import type { FulfillmentOrderLines, FulfillProtectionResult } from "../../app/shopify/admin/fulfill-protection.ts";
import type { OrderInput, ProtectionReferenceResult } from "../../app/shopify/admin/protection-reference.ts";
import type {
  MoneyV2,
  ProtectionRefundOrderResult,
  RefundOrderTransaction,
} from "../../app/shopify/admin/protection-refund-order.ts";
import type { RefundInput, RefundProtectionFeeResult } from "../../app/shopify/admin/refund-protection-fee.ts";
import type { OrderProtectionChoiceResult } from "../../app/shopify/admin/order-protection-choice.ts";
import type { OrderRiskResult } from "../../app/shopify/admin/order-risk.ts";
import { CHOICE_METAFIELD, minorDigits } from "@purchase-protection/contract";
import type { ClaimPayoutOrderResult, MailingAddress } from "../../app/shopify/admin/claim-payout-order.ts";
import type {
  ClaimReplacementDraft,
  ClaimReplacementDraftsResult,
} from "../../app/shopify/admin/claim-replacement-drafts.ts";
import type {
  CreateClaimReplacementResult,
  DraftOrderInput,
} from "../../app/shopify/admin/create-claim-replacement.ts";
import type { CompleteClaimReplacementResult } from "../../app/shopify/admin/complete-claim-replacement.ts";
import type { CartGuardValidationsResult } from "../../app/shopify/admin/cart-guard-validations.ts";
import type {
  CreateCartGuardValidationResult,
  ValidationCreateInput,
} from "../../app/shopify/admin/create-cart-guard-validation.ts";
import type { RefundClaimResult } from "../../app/shopify/admin/refund-claim.ts";
import type { ShipmentStatus, ShopifyFulfillment } from "../../app/shopify/webhooks/shopify-fulfillment.ts";
import type {
  FulfillmentEventStatus,
  ShopifyFulfillmentEvent,
} from "../../app/shopify/webhooks/shopify-fulfillment-event.ts";
import { fakeBilling } from "./shopify-billing.ts";
import type { OrderStateResult, OrderStateVariables } from "../../app/shopify/admin/order-protection-state.ts";
import type { FlowTriggerResult } from "../../app/shopify/admin/flow-trigger.ts";
import type { OrderMetafieldDefinitionsResult } from "../../app/shopify/admin/order-metafield-definitions.ts";
import type {
  CreateOrderMetafieldDefinitionResult,
  MetafieldDefinitionInput,
} from "../../app/shopify/admin/create-order-metafield-definition.ts";
import { flowTriggerErrors, flowTriggerExtensions } from "./flow-triggers.ts";

export const TEST_APP = {
  SHOPIFY_API_KEY: "test-api-key-0123456789abcdef",
  SHOPIFY_API_SECRET: "test-api-secret-shhh-0123456789",
  SHOPIFY_APP_URL: "https://protection-app.example.test",
  SCOPES:
    "read_orders,write_orders,read_products,write_products,read_publications,write_publications,read_merchant_managed_fulfillment_orders,write_merchant_managed_fulfillment_orders,read_draft_orders,write_draft_orders,read_fulfillments,read_validations,write_validations",
};
export const API_VERSION = "2026-10";

/** What Shopify puts in X-Shopify-Hmac-Sha256. */
export const shopifyHmac = (rawBody: string, secret = TEST_APP.SHOPIFY_API_SECRET) =>
  createHmac("sha256", secret).update(rawBody, "utf8").digest("base64");

export interface WebhookDelivery {
  topic: string;
  shop: string;
  payload: unknown;
  /** Shopify keeps the id across retries of one delivery. */
  webhookId?: string;
  eventId?: string;
  secret?: string;
}

/** The headers Shopify sends with a webhook whose body is `rawBody`. */
export function webhookHeaders(delivery: Omit<WebhookDelivery, "payload">, rawBody: string): Record<string, string> {
  return {
    "Content-Type": "application/json",
    "X-Shopify-Topic": delivery.topic,
    "X-Shopify-Hmac-Sha256": shopifyHmac(rawBody, delivery.secret),
    "X-Shopify-Shop-Domain": delivery.shop,
    "X-Shopify-API-Version": API_VERSION,
    "X-Shopify-Webhook-Id": delivery.webhookId ?? randomUUID(),
    "X-Shopify-Event-Id": delivery.eventId ?? randomUUID(),
    "X-Shopify-Triggered-At": new Date().toISOString(),
  };
}

/** A webhook request as Shopify sends it to `${SHOPIFY_APP_URL}/webhooks/<topic>`. */
export function webhookRequest(delivery: WebhookDelivery): Request {
  const rawBody = JSON.stringify(delivery.payload);
  return new Request(`${TEST_APP.SHOPIFY_APP_URL}/webhooks/${delivery.topic}`, {
    method: "POST",
    headers: webhookHeaders(delivery, rawBody),
    body: rawBody,
  });
}

let nextId = 5_000_000_000;
export const shopifyId = () => nextId++;

export interface OrderLine {
  productId: number | string;
  variantId?: number | string;
  /** The variant's SKU (the protection product's: PROTECTION_SKU); none by default, as many shops leave it. */
  sku?: string;
  title?: string;
  price: string;
  quantity?: number;
}

/** An orders/create (and orders/cancelled) payload with the fields of Shopify's documented example that we read. */
export function orderPayload(input: {
  id?: number;
  currency?: string;
  lines: OrderLine[];
  attributes?: Record<string, string>;
  email?: string;
  shipping?: string;
  /** Shopify's source_name: "web" (the online store's checkout, the default), "shopify_draft_order", "pos", … */
  sourceName?: string;
  /** A B2B order's purchasing company and location. */
  company?: { id: number; location_id: number };
  /**
   * A Shopify Markets order: the buyer's currency and the rate Shopify converted the order at (shop units per unit of
   * it). Then the lines' prices and `shipping` are the buyer's, and each shop amount is converted from its buyer's
   * amount and rounded to the shop currency's decimals, as in Shopify's price sets.
   */
  presentment?: { currency: string; rate: number };
}) {
  const id = input.id ?? shopifyId();
  const currency = input.currency ?? "USD";
  const buyerCurrency = input.presentment?.currency ?? currency;
  const subtotal = input.lines.reduce((sum, line) => sum + Number(line.price) * (line.quantity ?? 1), 0);
  const shipping = Number(input.shipping ?? "5.00");
  const decimal = (amount: number, code: string) => amount.toFixed(minorDigits(code));
  const shopAmount = (amount: number) => decimal(amount * (input.presentment?.rate ?? 1), currency);
  const money = (amount: number) => ({
    shop_money: { amount: shopAmount(amount), currency_code: currency },
    presentment_money: { amount: decimal(amount, buyerCurrency), currency_code: buyerCurrency },
  });
  const order = {
    id,
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    name: `#${1000 + (id % 1000)}`,
    email: input.email ?? "buyer@example.com",
    contact_email: input.email ?? "buyer@example.com",
    created_at: new Date().toISOString(),
    currency,
    presentment_currency: buyerCurrency,
    financial_status: "paid",
    subtotal_price: shopAmount(subtotal),
    subtotal_price_set: money(subtotal),
    total_price: shopAmount(subtotal + shipping),
    total_price_set: money(subtotal + shipping),
    total_tax: "0.00",
    test: true,
    note: null,
    note_attributes: Object.entries(input.attributes ?? {}).map(([name, value]) => ({ name, value })),
    source_name: input.sourceName ?? "web",
    company: input.company ?? null,
    line_items: input.lines.map((line) => ({
      id: shopifyId(),
      admin_graphql_api_id: `gid://shopify/LineItem/${nextId}`,
      product_id: Number(line.productId),
      variant_id: Number(line.variantId ?? shopifyId()),
      sku: line.sku ?? null,
      title: line.title ?? "Item",
      price: shopAmount(Number(line.price)),
      price_set: money(Number(line.price)),
      quantity: line.quantity ?? 1,
      requires_shipping: true,
      taxable: true,
    })),
    customer: { id: 7_000_001, email: input.email ?? "buyer@example.com", first_name: "Ada", last_name: "Buyer" },
    shipping_address: {
      first_name: "Ada",
      last_name: "Buyer",
      company: null,
      address1: "1 Harbour Road",
      address2: null,
      city: "Portland",
      province_code: "OR",
      country_code: "US",
      zip: "97201",
      phone: null,
    },
  };
  // Checked on the value, not the literal: Shopify sends more fields than the app's type names.
  return order satisfies ShopifyOrder;
}

/** A refunds/create payload: one successful refund transaction of `amount`. */
export function refundPayload(input: {
  orderId: number;
  amount: string;
  id?: number;
  currency?: string;
  note?: string;
}) {
  const refund = {
    id: input.id ?? shopifyId(),
    order_id: input.orderId,
    created_at: new Date().toISOString(),
    note: input.note ?? null,
    restock: false,
    refund_line_items: [],
    transactions: [
      {
        id: shopifyId(),
        order_id: input.orderId,
        kind: "refund" as const,
        gateway: "bogus",
        status: "success" as const,
        amount: input.amount,
        currency: input.currency ?? "USD",
      },
    ],
  };
  return refund satisfies ShopifyRefund;
}

/** A fulfillments/create or fulfillments/update payload: one fulfilment of the order, its shipment `shipmentStatus`. */
export function fulfillmentPayload(input: {
  orderId: number;
  shipmentStatus: ShipmentStatus | null;
  updatedAt?: string;
  id?: number;
}) {
  const fulfillment = {
    id: input.id ?? shopifyId(),
    order_id: input.orderId,
    admin_graphql_api_id: `gid://shopify/Fulfillment/${nextId}`,
    name: "#1001.1",
    status: "success" as const,
    shipment_status: input.shipmentStatus,
    created_at: new Date(Date.now() - 3 * 24 * 60 * 60 * 1000).toISOString(),
    updated_at: input.updatedAt ?? new Date().toISOString(),
    service: "manual",
    location_id: 905_684_977,
    tracking_company: "UPS",
    tracking_number: "1Z2345",
    tracking_numbers: ["1Z2345"],
    tracking_url: "https://www.ups.com/WebTracking?loc=en_US&requester=ST&trackNums=1Z2345",
    tracking_urls: ["https://www.ups.com/WebTracking?loc=en_US&requester=ST&trackNums=1Z2345"],
    line_items: [],
  };
  return fulfillment satisfies ShopifyFulfillment;
}

/** fulfillment_events/create: a carrier's scan of a fulfilment, as Shopify's REST FulfillmentEvent resource. */
export function fulfillmentEventPayload(input: {
  orderId: number;
  fulfillmentId: number;
  status: FulfillmentEventStatus;
  happenedAt?: string;
}) {
  const happenedAt = input.happenedAt ?? new Date().toISOString();
  const id = shopifyId();
  const event = {
    id,
    fulfillment_id: input.fulfillmentId,
    order_id: input.orderId,
    shop_id: 548_380_009,
    status: input.status,
    message: input.status === "out_for_delivery" ? "Out for delivery" : null,
    happened_at: happenedAt,
    city: "Portland",
    province: "Oregon",
    country: "United States",
    zip: "97201",
    address1: "1 Main St",
    latitude: 45.5152,
    longitude: -122.6784,
    estimated_delivery_at: null,
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
    admin_graphql_api_id: `gid://shopify/FulfillmentEvent/${id}`,
  };
  return event satisfies ShopifyFulfillmentEvent;
}

/** app/uninstalled: Shopify sends the shop (its Shop resource). */
export const appUninstalledPayload = (shop: string): ShopifyShop => ({ id: 7, domain: shop, myshopify_domain: shop });

export const scopesUpdatePayload = (current: string[]) =>
  ({
    id: 7,
    shop_id: 7,
    previous: TEST_APP.SCOPES.split(","),
    current,
    updated_at: new Date().toISOString(),
  }) satisfies AppScopesUpdate;

const privacyCustomer = (email: string) => ({ id: 7_000_001, email, phone: null });

export const dataRequestPayload = (shop: string, input: { email: string; orderIds: number[]; requestId?: number }) =>
  ({
    shop_id: 7,
    shop_domain: shop,
    orders_requested: input.orderIds,
    customer: privacyCustomer(input.email),
    data_request: { id: input.requestId ?? 99 },
  }) satisfies CustomersDataRequest;

export const customersRedactPayload = (shop: string, input: { email: string; orderIds: number[] }) =>
  ({
    shop_id: 7,
    shop_domain: shop,
    customer: privacyCustomer(input.email),
    orders_to_redact: input.orderIds,
  }) satisfies CustomersRedact;

export const shopRedactPayload = (shop: string) => ({ shop_id: 7, shop_domain: shop }) satisfies ShopRedact;

/** The variables of each operation the fake answers, as the app's operations declare them. */
export interface AdminVariables {
  ProtectionProduct: ProtectionProductVariables;
  ProtectionProductSet: { input: ProductSetInput };
  PublishProtection: PublishProtectionVariables;
  StorefrontConfig: { metafields: MetafieldsSetInput[] };
  ProtectionFulfillmentOrders: { id: string };
  FulfillProtection: { fulfillment: { lineItemsByFulfillmentOrder: FulfillmentOrderLines[]; notifyCustomer: boolean } };
  ProtectionReference: { input: OrderInput; fulfilling: boolean } & OrderStateVariables;
  ProtectionRefundOrder: { id: string };
  RefundProtectionFee: { input: RefundInput };
  OrderProtectionChoice: { id: string };
  OrderRisk: { id: string };
  ClaimPayoutOrder: { id: string };
  RefundClaim: { input: RefundInput };
  ClaimReplacementDrafts: { query: string };
  CreateClaimReplacement: { input: DraftOrderInput };
  CompleteClaimReplacement: { id: string };
  CreateCartGuardValidation: { validation: ValidationCreateInput };
  OrderProtectionState: OrderStateVariables;
  FlowTrigger: { handle: string; payload: Record<string, unknown> };
  OrderMetafieldDefinitions: { namespace: string };
  CreateOrderMetafieldDefinition: { definition: MetafieldDefinitionInput };
}

/** The app's id as `currentAppInstallation { app { id } }` answers it. */
export const FAKE_APP_ID = "gid://shopify/App/4242";
/** Shopify activates at most this many validations on a shop. */
const MAX_ACTIVE_VALIDATIONS = 25;

export interface FakeValidation {
  id: string;
  shop: string;
  functionHandle: string;
  appId: string;
  enabled: boolean;
  blockOnFailure: boolean;
  title: string;
}

/** An order as the fake holds it once paid: what both the fee refund's and the claim payout's reads select. */
interface FakeOrder {
  id: string;
  currencyCode: string;
  presentmentCurrencyCode: string;
  email: string | null;
  shippingAddress: MailingAddress | null;
  /** What the buyer has not paid: 0.00 once paid, an edit's balance when a test adds one. */
  totalOutstandingSet: { presentmentMoney: MoneyV2 };
  lineItems: {
    nodes: {
      id: string;
      quantity: number;
      currentQuantity: number;
      originalUnitPriceSet: { presentmentMoney: MoneyV2 };
      product: { id: string } | null;
      variant: { id: string } | null;
    }[];
  };
  transactions: RefundOrderTransaction[];
  refunds: {
    id: string;
    note: string | null;
    totalRefundedSet: { presentmentMoney: { amount: string; currencyCode: string } };
    refundLineItems: { nodes: { quantity: number; lineItem: { id: string } }[] };
  }[];
}

export interface AdminCall {
  shop: string;
  operationName: string;
  query: string;
  /** As the app sent them: read them through `variablesOf`. */
  variables: Record<string, unknown>;
  accessToken: string | null;
}

/** A call's variables in the shape its operation declares (the app's operation types are what sent them). */
export function variablesOf<Name extends keyof AdminVariables>(
  call: AdminCall,
  operationName: Name,
): AdminVariables[Name] {
  assert.equal(call.operationName, operationName);
  return call.variables as unknown as AdminVariables[Name];
}

/** The body of a token exchange request (OAuth 2.0 token exchange, as Shopify takes it). */
interface TokenExchangeRequest {
  client_id?: string;
  client_secret?: string;
  subject_token?: string;
  subject_token_type?: string;
  requested_token_type?: string;
  /** "1": an expiring offline token, with a refresh token. */
  expiring?: string;
  /** "refresh_token": a refresh of an expiring offline token, by its refresh token. */
  grant_type?: string;
  refresh_token?: string;
}

/**
 * The Admin GraphQL API on loopback. It answers the app's named operations with Shopify's documented response
 * shapes and keeps state between them (the product, its variants, metafields, order attributes).
 * `failNext(operationName, status)` makes the next call of an operation fail, as Shopify's 5xx or throttles do.
 */
export async function startFakeAdminApi() {
  const calls: AdminCall[] = [];
  const tokenExchanges: { shop: string; body: TokenExchangeRequest }[] = [];
  const tokenRefreshes: { shop: string; refreshToken: string }[] = [];
  /** The refresh tokens Shopify would take: those it issued and not yet used (each refresh replaces its own). */
  const refreshTokens = new Set<string>();
  const failures = new Map<string, number>();
  const products = new Map<string, { id: string; handle: string; variants: { id: string; price: string }[] }>();
  const metafields: { ownerId: string; namespace: string; key: string; type: string; value: string }[] = [];
  const orders = new Map<string, Omit<OrderInput, "id">>();
  /** Orders as their payment and refunds stand (refundCreate and the order read), by order gid. */
  const paidOrders = new Map<string, FakeOrder>();
  /** Every refund refundCreate made: the input it took and the refund's gid. */
  const refunds: { id: string; input: RefundInput }[] = [];
  const refundRejections: string[] = [];
  /** Draft orders draftOrderCreate made (and draftOrderComplete completed), with the input each took. */
  const draftOrders: (ClaimReplacementDraft & { input: DraftOrderInput })[] = [];
  /** Each shop's cart and checkout validations, with the Function's handle and the app it belongs to. */
  const validations: FakeValidation[] = [];
  const lostResponses = new Set<string>();
  /** Operations whose next call is refused as an app without the scope is (GraphQL ACCESS_DENIED). */
  const deniedNext = new Set<string>();
  /** Each order's risk summary (Order.risk) by order gid; an order not set here is a low risk Shopify accepts. */
  const orderRisks = new Map<string, NonNullable<OrderRiskResult["order"]>["risk"]>();
  /** Fulfillment orders by order gid: one OPEN fulfillment order per order, its line items with what remains. */
  const fulfillmentOrders = new Map<
    string,
    { id: string; lineItems: { id: string; productGid: string; remainingQuantity: number }[] }
  >();
  const fulfillments: {
    fulfillmentOrderId: string;
    lineItems: { id: string; quantity: number }[];
    notifyCustomer: boolean;
  }[] = [];
  /** Each order's tags (tagsAdd, tagsRemove), by order gid. */
  const orderTags = new Map<string, Set<string>>();
  /** The workflows flowTriggerReceive started: the trigger's handle and the payload Flow took. */
  const flowTriggers: { handle: string; payload: Record<string, unknown> }[] = [];
  const triggerExtensions = flowTriggerExtensions();
  const metafieldDefinitions: MetafieldDefinitionInput[] = [];
  let gidCounter = 9_000_000;
  const gid = (type: string) => `gid://shopify/${type}/${gidCounter++}`;
  const billing = fakeBilling(gid);

  /** The order's fulfillment orders as a selection of the order reads them (a test adds one: addFulfillmentOrder). */
  function fulfillmentOrdersOf(orderGid: string): FulfillmentOrders {
    const fulfillmentOrder = fulfillmentOrders.get(orderGid);
    const nodes = fulfillmentOrder
      ? [
          {
            id: fulfillmentOrder.id,
            status: fulfillmentOrder.lineItems.some((item) => item.remainingQuantity > 0)
              ? ("OPEN" as const)
              : ("CLOSED" as const),
            lineItems: {
              nodes: fulfillmentOrder.lineItems.map((item) => ({
                id: item.id,
                remainingQuantity: item.remainingQuantity,
                lineItem: { product: { id: item.productGid } },
              })),
            },
          },
        ]
      : [];
    return { fulfillmentOrders: { nodes } };
  }

  function answer(call: AdminCall): unknown {
    switch (call.operationName) {
      case "ProtectionProduct": {
        const v = variablesOf(call, "ProtectionProduct");
        const product = [...products.values()].find((candidate) => candidate.handle === v.handle);
        return {
          shop: { currencyCode: "USD" },
          productByIdentifier: product ? { id: product.id } : null,
        } satisfies ProtectionProductResult;
      }
      case "ProtectionProductSet": {
        const v = variablesOf(call, "ProtectionProductSet");
        const id = v.input.id ?? gid("Product");
        const previous = products.get(id);
        const variants = v.input.variants.map((variant, index) => ({
          id: previous?.variants[index]?.id ?? gid("ProductVariant"),
          price: variant.price,
        }));
        products.set(id, { id, handle: v.input.handle, variants });
        return {
          productSet: { product: { id, variants: { nodes: variants } }, userErrors: [] },
        } satisfies ProtectionProductSetResult;
      }
      case "Publications":
        return {
          publications: {
            nodes: [
              { id: "gid://shopify/Publication/1", catalog: { title: "Online Store" } },
              { id: "gid://shopify/Publication/2", catalog: { title: "Point of Sale" } },
            ],
          },
        } satisfies PublicationsResult;
      case "PublishProtection":
        return { publishablePublish: { userErrors: [] } };
      case "Owners":
        return {
          currentAppInstallation: { id: "gid://shopify/AppInstallation/42" },
          shop: { id: "gid://shopify/Shop/7" },
        } satisfies OwnersResult;
      case "StorefrontConfig":
        return setMetafields(variablesOf(call, "StorefrontConfig").metafields) satisfies StorefrontConfigResult;
      case "OrderProtectionState":
        return setOrderState(variablesOf(call, "OrderProtectionState")) satisfies OrderStateResult;
      case "FlowTrigger": {
        const { handle, payload } = variablesOf(call, "FlowTrigger");
        const errors = flowTriggerErrors(triggerExtensions, handle, payload);
        if (errors.length === 0) flowTriggers.push({ handle, payload });
        return {
          flowTriggerReceive: { userErrors: errors.map((message) => ({ field: ["payload"], message })) },
        } satisfies FlowTriggerResult;
      }
      case "OrderMetafieldDefinitions": {
        const { namespace } = variablesOf(call, "OrderMetafieldDefinitions");
        const nodes = metafieldDefinitions.filter((definition) => definition.namespace === namespace);
        return {
          metafieldDefinitions: { nodes: nodes.map(({ key }) => ({ key })) },
        } satisfies OrderMetafieldDefinitionsResult;
      }
      case "CreateOrderMetafieldDefinition": {
        const { definition } = variablesOf(call, "CreateOrderMetafieldDefinition");
        const taken = metafieldDefinitions.some(
          (existing) => existing.namespace === definition.namespace && existing.key === definition.key,
        );
        if (taken)
          return {
            metafieldDefinitionCreate: {
              createdDefinition: null,
              userErrors: [{ field: ["definition", "key"], message: "Key is in use", code: "TAKEN" }],
            },
          } satisfies CreateOrderMetafieldDefinitionResult;
        metafieldDefinitions.push(definition);
        return {
          metafieldDefinitionCreate: { createdDefinition: { id: gid("MetafieldDefinition") }, userErrors: [] },
        } satisfies CreateOrderMetafieldDefinitionResult;
      }
      case "ProtectionFulfillmentOrders":
        return {
          order: fulfillmentOrdersOf(variablesOf(call, "ProtectionFulfillmentOrders").id),
        } satisfies ProtectionFulfillmentOrdersResult;
      case "FulfillProtection": {
        const v = variablesOf(call, "FulfillProtection");
        for (const group of v.fulfillment.lineItemsByFulfillmentOrder) {
          const fulfillmentOrder = [...fulfillmentOrders.values()].find(
            (candidate) => candidate.id === group.fulfillmentOrderId,
          )!;
          for (const { id, quantity } of group.fulfillmentOrderLineItems)
            fulfillmentOrder.lineItems.find((item) => item.id === id)!.remainingQuantity -= quantity;
          fulfillments.push({
            fulfillmentOrderId: group.fulfillmentOrderId,
            lineItems: group.fulfillmentOrderLineItems,
            notifyCustomer: v.fulfillment.notifyCustomer,
          });
        }
        return {
          fulfillmentCreate: { fulfillment: { id: gid("Fulfillment"), status: "SUCCESS" }, userErrors: [] },
        } satisfies FulfillProtectionResult;
      }
      case "ProtectionRefundOrder":
        return {
          order: paidOrders.get(variablesOf(call, "ProtectionRefundOrder").id) ?? null,
        } satisfies ProtectionRefundOrderResult;
      case "RefundProtectionFee":
        return createRefund(variablesOf(call, "RefundProtectionFee").input);
      case "OrderProtectionChoice": {
        // The checkout block's cart metafield as Shopify copies it onto the order (its definition is cart-to-order
        // copyable): a test puts it in `metafields` under the order's gid.
        const { id } = variablesOf(call, "OrderProtectionChoice");
        const choice = metafields.find(
          (metafield) =>
            metafield.ownerId === id &&
            metafield.namespace === CHOICE_METAFIELD.namespace &&
            metafield.key === CHOICE_METAFIELD.key,
        );
        return { order: { metafield: choice ? { value: choice.value } : null } } satisfies OrderProtectionChoiceResult;
      }
      case "OrderRisk": {
        const { id } = variablesOf(call, "OrderRisk");
        const risk = orderRisks.get(id) ?? {
          recommendation: "ACCEPT",
          assessments: [{ riskLevel: "LOW", facts: [] }],
        };
        return { order: { risk } } satisfies OrderRiskResult;
      }
      case "ClaimPayoutOrder":
        return {
          order: paidOrders.get(variablesOf(call, "ClaimPayoutOrder").id) ?? null,
        } satisfies ClaimPayoutOrderResult;
      case "RefundClaim":
        return createRefund(variablesOf(call, "RefundClaim").input) satisfies RefundClaimResult;
      case "ClaimReplacementDrafts": {
        const tag = /^tag:(\S+)$/.exec(variablesOf(call, "ClaimReplacementDrafts").query)?.[1];
        return {
          draftOrders: { nodes: draftOrders.filter((draft) => tag && draft.tags.includes(tag)).map(draftNode) },
        } satisfies ClaimReplacementDraftsResult;
      }
      case "CreateClaimReplacement":
        return createDraftOrder(variablesOf(call, "CreateClaimReplacement").input);
      case "CompleteClaimReplacement":
        return completeDraftOrder(variablesOf(call, "CompleteClaimReplacement").id);
      case "ProtectionReference": {
        const { input, fulfilling, ...state } = variablesOf(call, "ProtectionReference");
        const { id, ...order } = input;
        orders.set(id, order);
        return {
          orderUpdate: { order: { id, ...(fulfilling ? fulfillmentOrdersOf(id) : {}) }, userErrors: [] },
          ...setOrderState(state),
        } satisfies ProtectionReferenceResult;
      }
      case "ActiveSubscriptions":
      case "AppSubscriptionCreate":
      case "AppUsageRecordCreate":
      case "AppSubscriptionLineItemUpdate":
        return billing.answer(call);
      case "CartGuardValidations":
        return {
          currentAppInstallation: { app: { id: FAKE_APP_ID } },
          validations: {
            nodes: validations
              .filter((validation) => validation.shop === call.shop)
              .map(({ id, enabled, functionHandle, appId }) => ({
                id,
                enabled,
                shopifyFunction: { handle: functionHandle, app: { id: appId } },
              })),
          },
        } satisfies CartGuardValidationsResult;
      case "CreateCartGuardValidation": {
        const { validation } = variablesOf(call, "CreateCartGuardValidation");
        const active = validations.filter((candidate) => candidate.shop === call.shop && candidate.enabled);
        if (validation.enable && active.length >= MAX_ACTIVE_VALIDATIONS)
          return {
            validationCreate: {
              validation: null,
              userErrors: [
                {
                  field: ["validation", "enable"],
                  message: `Cannot have more than ${MAX_ACTIVE_VALIDATIONS} active validation functions.`,
                  code: "MAX_VALIDATIONS_ACTIVATED",
                },
              ],
            },
          } satisfies CreateCartGuardValidationResult;
        const id = gid("Validation");
        validations.push({
          id,
          shop: call.shop,
          functionHandle: validation.functionHandle,
          appId: FAKE_APP_ID,
          enabled: validation.enable,
          blockOnFailure: validation.blockOnFailure,
          title: validation.title,
        });
        return { validationCreate: { validation: { id }, userErrors: [] } } satisfies CreateCartGuardValidationResult;
      }
      default:
        return undefined;
    }
  }

  /** The state's fields in the order the mutation runs them: metafieldsSet, then tagsAdd and tagsRemove if included. */
  function setOrderState({ id, metafields, addTags, adding, removeTags, removing }: OrderStateVariables) {
    const result: OrderStateResult = setMetafields(metafields);
    if (adding) {
      const current = orderTags.get(id) ?? new Set<string>();
      for (const tag of addTags) current.add(tag);
      orderTags.set(id, current);
      result.tagsAdd = { node: { id }, userErrors: [] };
    }
    if (removing) {
      for (const tag of removeTags) orderTags.get(id)?.delete(tag);
      result.tagsRemove = { node: { id }, userErrors: [] };
    }
    return result;
  }

  /**
   * The owner, namespace and key of each metafield in `metafields`, so that a new one is not looked for among all
   * the others (a benchmark's thousands of orders made that scan a share of the app process's CPU); made again when
   * a test changed the list itself.
   */
  const metafieldKeys = { keys: new Set<string>(), of: metafields.length };
  const metafieldKey = (m: { ownerId: string; namespace: string; key: string }) =>
    `${m.ownerId}\u0000${m.namespace}\u0000${m.key}`;

  /** metafieldsSet: each metafield replaced whole (by owner, namespace and key). */
  function setMetafields(input: MetafieldsSetInput[]) {
    if (metafieldKeys.of !== metafields.length)
      Object.assign(metafieldKeys, { keys: new Set(metafields.map(metafieldKey)), of: metafields.length });
    for (const metafield of input) {
      const key = metafieldKey(metafield);
      if (metafieldKeys.keys.has(key))
        metafields.splice(
          metafields.findIndex((m) => metafieldKey(m) === key),
          1,
        );
      metafields.push(metafield);
      metafieldKeys.keys.add(key);
    }
    metafieldKeys.of = metafields.length;
    return { metafieldsSet: { metafields: input.map(() => ({ id: gid("Metafield") })), userErrors: [] } };
  }

  /**
   * refundCreate as Shopify checks it: the order exists, the refunded lines are its own and not refunded already,
   * each transaction is a REFUND of the order's successful SALE or CAPTURE on that transaction's gateway and within
   * what it took less what was refunded from it. A refusal is a userError (HTTP 200), as Shopify answers.
   */
  function createRefund(input: RefundInput): RefundProtectionFeeResult {
    const refused = (field: string[], message: string): RefundProtectionFeeResult => ({
      refundCreate: { refund: null, userErrors: [{ field, message }] },
    });
    const rejection = refundRejections.shift();
    if (rejection) return refused(["input"], rejection);
    const order = paidOrders.get(input.orderId);
    if (!order) return refused(["input", "orderId"], "Order does not exist");
    if (input.currency !== undefined && input.currency !== order.presentmentCurrencyCode)
      return refused(["input", "currency"], "Currency must be the presentment currency of the order");
    for (const item of input.refundLineItems) {
      const line = order.lineItems.nodes.find((candidate) => candidate.id === item.lineItemId);
      if (!line) return refused(["input", "refundLineItems"], "Line item does not exist");
      const refunded = order.refunds
        .flatMap((refund) => refund.refundLineItems.nodes)
        .filter((refunded) => refunded.lineItem.id === line.id)
        .reduce((sum, refunded) => sum + refunded.quantity, 0);
      if (item.quantity < 1 || item.quantity > line.quantity - refunded)
        return refused(["input", "refundLineItems"], "Quantity cannot refund more items than were purchased");
    }
    const cents = (amount: string) => Math.round(Number(amount) * 100);
    for (const transaction of input.transactions) {
      const parent = order.transactions.find((candidate) => candidate.id === transaction.parentId);
      if (!parent || !["SALE", "CAPTURE"].includes(parent.kind) || parent.status !== "SUCCESS")
        return refused(["input", "transactions"], "Parent transaction must be a successful sale or capture");
      if (transaction.kind !== "REFUND" || transaction.gateway !== parent.gateway)
        return refused(["input", "transactions"], "Refund must be a REFUND on the parent transaction's gateway");
      const refundedFromParent = order.transactions
        .filter((candidate) => candidate.kind === "REFUND" && candidate.parentTransaction?.id === parent.id)
        .reduce((sum, candidate) => sum + cents(candidate.amountSet.presentmentMoney.amount), 0);
      if (cents(transaction.amount) > cents(parent.amountSet.presentmentMoney.amount) - refundedFromParent)
        return refused(["input", "transactions"], "Amount exceeds the amount that can be refunded");
    }
    const id = gid("Refund");
    const total = input.transactions.reduce((sum, transaction) => sum + cents(transaction.amount), 0);
    const totalRefunded = { amount: (total / 100).toFixed(2), currencyCode: order.presentmentCurrencyCode };
    order.refunds.push({
      id,
      note: input.note ?? null,
      totalRefundedSet: { presentmentMoney: totalRefunded },
      refundLineItems: {
        nodes: input.refundLineItems.map((item) => ({ quantity: item.quantity, lineItem: { id: item.lineItemId } })),
      },
    });
    for (const item of input.refundLineItems)
      order.lineItems.nodes.find((line) => line.id === item.lineItemId)!.currentQuantity -= item.quantity;
    for (const transaction of input.transactions) {
      const money = { amount: transaction.amount, currencyCode: order.presentmentCurrencyCode };
      order.transactions.push({
        id: gid("OrderTransaction"),
        kind: "REFUND",
        status: "SUCCESS",
        gateway: transaction.gateway,
        amountSet: { shopMoney: money, presentmentMoney: money },
        parentTransaction: { id: transaction.parentId },
      });
    }
    refunds.push({ id, input });
    return { refundCreate: { refund: { id, totalRefundedSet: { presentmentMoney: totalRefunded } }, userErrors: [] } };
  }

  const draftNode = ({ id, status, tags, order }: ClaimReplacementDraft): ClaimReplacementDraft => ({
    id,
    status,
    tags,
    order,
  });

  /** draftOrderCreate as Shopify checks it: at least one line, each of a variant some paid order holds. */
  function createDraftOrder(input: DraftOrderInput): CreateClaimReplacementResult {
    const variants = new Set(
      [...paidOrders.values()].flatMap((order) => order.lineItems.nodes.map((line) => line.variant?.id)),
    );
    const refused = (field: string[], message: string): CreateClaimReplacementResult => ({
      draftOrderCreate: { draftOrder: null, userErrors: [{ field, message }] },
    });
    if (input.lineItems.length === 0) return refused(["input", "lineItems"], "Add at least 1 product");
    if (input.lineItems.some((line) => !variants.has(line.variantId) || line.quantity < 1))
      return refused(["input", "lineItems"], "Product variant is invalid");
    const draft = { id: gid("DraftOrder"), status: "OPEN" as const, tags: input.tags, order: null, input };
    draftOrders.push(draft);
    return { draftOrderCreate: { draftOrder: draftNode(draft), userErrors: [] } };
  }

  /** draftOrderComplete: an open draft becomes an order; a completed one is refused, as Shopify does. */
  function completeDraftOrder(id: string): CompleteClaimReplacementResult {
    const draft = draftOrders.find((candidate) => candidate.id === id);
    if (!draft || draft.status === "COMPLETED")
      return {
        draftOrderComplete: {
          draftOrder: null,
          userErrors: [{ field: ["id"], message: draft ? "Draft order has been paid" : "Draft order does not exist" }],
        },
      };
    Object.assign(draft, { status: "COMPLETED", order: { id: gid("Order") } });
    return { draftOrderComplete: { draftOrder: draftNode(draft), userErrors: [] } };
  }

  /** An expiring offline token's answer: the access token for an hour, a new refresh token for 90 days. */
  function expiringToken(accessToken: string, refreshToken: string) {
    refreshTokens.add(refreshToken);
    return {
      access_token: accessToken,
      expires_in: 3_600,
      refresh_token: refreshToken,
      refresh_token_expires_in: 7_776_000,
    };
  }

  /**
   * The token endpoint. Token exchange (the new embedded auth strategy): Shopify trades a valid session token for an
   * offline token. A refresh (grant_type refresh_token): a refresh token it issued for a new pair, the used one retired.
   */
  function exchangeToken(shop: string, body: TokenExchangeRequest, response: http.ServerResponse) {
    const refused = (error: string) =>
      response.writeHead(400, { "Content-Type": "application/json" }).end(JSON.stringify({ error }));
    const client = body.client_id === TEST_APP.SHOPIFY_API_KEY && body.client_secret === TEST_APP.SHOPIFY_API_SECRET;
    if (body.grant_type === "refresh_token") {
      tokenRefreshes.push({ shop, refreshToken: body.refresh_token ?? "" });
      if (!client) return refused("invalid_client");
      if (!refreshTokens.delete(body.refresh_token ?? "")) return refused("invalid_grant");
      const n = tokenRefreshes.length;
      return response
        .writeHead(200, { "Content-Type": "application/json" })
        .end(
          JSON.stringify({ ...expiringToken(`shpat_refreshed_${n}`, `shprt_refreshed_${n}`), scope: TEST_APP.SCOPES }),
        );
    }
    tokenExchanges.push({ shop, body });
    if (!client || !body.subject_token) return refused("invalid_client");
    const n = tokenExchanges.length;
    response.writeHead(200, { "Content-Type": "application/json" }).end(
      JSON.stringify({
        ...(body.expiring === "1"
          ? expiringToken(`shpat_exchanged_${n}`, `shprt_${n}`)
          : { access_token: `shpat_exchanged_${n}` }),
        scope: TEST_APP.SCOPES,
      }),
    );
  }

  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      const exchangeFor = /^\/shops\/([^/]+)\/admin\/oauth\/access_token$/.exec(request.url ?? "")?.[1];
      if (exchangeFor) return exchangeToken(exchangeFor, JSON.parse(body), response);
      const shop = /^\/shops\/([^/]+)\/admin\/api\/[^/]+\/graphql\.json$/.exec(request.url ?? "")?.[1];
      const parsed = JSON.parse(body || "{}");
      const operationName = /(?:query|mutation)\s+(\w+)/.exec(parsed.query ?? "")?.[1] ?? "";
      const call: AdminCall = {
        shop: shop ?? "",
        operationName,
        query: parsed.query,
        variables: parsed.variables ?? {},
        accessToken: (request.headers["x-shopify-access-token"] as string) ?? null,
      };
      calls.push(call);
      const failStatus = failures.get(operationName);
      if (failStatus) {
        failures.delete(operationName);
        response
          .writeHead(failStatus, { "Content-Type": "application/json" })
          .end(JSON.stringify({ errors: "Internal error" }));
        return;
      }
      if (deniedNext.delete(operationName)) {
        // As Shopify answers a field the app's scopes do not cover.
        response.writeHead(200, { "Content-Type": "application/json" }).end(
          JSON.stringify({
            errors: [{ message: "Access denied for risk field.", extensions: { code: "ACCESS_DENIED" } }],
          }),
        );
        return;
      }
      const data = shop ? answer(call) : undefined;
      if (lostResponses.delete(operationName)) return void request.socket.destroy(); // done, but no answer arrives
      if (data === undefined) {
        response
          .writeHead(200, { "Content-Type": "application/json" })
          .end(JSON.stringify({ errors: [{ message: `unknown operation '${operationName}'` }] }));
        return;
      }
      response
        .writeHead(200, { "Content-Type": "application/json" })
        .end(JSON.stringify({ data, extensions: { cost: { requestedQueryCost: 10 } } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    calls,
    tokenExchanges,
    tokenRefreshes,
    refreshTokens,
    products,
    metafields,
    orders,
    orderTags,
    flowTriggers,
    metafieldDefinitions,
    fulfillments,
    /** Gives an order (as Shopify does on creation) one open fulfillment order holding its lines. */
    addFulfillmentOrder(order: {
      admin_graphql_api_id: string;
      line_items: { admin_graphql_api_id: string; product_id: number; quantity: number }[];
    }) {
      fulfillmentOrders.set(order.admin_graphql_api_id, {
        id: gid("FulfillmentOrder"),
        lineItems: order.line_items.map((line) => ({
          id: gid("FulfillmentOrderLineItem"),
          productGid: `gid://shopify/Product/${line.product_id}`,
          remainingQuantity: line.quantity,
        })),
      });
    },
    refunds,
    draftOrders,
    /** Shopify's Billing API: subscriptions, usage records, approvals (test/support/shopify-billing.ts). */
    billing,
    /** Cart and checkout validations: what validationCreate made, and any a test adds (another app's, one switched off). */
    validations,
    /** The order as Shopify holds it once paid (its transactions and refunds), after addPaidOrder. */
    paidOrder: (gid: string) => paidOrders.get(gid),
    /**
     * Makes the order payable and refundable as Shopify holds it once paid: its lines, and one successful SALE of its
     * total on `gateway`.
     */
    addPaidOrder(
      order: {
        admin_graphql_api_id: string;
        currency: string;
        /** A Shopify Markets order's currency and totals: the sale is in the buyer's currency. */
        presentment_currency?: string;
        total_price: string;
        total_price_set?: { shop_money: { amount: string }; presentment_money: { amount: string } };
        email?: string | null;
        shipping_address?: {
          first_name: string | null;
          last_name: string | null;
          company: string | null;
          address1: string | null;
          address2: string | null;
          city: string | null;
          province_code: string | null;
          country_code: string | null;
          zip: string | null;
          phone: string | null;
        };
        line_items: {
          admin_graphql_api_id: string;
          product_id: number;
          variant_id?: number;
          quantity: number;
          price: string;
          price_set?: { presentment_money: { amount: string } };
        }[];
      },
      options: { gateway?: string; presentmentCurrency?: string } = {},
    ) {
      const presentment = options.presentmentCurrency ?? order.presentment_currency ?? order.currency;
      const total = {
        amount: order.total_price_set?.presentment_money.amount ?? order.total_price,
        currencyCode: presentment,
      };
      const shopTotal = {
        amount: order.total_price_set?.shop_money.amount ?? order.total_price,
        currencyCode: order.currency,
      };
      const sale: RefundOrderTransaction = {
        id: gid("OrderTransaction"),
        kind: "SALE",
        status: "SUCCESS",
        gateway: options.gateway ?? "bogus",
        amountSet: { shopMoney: shopTotal, presentmentMoney: total },
        parentTransaction: null,
      };
      const address = order.shipping_address;
      paidOrders.set(order.admin_graphql_api_id, {
        id: order.admin_graphql_api_id,
        currencyCode: order.currency,
        presentmentCurrencyCode: presentment,
        totalOutstandingSet: { presentmentMoney: { amount: "0.00", currencyCode: presentment } },
        email: order.email ?? null,
        shippingAddress: address
          ? {
              firstName: address.first_name,
              lastName: address.last_name,
              company: address.company,
              address1: address.address1,
              address2: address.address2,
              city: address.city,
              provinceCode: address.province_code,
              countryCodeV2: address.country_code,
              zip: address.zip,
              phone: address.phone,
            }
          : null,
        lineItems: {
          nodes: order.line_items.map((line) => ({
            id: line.admin_graphql_api_id,
            quantity: line.quantity,
            currentQuantity: line.quantity,
            originalUnitPriceSet: {
              presentmentMoney: {
                amount: line.price_set?.presentment_money.amount ?? line.price,
                currencyCode: presentment,
              },
            },
            product: { id: `gid://shopify/Product/${line.product_id}` },
            variant: line.variant_id === undefined ? null : { id: `gid://shopify/ProductVariant/${line.variant_id}` },
          })),
        },
        transactions: [sale],
        refunds: [],
      });
      return sale;
    },
    /** The next `count` refundCreate calls answer a userError with `message` (and refund nothing). */
    rejectRefunds(count: number, message: string) {
      refundRejections.push(...Array<string>(count).fill(message));
    },
    /** The next call of the operation is carried out, then its connection dropped: the caller never hears of it. */
    loseNextResponse(operationName: string) {
      lostResponses.add(operationName);
    },
    failNext(operationName: string, status = 500) {
      failures.set(operationName, status);
    },
    /** The next call of the operation is refused as one the app's scopes do not cover. */
    denyNext(operationName: string) {
      deniedNext.add(operationName);
    },
    orderRisks,
    /** Where a request the library addressed to https://<shop>/admin/… (API, token exchange) goes instead. */
    rewrite(url: string): string {
      const parsed = new URL(url);
      return `${origin}/shops/${parsed.host}${parsed.pathname}${parsed.search}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type FakeAdminApi = Awaited<ReturnType<typeof startFakeAdminApi>>;

/**
 * A session token as Shopify issues it to App Bridge (an HS256 JWT signed with the app's secret), which App Bridge's
 * fetch sends as `Authorization: Bearer <token>` and authenticate.admin verifies.
 */
export function sessionToken(
  shop: string,
  options: { secret?: string; apiKey?: string; nowSeconds?: number } = {},
): string {
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const payload = {
    iss: `https://${shop}/admin`,
    dest: `https://${shop}`,
    aud: options.apiKey ?? TEST_APP.SHOPIFY_API_KEY,
    sub: "42",
    exp: now + 60,
    nbf: now,
    iat: now,
    jti: randomUUID(),
    sid: randomUUID(),
  };
  const signed = `${encode({ alg: "HS256", typ: "JWT" })}.${encode(payload)}`;
  return `${signed}.${createHmac("sha256", options.secret ?? TEST_APP.SHOPIFY_API_SECRET)
    .update(signed)
    .digest("base64url")}`;
}

/**
 * A session token as Shopify issues it to a checkout or customer-account UI extension (`shopify.sessionToken.get()`):
 * an HS256 JWT signed with the app's secret whose `dest` is the bare shop domain (no protocol, no `iss`), valid for
 * 5 minutes; `sub` (the customer's gid) only when the buyer is logged in.
 */
export function extensionSessionToken(
  shop: string,
  options: { secret?: string; apiKey?: string; nowSeconds?: number; customerId?: number } = {},
): string {
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const payload = {
    dest: shop,
    aud: options.apiKey ?? TEST_APP.SHOPIFY_API_KEY,
    exp: now + 300,
    nbf: now,
    iat: now,
    jti: randomUUID(),
    ...(options.customerId === undefined ? {} : { sub: `gid://shopify/Customer/${options.customerId}` }),
  };
  const signed = `${encode({ alg: "HS256", typ: "JWT" })}.${encode(payload)}`;
  return `${signed}.${createHmac("sha256", options.secret ?? TEST_APP.SHOPIFY_API_SECRET)
    .update(signed)
    .digest("base64url")}`;
}
