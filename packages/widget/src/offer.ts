import { formatMoney, tierFor, type FeeTier, type OfferTexts } from "@purchase-protection/contract";
import { followCart, tiersOf, type Cart } from "./cart.ts";
import { readConfig, type Attributes, type WidgetConfig } from "./config.ts";
import { TAG, type Emit } from "./events.ts";
import { logger, post, refuse, uuid, type ApiResult, type Log } from "./host.ts";
import { render, type OfferView } from "./view.ts";

export const REQUOTE_DELAY_MS = 150;

/**
 * How an offer comes to be shown ticked: the buyer ticked again after "No thanks" (TICKED), or a refused quote is
 * renewed at confirm (RENEWAL: renewed once, never again).
 */
const TICKED = 1;
const RENEWAL = 2;
type Tick = typeof TICKED | typeof RENEWAL;

/** The fields of a `POST /offers/quote` answer (docs/api.md "Offers") the widget shows or sends back. */
interface Quote {
  quoteId: string;
  feeCents: number;
  /** What the buyer pays of feeCents (a split's buyer part): what is shown and priced (docs/api.md "Who pays"). */
  buyerFeeCents?: number;
  /** "merchant": every order protected by the store, so only its notice is shown (docs/api.md "Who pays"). */
  payer?: string;
  currency: string;
  coveredAmountCents: number;
  disclosureText: string;
  termsUrl: string;
  /** The offer's sentences in the buyer's language (the request's `locale`, else English). */
  offerTexts: OfferTexts;
}

/** The quote answer as received: any field may be missing, and an error answer carries its code. */
interface Market {
  currency: string;
  rate: number;
  [variantId: string]: number | string;
}

type QuoteAnswer = Partial<Quote> & { error?: { code?: string } };

/**
 * Confirms the buyer's choice (mode="order") for the order placed, for the buyer's e-mail (`customerEmail`, else the
 * page's: see emailOf): resolves with the plan's reference number, rejects with an Error whose message is the reason
 * code (not_accepted, network, http_<status> or the API's error code, e.g. customer_email_required).
 */
