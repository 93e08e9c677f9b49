import { formatMoney, tierFor, type FeeTier } from "@purchase-protection/contract";
import { followCart, tiersOf, type Cart } from "./cart.ts";
import { readConfig, type Attributes, type WidgetConfig } from "./config.ts";
import type { Emit } from "./events.ts";
import { logger, pageLocale, post, uuid, type Log } from "./host.ts";
import { render, type OfferView } from "./view.ts";

export const REQUOTE_DELAY_MS = 150;

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

/**
 * Confirms the buyer's choice (mode="order") for the order placed: resolves with the plan's reference number, rejects
 * with an Error whose message is the reason code (not_accepted, network, http_<status> or the API's error code).
 */
type Confirm = (orderId?: string) => Promise<string>;

export interface Mount {
  /** Quote (again) for these attributes after `delayMs`; a later call within the delay replaces this one. */
  update(attributes: Attributes, delayMs: number): void;
  /** Unmounted: cancel what is pending or in flight and render nothing. */
  stop(): void;
  /** Stopped (or never started): the next connection quotes again. */
  idle: boolean;
  /** The order is placed (mode="order"): confirm the ticked offer, once; rejects when nothing is ticked. */
  settle: Confirm;
}

/**
 * One mounted widget: at most one quote per update burst, the offer rendered into `root`, the buyer's choice.
 * The quote token lives only in the closure of `quote()` below. Every failure renders nothing and emits
 * `unavailable`; nothing here throws or writes to the console (except diagnostics with the `debug` attribute).
 * mode="order": ticking only records the choice (`choice` event); the plan is confirmed when the order is placed —
 * the bound form is submitted, or the page calls `confirm()` — so the buyer can untick until then.
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
  /** The offer on screen (mode="order"): its confirm, and whether its box is ticked. */
  let current: Confirm | undefined;
  let ticked = false;
  /** A submit of the bound form is held for the confirm; the one the widget re-submits then passes. */
  let holding = false;
  let passing = false;
  const host = (root as ShadowRoot).host as HTMLElement | undefined;

  const clear = () => {
    current = undefined;
    root.replaceChildren();
  };
  const cancel = () => {
    clearTimeout(timer);
    inFlight?.abort();
    generation++;
  };
  /** Nothing shown, and the page told why. */
  const unavailable = (reason: string, log: Log) => {
    log("unavailable:", reason);
    clear();
    emit("unavailable", { reason });
  };
  /** Before the first element matching `placement` (a theme's checkout button); false when there is none. */
  const place = () => {
    let target: Element | null = null;
    try {
      target = document.querySelector(latest.placement!);
    } catch {
      // an invalid selector: placed nowhere
    }
    if (target && target.previousElementSibling !== host) target.before(host!);
    return !!target;
  };

  async function quote(config: WidgetConfig, log: Log, tick?: boolean): Promise<Confirm | void> {
    const mine = generation;
    const controller = (inFlight = new AbortController());
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
        log("quote", offer.quoteId);
        return show(config, offer as Quote, response.token || "", log, tick);
      }
      reason = offer?.error?.code || (response.status === 200 ? "invalid_response" : `http_${response.status}`);
    } catch {
      if (mine !== generation) return;
      reason = controller.signal.aborted ? "timeout" : "network";
    }
    unavailable(reason, log);
  }

  function show(config: WidgetConfig, offer: Quote, token: string, log: Log, tick?: boolean) {
    const quoteId = offer.quoteId;
    const confirmKey = uuid();
    const declineKey = uuid();
    let confirmBody: unknown;
    let confirming: Promise<string> | undefined;
    // The buyer is shown what the protection line costs: its tier's price.
    const tier = tierFor(tiers, offer.feeCents);
    if (cart && !tier) return unavailable("no_tier", log);
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
      view.busy(false, written ? "" : "Your cart could not be updated.");
      view.box.checked = accepted === written;
      return written;
    };
    /** One confirm per quote: a second call (a double submit, the page's script) gets the same answer. */
    const confirm: Confirm = (orderId = config.orderId) =>
      (confirming ??= (async () => {
        view.busy(true, "Adding protection…");
        // Another order id than the quoted one: the quote is renewed for it (below), as the API requires.
        const result =
          orderId == config.orderId
            ? await post<{ referenceNumber?: string; error?: { code?: string } }>(
                config.apiBase,
                config.key,
                "/offers/confirm",
                // Built once, so that a retry after a network failure replays the same request under the same key.
                (confirmBody ??= {
                  quoteId,
                  quoteToken: token,
                  order_context: {
                    schema_version: "2026-01-01",
                    order: {
                      id: orderId,
                      purchased_at: new Date().toISOString(),
                      currency: offer.currency,
                      covered_amount_cents: offer.coveredAmountCents,
                    },
                    participants: { mode: "unnamed" },
                  },
                }),
                confirmKey,
              ).catch(() => undefined)
            : { status: 409, body: null };
        const referenceNumber = result?.status === 200 && result.body?.referenceNumber;
        if (!referenceNumber) {
          const reason = result ? result.body?.error?.code || `http_${result.status}` : "network";
          log("confirm:", reason);
          confirming = undefined;
          view.busy(false, "Protection could not be added.");
          // Refused (the quote expired, was used or declined meanwhile): confirm a fresh quote of the same offer.
          if (!tick && result && result.status < 500 && result.status !== 429) {
            cancel();
            const renewed = await quote({ ...config, orderId }, log, true);
            if (renewed) return renewed(orderId);
          }
          throw new Error(reason);
        }
        log("confirmed", referenceNumber);
        confirmed = true;
        view.done(`Protected. Your reference number is ${referenceNumber}.`);
        emit("accepted", { quoteId, referenceNumber });
        return referenceNumber;
      })());
    view.box.onchange = async () => {
      const accepted = view.box.checked;
      if (config.mode === "cart") {
        if (!cart || (await choose(accepted))) emit(accepted ? "accepted" : "declined", { quoteId });
        return;
      }
      ticked = accepted;
      emit("choice", { quoteId, accepted, feeCents: offer.feeCents });
      // The iframe fallback cannot see the page's form: there, ticking confirms at once.
      if (!host && accepted) void confirm().catch(() => 0);
    };
    view.onDecline = async () => {
      ticked = false;
      view.done("No protection added.", true);
      await post(config.apiBase, config.key, "/offers/decline", { quoteId }, declineKey).catch(() => undefined);
      emit("declined", { quoteId });
    };
    view.box.checked = ticked = !!tick;
    emit("offer", { quoteId, feeCents: offer.feeCents, currency: offer.currency });
    // Re-quoted while the buyer's choice stands: the line follows the new tier and the attribute the new quote.
    if (cart?.chosen) void choose(true);
    return (current = confirm);
  }

  // The bound form (the `form` attribute's id, else the enclosing <form>): its submit places the order. Caught
  // before the page's own submit listeners, held until the plan is confirmed, then submitted again. A failed confirm
  // fails open: the order goes on without protection.
  if (host)
    addEventListener(
      "submit",
      (event) => {
        const form = event.target as HTMLFormElement;
        const bound = host.getAttribute("form");
        if (passing || confirmed || !ticked || form !== (bound ? document.getElementById(bound) : host.closest("form")))
          return;
        event.preventDefault();
        event.stopImmediatePropagation();
        // Submitted again while the confirm runs (a double click): the one held submit goes on, once.
        if (holding) return;
        holding = true;
        const submitter = (event as SubmitEvent).submitter;
        mount
          .settle()
          .catch((error: Error) => emit("unavailable", { reason: error.message }))
          .finally(() => {
            passing = true;
            holding = false;
            if (form.requestSubmit) form.requestSubmit(submitter);
            else form.submit();
            passing = false;
          });
      },
      true,
    );

  const mount: Mount = {
    idle: true,
    settle: (orderId) => (current && ticked ? current(orderId) : Promise.reject(new Error("not_accepted"))),
    update(attributes, delayMs) {
      if (confirmed) return;
      cancel();
      mount.idle = false;
      latest = attributes;
      timer = setTimeout(() => {
        if (attributes.mode === "cart" && !cart && (tiers = tiersOf(attributes["fee-variants"])).length) {
          // The first quote waits for the cart's own amount and the buyer's standing choice.
          cart = followCart(tiers, (amountCents) => {
            cartAmount = `${amountCents}`;
            if (latest.placement || host?.isConnected) mount.update(latest, REQUOTE_DELAY_MS);
          });
          return;
        }
        // Nowhere to go on this page (no checkout button): nothing shown.
        if (host && attributes.placement && !place()) return clear();
        const config = readConfig(cartAmount ? { ...attributes, "amount-cents": cartAmount } : attributes, scriptUrl);
        const log = logger("debug" in attributes);
        if (!config) return unavailable("config", log);
        void quote(config, log);
      }, delayMs);
    },
    stop() {
      cancel();
      clear();
      mount.idle = true;
      confirmed = ticked = false;
    },
  };
  return mount;
}
