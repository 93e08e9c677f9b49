import { pageLocale, uuid } from "./host.ts";

// The element's attributes, read into what one quote needs. The same record travels to the iframe fallback.
export const ATTRIBUTES = [
  "publishable-key",
  "program-id",
  "amount-cents",
  "currency",
  "locale",
  "order-id",
  "api-base",
  "mode",
  "debug",
  "fee-variants",
  "placement",
  "order-name",
  "cart-id",
  "market",
];

export type Attributes = Record<string, string>;

export interface WidgetConfig {
  key: string;
  program: string;
  amountCents: number;
  currency: string;
  /** The order id quoted (the `order-id` attribute). */
  orderRef: string;
  /** The store's order name ("#1001") when the page knows it: the plan keeps it, the buyer's portal look-up takes it. */
  orderName?: string;
  /** The cart or checkout (a storefront's cart token): an offer experiment's variant follows it, else the order id. */
  cartId?: string;
  apiBase: string;
  mode: "order" | "cart";
  /** The storefront's language: the quote's texts come in it (or English). */
  locale?: string;
}

export function attributesOf(element: Element): Attributes {
  const attributes: Attributes = {};
  // customer-email is read when the order is placed, never quoted: a change is no reason to quote again (element.ts
  // observes ATTRIBUTES).
  for (const name of [...ATTRIBUTES, "customer-email"]) {
    const value = element.getAttribute(name);
    if (value != null) attributes[name] = value;
  }
  return attributes;
}

/** `api-base` when given, else the widget script's own origin + /api/v1. */
export const apiBaseOf = (attributes: Attributes, scriptUrl: string) =>
  (attributes["api-base"] || new URL("/api/v1", scriptUrl).href).replace(/\/+$/, "");

/**
 * The configuration, or undefined when it cannot produce a valid quote: a missing key or program, an amount that
 * is not a positive integer, mode="order" without an order id, or anything but a publishable (wk_) key — a secret
 * key pasted into a page is never sent anywhere.
 */
export function readConfig(attributes: Attributes, scriptUrl: string): WidgetConfig | undefined {
  const key = attributes["publishable-key"];
  const program = attributes["program-id"];
  const amountCents = Number(attributes["amount-cents"]);
  const mode = attributes.mode == "cart" ? "cart" : "order";
  const orderRef = attributes["order-id"] || (mode == "cart" ? `cart-${uuid()}` : "");
  if (
    !/^wk_(test|live)_\w+$/.test(key) ||
    !program ||
    !orderRef ||
    !Number.isSafeInteger(amountCents) ||
    amountCents <= 0
  )
    return undefined;
  let apiBase: string;
  try {
    apiBase = apiBaseOf(attributes, scriptUrl);
  } catch {
    return undefined;
  }
  return {
    key,
    program,
    amountCents,
    currency: (attributes.currency || "USD").toUpperCase(),
    orderRef,
    orderName: attributes["order-name"],
    cartId: attributes["cart-id"] || undefined,
    apiBase,
    mode,
    locale: attributes.locale || pageLocale(),
  };
}
