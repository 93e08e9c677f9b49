// The extension's logic without the `shopify` global: the app's config, the order amount, the quote and its tier.
// Money is integer minor units; Shopify's Money (decimal amounts) is converted at the edge.
import type { AppMetafieldEntry, CartLine, Money } from "@shopify/ui-extensions/checkout";
import {
  CONFIG_KEY,
  minorDigits,
  SHOP_CONFIG_NAMESPACE,
  tierFor,
  type FeeTier,
  type StorefrontConfig,
} from "@purchase-protection/contract";

/** What the extension takes from the storefront config the app writes into the shop's `$app:protection` metafield. */
export type ProtectionConfig = Omit<StorefrontConfig, "version" | "widgetUrl">;

export interface OrderAmount {
  cents: number;
  currency: string;
}

/** A quote the buyer can take: the API's offer and the tier whose line pays for it. */
export interface Offer {
  quoteId: string;
  /** What the buyer pays: the quote's buyerFeeCents (a split program's buyer part; docs/api.md "Who pays"). */
  feeCents: number;
  currency: string;
  /** The visible disclosure in the buyer's language (the quote's offerTexts), else the quote's English one. */
  disclosureText: string;
  termsUrl: string;
  /** The offer's label, a key of the contract's approved wordings (an unknown key shows the standard one). */
  offerWording: string;
  tier: FeeTier;
}

/** A merchant-paid program (docs/api.md "Who pays"): the store protects the order, the buyer is told, not asked. */
export interface Notice {
  notice: true;
  /** As an Offer's: the disclosure in the buyer's language, and the rulebook. */
  disclosureText: string;
  termsUrl: string;
}

/** The raw config value among the extension's metafields (`undefined` until the app has written it). */
export function configValue(entries: AppMetafieldEntry[]): string | undefined {
  return entries.find(({ metafield }) => metafield.namespace === SHOP_CONFIG_NAMESPACE && metafield.key === CONFIG_KEY)
    ?.metafield.value;
}

const isText = (value: unknown): value is string => typeof value === "string" && value.length > 0;
const isCents = (value: unknown): value is number => Number.isInteger(value) && (value as number) > 0;
const isId = (value: unknown): value is string => isText(value) && /^\d+$/.test(value);

/** The config, or null when it is missing or malformed (then the extension shows nothing). */
export function parseConfig(raw: string | undefined): ProtectionConfig | null {
  // Untrusted until checked field by field below.
  let value: { [Field in keyof StorefrontConfig]?: unknown };
  try {
    value = JSON.parse(raw ?? "") ?? {};
  } catch {
    return null;
  }
  const { version, publishableKey, programId, apiBase, productId, tiers } = value;
  const valid =
    version === 1 &&
    isText(publishableKey) &&
    isText(programId) &&
    isText(apiBase) &&
    isId(productId) &&
    Array.isArray(tiers) &&
    tiers.length > 0 &&
    tiers.every((tier) => isCents(tier?.priceCents) && isId(tier?.variantId));
  if (!valid) return null;
  return {
    publishableKey,
    programId,
    apiBase: apiBase.replace(/\/+$/, ""),
    productId,
    tiers: tiers
      .map(({ priceCents, variantId }: FeeTier) => ({ priceCents, variantId }))
      .sort((a, b) => a.priceCents - b.priceCents),
  };
}

export const variantGid = (variantId: string) => `gid://shopify/ProductVariant/${variantId}`;

export function isProtectionLine(line: CartLine, config: ProtectionConfig): boolean {
  const { merchandise } = line;
  return (
    merchandise.product?.id === `gid://shopify/Product/${config.productId}` ||
    config.tiers.some((tier) => variantGid(tier.variantId) === merchandise.id)
  );
}

export const toMinorUnits = (money: Money) => Math.round(money.amount * 10 ** minorDigits(money.currencyCode));
export const toMajorUnits = (cents: number, currency: string) => cents / 10 ** minorDigits(currency);

/** What the buyer is protected for: the subtotal without the protection line itself (the shared contract). */
export function orderAmount(subtotal: Money, lines: CartLine[], config: ProtectionConfig): OrderAmount {
  const protection = lines
    .filter((line) => isProtectionLine(line, config))
    .reduce((sum, line) => sum + toMinorUnits(line.cost.totalAmount), 0);
  return { cents: toMinorUnits(subtotal) - protection, currency: subtotal.currencyCode };
}

