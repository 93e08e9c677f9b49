import { formatMoney, tierFor, type FeeTier } from "@purchase-protection/contract";
import { followCart, tiersOf, type Cart } from "./cart.ts";
import { readConfig, type Attributes, type WidgetConfig } from "./config.ts";
import type { Emit } from "./events.ts";
import { logger, pageLocale, post, uuid, type Log } from "./host.ts";
import { render, type OfferView } from "./view.ts";

export const REQUOTE_DELAY_MS = 150;
const NOT_ADDED = "Protection could not be added. Please try again.";

/** The fields of a `POST /offers/quote` answer (README, *Offers*) the widget shows or sends back. */
interface Quote {
  quoteId: string;
  feeCents: number;
  currency: string;
  coveredAmountCents: number;
  disclosureText: string;
  termsUrl: string;
}

/** The quote answer as received: any field may be missing, and an error answer carries its code. */
type QuoteAnswer = Partial<Quote> & { error?: { code?: string } };

export interface Mount {
  /** Quote (again) for these attributes after `delayMs`; a later call within the delay replaces this one. */
  update(attributes: Attributes, delayMs: number): void;
  /** Unmounted: cancel what is pending or in flight and render nothing. */
  stop(): void;
}

/**
 * One mounted widget: at most one quote per update burst, the offer rendered into `root`, the buyer's choice.
 * The quote token lives only in the closure of `quote()` below. Every failure renders nothing and emits
 * `unavailable`; nothing here throws or writes to the console (except diagnostics with the `debug` attribute).
 */
