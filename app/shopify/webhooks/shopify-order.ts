// Shopify's Order webhook body (orders/create, orders/cancelled), as documented for the REST Order resource: the
// fields the app reads. Ids are numbers; amounts are decimal strings in the shop's currency, and each `*_set` holds
// the amount in the shop's currency and in the currency the buyer paid in (Shopify Markets' presentment currency).

/** Shopify's MoneyBag: one amount in the shop's and the buyer's currency. */
export interface PriceSet {
  shop_money: { amount: string; currency_code: string };
  presentment_money: { amount: string; currency_code: string };
}

export interface ShopifyOrder {
  id: number;
  admin_graphql_api_id: string;
  /** The order's name as the shop and its buyers know it ("#1001": the shop's prefix and order number). */
  name?: string;
  /** The shop's currency. */
  currency: string;
  /** The currency the buyer saw and paid in (the market's); the shop's when the order is not a Markets one. */
  presentment_currency?: string;
  /** Absent on some older payloads: total_price stands in. */
  subtotal_price?: string;
  subtotal_price_set?: PriceSet;
  total_price: string;
  total_price_set?: PriceSet;
  email: string | null;
  contact_email?: string | null;
  customer?: { id: number; email: string | null } | null;
  note_attributes?: { name: string; value: string }[];
  /** Where the order came from: "web" (the online store's checkout), "shopify_draft_order", "pos", an app's id, … */
  source_name?: string | null;
  /** The buyer's language at checkout, a locale such as "de" or "fr-CA": the plan's e-mails are written in it. */
  customer_locale?: string | null;
  line_items?: {
    admin_graphql_api_id?: string;
    product_id: number | null;
    variant_id?: number | null;
    price: string;
    price_set?: PriceSet;
    quantity: number;
    title?: string | null;
    variant_title?: string | null;
  }[];
  /** Where the goods go (absent for orders with nothing to ship); the app keeps the town-level fields only. */
  shipping_address?: {
    city?: string | null;
    province?: string | null;
    province_code?: string | null;
    zip?: string | null;
    country_code?: string | null;
    address1?: string | null;
  } | null;
  cancelled_at?: string | null;
  cancel_reason?: "customer" | "declined" | "fraud" | "inventory" | "staff" | "other" | null;
}
