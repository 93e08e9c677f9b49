/** @jsxImportSource preact */
// purchase.checkout.block.render: the protection offer as native checkout UI. The buyer's choice is recorded as
// checkout attributes plus the tier's line, and mirrored in the app's cart metafield; the order webhook quotes and confirms server-side (never the browser).
// Types only (the Polaris web components' JSX): at run time it would hand the host @preact/signals' Signal class,
// 7.8 KB of a 25 KB bundle, for what `useSignalValue` below does with the `subscribe` every host signal has.
import type {} from "@shopify/ui-extensions/preact";
import { render } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { CartLineChange } from "@shopify/ui-extensions/checkout";
import {
  ACCEPTED,
  CHOICE_ATTRIBUTE,
  CHOICE_METAFIELD,
  DECLINED,
  isOfferWording,
  QUOTE_ATTRIBUTE,
} from "@purchase-protection/contract";
import {
  configValue,
  inShopCurrency,
  MARKET_PRICES_QUERY,
  parseMarketPrices,
  type MarketPrices,
  type MarketPricesData,
  type OrderAmount,
  isProtectionLine,
  orderAmount,
  parseConfig,
  requestOffer,
  toMajorUnits,
  variantGid,
  type Notice,
  type Offer,
  type ProtectionConfig,
} from "./offer.ts";

/** Quiet period before re-quoting after the order amount changes (a buyer editing quantities). */
export const REQUOTE_DEBOUNCE_MS = 400;

export default async () => {
  render(<Extension />, document.body);
};

/** A host signal's value; the component renders again when it changes (the `subscribe` of ReadonlySignalLike). */
function useSignalValue<T>(signal: { readonly value: T; subscribe(fn: (value: T) => void): () => void }): T {
  const value = signal.value;
  // The value at the first render with this signal, after which the subscription below is made.
  const subscribedAfter = useMemo(() => signal.value, [signal]);
  const [, rerender] = useState(0);
  useEffect(() => {
    const unsubscribe = signal.subscribe(() => rerender((count) => count + 1));
    // A change between that render and the subscription is not missed.
    if (signal.value !== subscribedAfter) rerender((count) => count + 1);
    return unsubscribe;
  }, [signal, subscribedAfter]);
  return value;
}

function Extension() {
  const raw = configValue(useSignalValue(shopify.appMetafields));
  const config = useMemo(() => parseConfig(raw), [raw]);
  const { attributes, lines } = useSignalValue(shopify.instructions);
  // Accelerated checkouts (and some configurations) cannot take attributes or lines: the choice could not be recorded.
  if (!config || attributes.canUpdateAttributes === false || lines.canAddCartLine === false) return null;
  return <ProtectionOffer config={config} />;
}

const attribute = (key: string) => shopify.attributes.value.find((entry) => entry.key === key)?.value;

/**
 * The tiers' prices in the buyer's market (Storefront API, in the buyer's country): undefined while asked, null when
 * they cannot be had (then no offer is shown rather than a price Shopify would not charge).
 */
function useMarketPrices(config: ProtectionConfig, country: string | undefined): MarketPrices | null | undefined {
  const [market, setMarket] = useState<MarketPrices | null | undefined>(undefined);
  useEffect(() => {
    let current = true;
    shopify
      .query<MarketPricesData>(MARKET_PRICES_QUERY, {
        variables: { ids: config.tiers.map((tier) => variantGid(tier.variantId)), country },
      })
      .then(
        ({ data }) => current && setMarket(parseMarketPrices(data, config)),
        () => current && setMarket(null),
      );
    return () => {
      current = false;
    };
  }, [config, country]);
  return market;
}

