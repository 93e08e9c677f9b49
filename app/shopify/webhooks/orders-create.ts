// orders/create: an order was placed. Its job protects the order when it carries the opt-in
// (app/shopify/orders.server.ts); the job is found by the order id, so a cancellation or refund that overtakes it
// waits for it.
import type { OrderPayload } from "../named-jobs.ts";
import { handledWebhook, type PayloadKeys } from "./webhook.ts";
import type { ShopifyOrder } from "./shopify-order.ts";
import { shippingAddressHash, type ShipTo } from "../../../server/index.ts";

/**
 * Keeps what the protection job needs from Shopify's order. The street is kept only as the keyed hash of the door
 * (country, postal code, first line: server/domain/buyer-addresses.ts), made here so that no job holds it in clear.
 */
export function orderPayloadOf(order: ShopifyOrder, keys: PayloadKeys): OrderPayload {
  const address = order.shipping_address;
  const addressHash =
    address &&
    shippingAddressHash(keys, { countryCode: address.country_code, postalCode: address.zip, line1: address.address1 });
  const subtotalSet = order.subtotal_price === undefined ? order.total_price_set : order.subtotal_price_set;
  // docs/shopify.md "Shopify Markets: the buyer's currency".
  const markets = subtotalSet && order.presentment_currency && order.presentment_currency !== order.currency;
  return {
    id: String(order.id),
    admin_graphql_api_id: order.admin_graphql_api_id,
    currency: order.currency,
    subtotal_price: order.subtotal_price ?? order.total_price,
    ...(markets
      ? { presentment: { currency: order.presentment_currency!, subtotal_price: subtotalSet.presentment_money.amount } }
      : {}),
    email: order.email || order.contact_email || order.customer?.email || null,
    name: order.name ?? null,
    note_attributes: (order.note_attributes ?? []).map(({ name, value }) => ({
      name: String(name),
      value: String(value),
    })),
    source_name: order.source_name ?? null,
    ...(order.customer_locale ? { customer_locale: String(order.customer_locale) } : {}),
    line_items: (order.line_items ?? []).map(
      ({ admin_graphql_api_id, product_id, variant_id, price, price_set, quantity, title, variant_title }) => {
        const name = [title, variant_title].filter(Boolean).join(" – ");
        return {
          product_id,
          price,
          quantity,
          ...(name ? { title: name.slice(0, 200) } : {}),
          ...(admin_graphql_api_id ? { id: admin_graphql_api_id } : {}),
          ...(variant_id ? { variant_id: String(variant_id) } : {}),
          ...(markets && price_set ? { presentment_price: price_set.presentment_money.amount } : {}),
        };
      },
    ),
    ...(address ? { ship_to: shipToOf(address) } : {}),
    ...(addressHash ? { shipping_address_hash: addressHash } : {}),
  };
}

/** The town-level part of the shipping address (docs/dashboard.md "The claims team's console (/ops)": no name, street or phone is kept). */
function shipToOf(address: NonNullable<ShopifyOrder["shipping_address"]>): ShipTo {
  const text = (value: string | null | undefined) => (value ? String(value).slice(0, 100) : null);
  return {
    city: text(address.city),
    region: text(address.province_code || address.province),
    postalCode: text(address.zip),
    countryCode: text(address.country_code),
  };
}

export const ordersCreate = handledWebhook({
  topic: "orders/create",
  job: "orders/create",
  jobPayload: orderPayloadOf,
  subject: (order: ShopifyOrder) => String(order.id),
});