/**
 * Shopify's price of each tier in the buyer's market, as the Storefront API gives it in their context: converted and
 * rounded as the market rounds (docs/shopify.md "Shopify Markets: the buyer's currency"), with the shop's currency.
 */
export interface MarketPrices {
  shopCurrency: string;
  currency: string;
  /** Variant id → the tier's price in `currency`'s minor units. */
  cents: Map<string, number>;
}

export const MARKET_PRICES_QUERY = `query ProtectionTierPrices($ids: [ID!]!, $country: CountryCode) @inContext(country: $country) {
  shop { paymentSettings { currencyCode } }
  nodes(ids: $ids) { ... on ProductVariant { id price { amount currencyCode } } }
}`;

export interface MarketPricesData {
  shop?: { paymentSettings?: { currencyCode?: string } };
  nodes?: ({ id?: string; price?: { amount?: string; currencyCode?: string } } | null)[];
}

/** The query's answer as MarketPrices; null when it lacks the shop's currency or any tier's price in one currency. */
export function parseMarketPrices(data: MarketPricesData | undefined, config: ProtectionConfig): MarketPrices | null {
  const shopCurrency = data?.shop?.paymentSettings?.currencyCode;
  const prices = (data?.nodes ?? []).flatMap((node) =>
    node?.id && node.price?.amount && node.price.currencyCode ? [{ id: node.id, ...node.price }] : [],
  );
  const currency = prices[0]?.currencyCode;
  if (!shopCurrency || !currency || prices.some((price) => price.currencyCode !== currency)) return null;
  const cents = new Map<string, number>();
  for (const tier of config.tiers) {
    const price = prices.find((candidate) => candidate.id === variantGid(tier.variantId));
    if (!price) return null;
    cents.set(tier.variantId, Math.round(Number(price.amount) * 10 ** minorDigits(currency)));
  }
  return { shopCurrency, currency, cents };
}

/**
 * What the buyer's order amount is in the shop's currency, in which the plan is quoted and confirmed: as it is
 * unless the checkout is in another currency (a Markets checkout), then at the rate the highest tier's two prices
 * imply (its market rounding is the smallest share of its price). orders/create decides on the order's own amounts.
 */
export function inShopCurrency(amount: OrderAmount, config: ProtectionConfig, market: MarketPrices): OrderAmount {
  if (amount.currency === market.shopCurrency) return amount;
  const highest = config.tiers[config.tiers.length - 1];
  const rate =
    toMajorUnits(highest.priceCents, market.shopCurrency) /
    toMajorUnits(market.cents.get(highest.variantId)!, market.currency);
  const major = toMajorUnits(amount.cents, amount.currency) * rate;
  return { cents: Math.round(major * 10 ** minorDigits(market.shopCurrency)), currency: market.shopCurrency };
}

/**
 * Quotes the order with the publishable key, in the buyer's checkout language (`locale`): an offer, a merchant-paid
 * program's notice, or null on any failure, a malformed answer or no tier that covers the buyer's part.
 */
export async function requestOffer(
  config: ProtectionConfig,
  amount: OrderAmount,
  orderId: string,
  signal: AbortSignal,
  locale?: string,
): Promise<Offer | Notice | null> {
  if (amount.cents <= 0) return null;
  try {
    const response = await fetch(`${config.apiBase}/offers/quote`, {
      method: "POST",
      signal,
      headers: {
        Authorization: `Bearer ${config.publishableKey}`,
        "Content-Type": "application/json",
        "Idempotency-Key": crypto.randomUUID(),
      },
      body: JSON.stringify({
        order_amount_cents: amount.cents,
        order_id: orderId,
        protection_program_id: config.programId,
        currency: amount.currency,
        locale,
      }),
    });
    if (!response.ok) return null;
    const quote = await response.json();
    const feeCents = quote?.buyerFeeCents ?? quote?.feeCents;
    const { quoteId, currency, termsUrl, offerWording } = quote ?? {};
    const disclosureText = isText(quote?.offerTexts?.disclosure) ? quote.offerTexts.disclosure : quote?.disclosureText;
    if (!isText(quoteId) || !isText(disclosureText) || !isText(termsUrl)) return null;
    // The store pays: its notice, with no price, no line and no choice to record.
    if (quote.payer === "merchant") return { notice: true, disclosureText, termsUrl };
    const tier = isCents(feeCents) && isText(currency) ? tierFor(config.tiers, feeCents) : undefined;
    if (!tier) return null;
    return { quoteId, feeCents, currency, disclosureText, termsUrl, offerWording: String(offerWording ?? ""), tier };
  } catch {
    return null;
  }
}