function ProtectionOffer({ config }: { config: ProtectionConfig }) {
  const amount = orderAmount(useSignalValue(shopify.cost.subtotalAmount), useSignalValue(shopify.lines), config);
  const accepted = useSignalValue(shopify.attributes).some(
    (entry) => entry.key === CHOICE_ATTRIBUTE && entry.value === ACCEPTED,
  );
  const [offer, setOffer] = useState<(Offer & { linePrice: OrderAmount }) | Notice | null>(null);
  const market = useMarketPrices(config, useSignalValue(shopify.localization.country)?.isoCode);
  const [busy, setBusy] = useState(false);
  const [fallbackOrderId] = useState(() => `checkout-${crypto.randomUUID()}`);
  // Whether an offer is on screen sets the re-quote's debounce; a ref, as showing an offer must not quote again.
  const offerShown = useRef(false);
  const { cents, currency } = amount;
  // The checkout's language: the quote's disclosure comes in it (the rest from locales/*.json, as Shopify resolves it).
  const locale = useSignalValue(shopify.localization.language).isoCode;

  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(
      async () => {
        // Quoted in the shop's currency; shown at the tier line's price in the buyer's (docs/shopify.md "Shopify
        // Markets: the buyer's currency"): a market whose prices are not in the checkout's currency shows nothing.
        const quoted =
          market && market.currency === currency
            ? await requestOffer(
                config,
                inShopCurrency({ cents, currency }, config, market),
                shopify.checkoutToken.value ?? fallbackOrderId,
                controller.signal,
                locale,
              )
            : null;
        const next =
          quoted &&
          ("notice" in quoted
            ? quoted
            : { ...quoted, linePrice: { cents: market!.cents.get(quoted.tier.variantId)!, currency } });
        if (controller.signal.aborted) return;
        // A failed re-quote keeps an accepted offer on screen: the buyer can still take the protection back out.
        if (next || attribute(CHOICE_ATTRIBUTE) !== ACCEPTED) {
          setOffer(next);
          offerShown.current = next !== null;
        }
        // An accepted choice follows the new quote: its id, and the line of the tier that now fits.
        if (next && !("notice" in next) && attribute(CHOICE_ATTRIBUTE) === ACCEPTED)
          await recordChoice(config, next, true);
      },
      offerShown.current ? REQUOTE_DEBOUNCE_MS : 0,
    );
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [config, cents, currency, fallbackOrderId, locale, market]);

  if (!offer) return null;
  const terms = (
    <>
      <s-text color="subdued">{offer.disclosureText}</s-text>
      <s-link href={offer.termsUrl} target="_blank">
        {shopify.i18n.translate("terms")}
      </s-link>
    </>
  );
  // A merchant-paid program: "Protected by {store}" instead of the checkbox; no line, no attribute (docs/api.md "Who pays").
  if ("notice" in offer)
    return (
      <s-stack gap="small-200">
        <s-text>{shopify.i18n.translate("protectedBy", { store: shopify.shop.name })}</s-text>
        {terms}
      </s-stack>
    );
  const choose = async (take: boolean) => {
    setBusy(true);
    await recordChoice(config, offer, take);
    setBusy(false);
  };
  const price = shopify.i18n.formatCurrency(toMajorUnits(offer.linePrice.cents, offer.linePrice.currency), {
    currency: offer.linePrice.currency,
  });
  return (
    <s-stack gap="small-200">
      <s-checkbox
        label={shopify.i18n.translate(`offer.${isOfferWording(offer.offerWording) ? offer.offerWording : "standard"}`, {
          price,
        })}
        checked={accepted}
        disabled={busy}
        onChange={() => choose(!accepted)}
      />
      {terms}
    </s-stack>
  );
}

/**
 * Makes the checkout match the choice: lines first (exactly the offer's tier line when taken, none when declined),
 * then the attributes that differ. Stops at the first refusal, so an attribute never claims a line that is missing.
 */
async function recordChoice(config: ProtectionConfig, offer: Offer, take: boolean): Promise<void> {
  const wanted = take ? variantGid(offer.tier.variantId) : null;
  const current = shopify.lines.value.filter((line) => isProtectionLine(line, config));
  const lineChanges: CartLineChange[] = current
    .filter((line) => line.merchandise.id !== wanted)
    .map((line) => ({ type: "removeCartLine", id: line.id, quantity: line.quantity }));
  if (wanted && !current.some((line) => line.merchandise.id === wanted))
    lineChanges.push({ type: "addCartLine", merchandiseId: wanted, quantity: 1 });
  for (const change of lineChanges) {
    if ((await shopify.applyCartLinesChange(change)).type !== "success") return;
  }
  const choice = take ? ACCEPTED : DECLINED;
  const choiceChanged = attribute(CHOICE_ATTRIBUTE) !== choice;
  const attributes: Record<string, string> = take
    ? { [CHOICE_ATTRIBUTE]: choice, [QUOTE_ATTRIBUTE]: offer.quoteId }
    : { [CHOICE_ATTRIBUTE]: choice };
  for (const [key, value] of Object.entries(attributes)) {
    if (attribute(key) === value) continue;
    if ((await shopify.applyAttributeChange({ type: "updateAttribute", key, value })).type !== "success") return;
  }
  // The same choice in the app's cart metafield, which Shopify copies onto the order: it arrives where a checkout
  // drops the attributes (docs/shopify.md "Checkout UI extension").
  if (choiceChanged && shopify.instructions.value.metafields.canSetCartMetafields)
    await shopify.applyMetafieldChange({
      type: "updateCartMetafield",
      metafield: { ...CHOICE_METAFIELD, value: choice },
    });
}
