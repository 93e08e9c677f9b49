// Renders the theme app embed (extensions/theme-embed/blocks/protection.liquid) with liquidjs, the way Shopify would
// for one page: the app's config metafield, the block's settings, the cart (Ajax Cart API shape → Liquid's cart
// object), the template name, and asset_url pointing wherever the test serves the widget.
import path from "node:path";
import { Liquid } from "liquidjs";
// The app config the app writes into the AppInstallation metafield protection.config (shared contract).
import { minorDigits, type StorefrontConfig } from "@purchase-protection/contract";

export const THEME_EMBED_DIR = path.join(import.meta.dirname, "..", "..", "extensions", "theme-embed");

export interface EmbedPage {
  config: StorefrontConfig | null;
  settings?: { enabled?: boolean; placement?: string; program?: string; cart_sections?: string };
  /** The cart as /cart.js returns it. */
  cart: {
    /** The cart's token (Liquid's cart.token): the identity an offer experiment's variant follows. */
    token?: string;
    total_price: number;
    currency: string;
    items: { product_id: number; final_line_price: number }[];
  };
  templateName?: string;
  /** The storefront's language (Liquid's request.locale.iso_code): the buyer's, as Shopify resolved it. */
  locale?: string;
  /** The shop's own currency (Liquid's shop.currency); the cart's when not given. */
  shopCurrency?: string;
  /**
   * The protection product's variants as Liquid sees them in the buyer's market: prices in the cart's currency, in
   * Shopify's hundredths of its unit. By default, in a cart in the shop's own currency, the config's tiers' prices.
   */
  protectionVariants?: { id: number; price: number }[];
  /** Where `{{ 'x' | asset_url }}` points (Shopify's CDN in production). */
  assetBase: string;
}

const engine = new Liquid({ root: path.join(THEME_EMBED_DIR, "blocks"), extname: ".liquid", strictFilters: true });
engine.registerFilter("asset_url", function (this: unknown, name: string) {
  return `${(this as { context: { get(path: string[]): unknown } }).context.get(["asset_base"])}${name}`;
});
// {% schema %} is read by Shopify, never rendered.
engine.registerTag("schema", {
  parse(_token, remaining) {
    for (
      let token = remaining.shift();
      token && !(token.kind === 4 && (token as { name?: string }).name === "endschema");
      token = remaining.shift()
    );
  },
  render() {},
});

/** A price in a currency's minor units as a Shopify theme sees it: hundredths of the unit whatever its decimals. */
export const shopifyHundredths = (minor: number, currency: string) =>
  Math.round((minor * 100) / 10 ** minorDigits(currency));

export function renderEmbed(page: EmbedPage): Promise<string> {
  const shopCurrency = page.shopCurrency ?? page.cart.currency;
  const variants =
    page.protectionVariants ??
    (shopCurrency === page.cart.currency
      ? page.config?.tiers.map((tier) => ({
          id: +tier.variantId,
          price: shopifyHundredths(tier.priceCents, shopCurrency),
        }))
      : undefined);
  return engine.renderFile("protection", {
    app: { metafields: { protection: { config: page.config && { value: page.config } } } },
    block: {
      settings: { enabled: true, placement: "checkout_button", program: "", cart_sections: "", ...page.settings },
    },
    cart: { ...page.cart, currency: { iso_code: page.cart.currency } },
    shop: { currency: shopCurrency },
    all_products: { "purchase-protection": variants && { variants } },
    template: { name: page.templateName ?? "cart" },
    request: { locale: { iso_code: page.locale ?? "en" } },
    asset_base: page.assetBase,
  });
}