export function mountOffer(root: ShadowRoot | HTMLElement, scriptUrl: string, emit: Emit): Mount {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: AbortController | undefined;
  let generation = 0;
  /** Confirmed (mode="order"): the order is protected; later attribute changes do not offer it again. */
  let confirmed = false;
  /** mode="cart" with fee-variants: the Shopify cart, its tiers, and the amount it holds without the protection line. */
  let cart: Cart | undefined;
  let tiers: FeeTier[] = [];
  let cartAmount: string | undefined;
  let latest: Attributes = {};

  const clear = () => root.replaceChildren();
  const cancel = () => {
    clearTimeout(timer);
    inFlight?.abort();
    generation++;
  };

  async function quote(config: WidgetConfig, log: Log, note = "") {
    const mine = generation;
    const controller = (inFlight = new AbortController());
    const started = performance.now();
    let reason: string;
    try {
      const response = await post<QuoteAnswer>(
        config.apiBase,
        config.key,
        "/offers/quote",
        {
          order_amount_cents: config.amountCents,
          order_id: config.orderId,
          protection_program_id: config.program,
          currency: config.currency,
        },
        uuid(),
        controller,
      );
      if (mine !== generation) return;
      const offer = response.body;
      // An offer is shown only complete: price and disclosure, and (mode="order") the token its confirm needs.
      const complete = offer?.quoteId && Number.isInteger(offer.feeCents) && typeof offer.disclosureText === "string";
      if (response.status === 200 && complete && (response.token || config.mode === "cart")) {
        log("quote", offer.quoteId, `${Math.round(performance.now() - started)} ms`);
        return show(config, offer as Quote, response.token || "", log, note);
      }
      reason = offer?.error?.code || (response.status === 200 ? "invalid_response" : `http_${response.status}`);
    } catch {
      if (mine !== generation) return;
      reason = controller.signal.aborted ? "timeout" : "network";
    }
    log("unavailable:", reason);
    clear();
    emit("unavailable", { reason });
  }

  function show(config: WidgetConfig, offer: Quote, token: string, log: Log, note: string) {
    const quoteId = offer.quoteId;
    const confirmKey = uuid();
    const declineKey = uuid();
    let confirmBody: unknown;
    // The buyer is shown what the protection line costs: its tier's price.
    const tier = tierFor(tiers, offer.feeCents);
    if (cart && !tier) {
      clear();
      return emit("unavailable", { reason: "no_tier" });
    }
    const view: OfferView = render(root, {
      price: formatMoney(tier ? tier.priceCents : offer.feeCents, offer.currency, pageLocale()),
      disclosure: offer.disclosureText,
      termsUrl: /^https?:\/\//.test(offer.termsUrl) ? offer.termsUrl : "",
      canDecline: config.mode === "order",
    });
    const choose = async (accepted: boolean) => {
      view.box.checked = accepted;
      view.busy(true, "");
      const written = await cart!.choose(accepted ? tier : undefined, quoteId);
      view.busy(false, written ? "" : "Your cart could not be updated. Please try again.");
      view.box.checked = accepted === written;
      return written;
    };
    view.box.onchange = async () => {
      const accepted = view.box.checked;
      if (config.mode === "cart") {
        log(accepted ? "opted in" : "opted out", quoteId);
        if (!cart || (await choose(accepted))) emit(accepted ? "accepted" : "declined", { quoteId });
        return;
      }
      if (!view.box.checked) return;
      view.busy(true, "Adding protection…");
      // Built once, so that a retry after a network failure replays the same request under the same key.
      confirmBody ??= {
        quoteId,
        quoteToken: token,
        order_context: {
          schema_version: "2026-01-01",
          order: {
            id: config.orderId,
            purchased_at: new Date().toISOString(),
            currency: offer.currency,
            covered_amount_cents: offer.coveredAmountCents,
          },
          participants: { mode: "unnamed" },
        },
      };
      const result = await post<{ referenceNumber?: string }>(
        config.apiBase,
        config.key,
        "/offers/confirm",
        confirmBody,
        confirmKey,
      ).catch(() => undefined);
      const referenceNumber = result?.status === 200 ? result.body?.referenceNumber : undefined;
      if (!referenceNumber) {
        log("confirm failed", result?.status ?? "network");
        // Refused (expired, used or declined quote): a fresh offer for the buyer to tick again. Otherwise retry as is.
        if (result && result.status < 500 && result.status !== 429) {
          cancel();
          return quote(config, log, "The offer was renewed. Please review it and tick the box again.");
        }
        view.busy(false, NOT_ADDED);
        view.box.checked = false;
        return;
      }
      log("confirmed", quoteId, referenceNumber);
      confirmed = true;
      view.done(`Protected. Your reference number is ${referenceNumber}.`);
      emit("accepted", { quoteId, referenceNumber });
    };
    view.onDecline = async () => {
      view.done("No protection added.", true);
      await post(config.apiBase, config.key, "/offers/decline", { quoteId }, declineKey).catch(() => undefined);
      log("declined", quoteId);
      emit("declined", { quoteId });
    };
    if (note) view.busy(false, note);
    emit("offer", { quoteId, feeCents: offer.feeCents, currency: offer.currency });
    // Re-quoted while the buyer's choice stands: the line follows the new tier and the attribute the new quote.
    if (cart?.accepted) void choose(true);
  }

  const mount: Mount = {
    update(attributes, delayMs) {
      if (confirmed) return;
      cancel();
      latest = attributes;
      timer = setTimeout(() => {
        const host = (root as ShadowRoot).host;
        if (attributes.mode === "cart" && !cart && (tiers = tiersOf(attributes["fee-variants"])).length) {
          // The first quote waits for the cart's own amount and the buyer's standing choice.
          cart = followCart(tiers, (amountCents) => {
            cartAmount = `${amountCents}`;
            if (latest.placement || host?.isConnected) mount.update(latest, REQUOTE_DELAY_MS);
          });
          return;
        }
        if (host && attributes.placement) {
          let target: Element | null = null;
          try {
            target = document.querySelector(attributes.placement);
          } catch {
            // an invalid selector: placed nowhere
          }
          // Nowhere to go on this page (no checkout button): nothing shown. Moving reconnects the element, which quotes
          // again from its new place.
          if (!target) return clear();
          if (target.previousElementSibling !== host) return target.before(host);
        }
        const config = readConfig(cartAmount ? { ...attributes, "amount-cents": cartAmount } : attributes, scriptUrl);
        const log = logger("debug" in attributes);
        if (!config) {
          log(
            "unavailable: config (needs publishable-key wk_…, program-id, amount-cents, and order-id for mode=order)",
          );
          clear();
          return emit("unavailable", { reason: "config" });
        }
        log("quoting", config.amountCents, config.currency, "via", config.apiBase);
        void quote(config, log);
      }, delayMs);
    },
    stop() {
      cancel();
      clear();
      confirmed = false;
    },
  };
  return mount;
}