type Confirm = (orderId?: string, customerEmail?: string) => Promise<string>;

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
 * `unavailable`; nothing here throws or writes to the console (except diagnostics with the `debug` attribute, and
 * the one warning of a confirm refused for want of the buyer's e-mail).
 * mode="order": ticking only records the choice (`choice` event); the plan is confirmed when the order is placed —
 * the bound form is submitted, or the page calls `confirm()` — so the buyer can untick, or tick again after
 * "No thanks", until then.
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
  /**
   * The Shopify cart's market, as the theme embed writes it: the cart's `currency` (the buyer's; the quote's is the
   * shop's), each tier variant's price in it and the `rate` the highest tier's two prices imply, which turns the cart's
   * amounts into the shop's minor units. Shopify's prices, never ours, in Shopify's hundredths of the unit whatever the
   * currency's decimals (docs/shopify.md "Shopify Markets: the buyer's currency").
   */
  let market: Market | undefined;
  let latest: Attributes = {};
  /** The offer on screen (mode="order"): its confirm, and whether its box is ticked. */
  let current: Confirm | undefined;
  let ticked = false;
  /** A submit of the bound form is held for the confirm; the one the widget re-submits then passes. */
  let holding = false;
  let passing = false;
  let log: Log = () => {};
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
  const unavailable = (reason: string) => {
    log("unavailable:", reason);
    clear();
    emit("unavailable", { reason });
  };
  /** The checkout form the widget is bound to: the `form` attribute's id, else the enclosing <form>. */
  const boundForm = () => {
    const id = host!.getAttribute("form");
    return id ? document.getElementById(id) : host!.closest("form");
  };
  /**
   * The buyer's address, read when the order is placed: the one given to confirm(), else the customer-email
   * attribute, else the bound form's e-mail field (the iframe fallback: the attribute as last forwarded).
   */
  const emailOf = (given?: string) =>
    (
      given ||
      (host
        ? host.getAttribute("customer-email") ||
          // where the buyer types their address in a checkout form
          boundForm()?.querySelector<HTMLInputElement>("input[type=email],[autocomplete~=email]")?.value
        : latest["customer-email"]) ||
      ""
    ).trim();
  /** Before the first element matching `placement` (a theme's checkout button); false when there is none. */
  const place = () => {
    let target: Element | null | undefined;
    try {
      target = document.querySelector(latest.placement!);
    } catch {
      // an invalid selector: placed nowhere
    }
    if (target && target.previousElementSibling != host) target.before(host!);
    return !!target;
  };

  async function quote(config: WidgetConfig, tick?: Tick): Promise<Confirm | void> {
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
          order_id: config.orderRef,
          protection_program_id: config.program,
          currency: config.currency,
          order_name: config.orderName,
          cart_id: config.cartId,
          locale: config.locale,
        },
        uuid(),
        controller,
      );
      if (mine != generation) return;
      const offer = response.body;
      // An offer is shown only complete: price, its texts with the disclosure, and (mode="order") the token its
      // confirm needs.
      const complete = offer?.quoteId && Number.isInteger(offer.feeCents) && offer.offerTexts?.disclosure;
      if (response.status == 200 && complete && (response.token || config.mode == "cart")) {
        log("quote", offer.quoteId);
        return show(config, offer as Quote, response.token || "", tick);
      }
      reason = offer?.error?.code || (response.status == 200 ? "invalid_response" : `http_${response.status}`);
    } catch {
      if (mine != generation) return;
      reason = controller.signal.aborted ? "timeout" : "network";
    }
    unavailable(reason);
  }

  function show(config: WidgetConfig, offer: Quote, token: string, tick?: Tick) {
    const quoteId = offer.quoteId;
    const declineKey = uuid();
    /** The confirm request per buyer address, with its idempotency key: built once, so that a retry after a network
     * failure replays the same request under the same key, and a retry with an address is a request of its own. */
    const requests: Record<string, [object, string]> = {};
    let confirming: Promise<string> | undefined;
    let declined = false;
    // The store pays: the buyer is told, not asked — no box, no cart line, nothing to confirm or emit.
    if (offer.payer == "merchant")
      return void render(root, { price: "", texts: offer.offerTexts, terms: offer.termsUrl });
    // The buyer's part (the whole fee unless a split), and what its protection line costs: its tier's price.
    const fee = offer.buyerFeeCents ?? offer.feeCents;
    const tier = tierFor(tiers, fee);
    // A cart's buyer is shown what Shopify will charge for the line in the cart's currency (in Shopify's hundredths):
    // without it, no offer.
    const price = market ? (market[tier?.variantId as string] as number) : fee;
    if (cart && !(tier && price)) return unavailable("no_tier");
    const texts = offer.offerTexts;
    const view: OfferView = render(root, {
      price: formatMoney(price, (market || offer).currency, texts.locale, market && 2),
      texts,
      terms: offer.termsUrl,
      canDecline: config.mode === "order",
    });
    const chooseInCart = async (accepted: boolean) => {
      view.box.checked = accepted;
      view.busy(true, "");
      const written = await cart!.choose(accepted ? tier : undefined, quoteId);
      view.busy(false, written ? "" : texts.cartError);
      view.box.checked = accepted == written;
      return written;
    };
    /** One confirm per quote: a second call (a double submit, the page's script) gets the same answer. */
    const confirm: Confirm = (orderId = config.orderRef, given) =>
      (confirming ??= (async () => {
        view.busy(true, texts.adding);
        const email = emailOf(given);
        // Another order id than the quoted one: the quote is renewed for it (below), as the API requires.
        const result =
          orderId == config.orderRef
            ? await post<{ referenceNumber?: string; error?: { code?: string } }>(
                config.apiBase,
                config.key,
                "/offers/confirm",
                ...(requests[email] ??= [
                  {
                    quoteId,
                    quoteToken: token,
                    customer_email: email || undefined,
                    // The plan's e-mails follow the storefront's language and the buyer's clock.
                    customer_locale: config.locale,
                    customer_time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
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
                  },
                  uuid(),
                ]),
              ).catch(() => undefined)
            : ({ status: 409 } as ApiResult<never>);
        const referenceNumber = result?.status == 200 && result.body?.referenceNumber;
        if (!referenceNumber) {
          const reason = result ? result.body?.error?.code || `http_${result.status}` : "network";
          log("confirm:", reason);
          confirming = undefined;
          // Fails open and calm: the buyer sees no error (the page's order goes on), the page gets the reason.
          view.busy(false, "");
          // Written even without `debug`: a page that never gives the buyer's address sells protection nobody can claim on.
          if (reason == "customer_email_required")
            console.warn(
              `[${TAG}] Not protected: no buyer e-mail (an e-mail field, customer-email or confirm({customerEmail})).`,
            );
          // Refused (the quote expired, was used or declined meanwhile: 409): confirm a fresh quote of the same offer.
          if (tick != RENEWAL && result?.status == 409) {
            cancel();
            const renewed = await quote({ ...config, orderRef: orderId }, RENEWAL);
            if (renewed) return renewed(orderId, given);
          }
          throw new Error(reason);
        }
        log("confirmed", referenceNumber);
        confirmed = true;
        view.done(texts.confirmed.replace("{reference}", referenceNumber));
        emit("accepted", { quoteId, referenceNumber });
        return referenceNumber;
      })());
    /** mode="order": the buyer's choice, recorded; the iframe fallback cannot see the page's form: there, ticking confirms at once. */
    const choose = (accepted: boolean) => {
      ticked = accepted;
      emit("choice", { quoteId, accepted, feeCents: fee });
      if (!host && accepted) void confirm().catch(() => 0);
    };
    view.box.onchange = async () => {
      const accepted = view.box.checked;
      if (config.mode == "cart") {
        if (!cart || (await chooseInCart(accepted))) emit(accepted ? "accepted" : "declined", { quoteId });
        return;
      }
      if (!declined) return choose(accepted);
      // Ticked again after "No thanks": the declined quote cannot be confirmed, so a fresh offer is shown, ticked. (A
      // submit before it arrives confirms the declined quote: refused, 409, and renewed like any refused quote.)
      ticked = true;
      view.busy(true, "");
      cancel();
      void quote(config, TICKED);
    };
    view.onDecline = async () => {
      // A choice like the box: the order goes on unprotected, and the box can still be ticked until it is placed.
      declined = true;
      ticked = view.box.checked = false;
      view.done(texts.declined, true);
      await post(config.apiBase, config.key, "/offers/decline", { quoteId }, declineKey).catch(() => undefined);
      emit("declined", { quoteId });
    };
    view.box.checked = ticked = !!tick;
    emit("offer", { quoteId, feeCents: fee, currency: offer.currency });
    if (tick) choose(true);
    // Re-quoted while the buyer's choice stands: the line follows the new tier and the attribute the new quote.
    if (cart?.chosen) void chooseInCart(true);
    return (current = confirm);
  }

  // The bound form's submit places the order. Caught before the page's own submit listeners, held until the plan is
  // confirmed (each API call gives up after 3 s), then submitted again. A failed confirm fails open: the offer goes
  // away and the order goes on without protection.
  if (host)
    addEventListener(
      "submit",
      (event) => {
        const form = event.target as HTMLFormElement;
        if (passing || confirmed || !ticked || form != boundForm()) return;
        event.preventDefault();
        event.stopImmediatePropagation();
        // Submitted again while the confirm runs (a double click): the one held submit goes on, once.
        if (holding) return;
        holding = true;
        const submitter = (event as SubmitEvent).submitter;
        mount
          .settle()
          .catch((error: Error) => unavailable(error.message))
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
    settle: (orderId, email) => (current && ticked ? current(orderId, email) : refuse("not_accepted")),
    update(attributes, delayMs) {
      if (confirmed) return;
      cancel();
      mount.idle = false;
      latest = attributes;
      timer = setTimeout(() => {
        if (attributes.mode == "cart" && !cart && (tiers = tiersOf(attributes["fee-variants"])).length) {
          // The first quote waits for the cart's own amount and the buyer's standing choice.
          market = JSON.parse((attributes.market || 0) as string);
          cart = followCart(tiers, (amountCents) => {
            // The cart is quoted as its order will be, in the shop's minor units (no rate: NaN, no offer).
            cartAmount = `${Math.round(amountCents * market!.rate)}`;
            if (latest.placement || host?.isConnected) mount.update(latest, REQUOTE_DELAY_MS);
          });
          return;
        }
        // Nowhere to go on this page (no checkout button): nothing shown.
        if (host && attributes.placement && !place()) return clear();
        const config = readConfig(cartAmount ? { ...attributes, "amount-cents": cartAmount } : attributes, scriptUrl);
        log = logger("debug" in attributes);
        if (!config) return unavailable("config");
        void quote(config);
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
