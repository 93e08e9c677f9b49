// mode="cart" with `fee-variants`, on a Shopify storefront: the buyer's choice goes into the cart through the Ajax
// Cart API (the protection line and the contract's choice / quote attributes), and the widget follows cart
// changes without polling: the theme's cart events and cart calls it sees (resource timing), each answered by ONE
// read of /cart.js. Calls go to the storefront's locale root (Shopify.routes.root).
import { ACCEPTED, CHOICE_ATTRIBUTE, DECLINED, QUOTE_ATTRIBUTE, type FeeTier } from "@purchase-protection/contract";
import { TAG } from "./events.ts";
import { JSON_CONTENT } from "./host.ts";

/** `fee-variants`: JSON `[{priceCents, variantId}]` (the app config's tiers), sorted here; malformed → no tiers. */
export function tiersOf(json = ""): FeeTier[] {
  try {
    const tiers: FeeTier[] = JSON.parse(json);
    return tiers.every((tier) => tier.priceCents > 0 && /^\d+$/.test(tier.variantId))
      ? tiers.sort((a, b) => a.priceCents - b.priceCents)
      : [];
  } catch {
    return [];
  }
}

// Horizon dispatches cart:update on document; the others are common in themes and cart apps. Dawn publishes
// internally only: its /cart/* calls are seen through resource timing instead.
const CART_EVENTS = ["cart:update", "cart:updated", "cart:refresh", "cart:change"];
const CART_WRITE = /\/cart\/(add|change|update|clear)\b/;

/** The part of the storefront's /cart.js answer the widget reads (Ajax Cart API; amounts in minor units). */
interface AjaxCart {
  attributes: Record<string, string> | null;
  total_price: number;
  items: { variant_id: number; final_line_price: number }[];
}

declare global {
  interface Window {
    /** Shopify's storefront global; `routes.root` is the locale's path prefix ("/fr/"), `locale` its language. */
    Shopify?: { routes?: { root?: string }; locale?: string };
  }
}

export interface Cart {
  /** The protection line is in the cart and the choice attribute says accepted: the buyer's standing choice. */
  chosen: boolean;
  /** Puts the tier's line in the cart (none: removes it) and writes the attributes; false when the cart refused. */
  choose(tier: FeeTier | undefined, quoteId: string): Promise<boolean>;
}

/**
 * Reads the cart now and after every change; `onChange(amountCents)` when the amount without the protection line
 * or the buyer's standing choice differs from the last read. The widget's own calls are not changes.
 */
export function followCart(tiers: FeeTier[], onChange: (amountCents: number) => void): Cart {
  const root: string = window.Shopify?.routes?.root || "/";
  /** From the start to the end of the widget's own cart writes: their resource entries are not the theme's. */
  let ownFrom = 0;
  let ownTo = 0;
  let line: string | undefined;
  let amount = -1;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let queue = Promise.resolve(true);

  const call = async (path: string, body?: object) => {
    const response = await fetch(
      root + path,
      body && { method: "POST", headers: JSON_CONTENT, body: JSON.stringify(body) },
    );
    if (!response.ok) throw 0;
    return response.json();
  };

  const read = () =>
    call("cart.js")
      .then((body: AjaxCart) => {
        const attributes = body.attributes || {};
        const lines = body.items.filter((item) => tiers.some((tier) => +tier.variantId == item.variant_id));
        const amountCents = body.total_price - lines.reduce((sum, item) => sum + item.final_line_price, 0);
        const accepted = attributes[CHOICE_ATTRIBUTE] == ACCEPTED;
        line = lines[0] && `${lines[0].variant_id}`;
        // The buyer removed the line in the theme's cart, or emptied the cart around it: that is a decline.
        if (accepted && (!line || !amountCents)) void cart.choose(undefined, attributes[QUOTE_ATTRIBUTE]);
        if (amountCents != amount || (accepted && !!line) != cart.chosen) {
          amount = amountCents;
          cart.chosen = accepted && !!line;
          onChange(amountCents);
        }
      })
      .catch(() => {}); // no cart, or not Shopify's: nothing is offered

  // One read per burst: a theme usually both calls the Ajax API and dispatches an event for one change.
  // The theme embed's refresh after the widget's own write (packages/widget/README.md "The theme's cart follows") is not a change.
  const changed = (event?: Event) => {
    if ((event as CustomEvent | undefined)?.detail?.source == TAG) return;
    clearTimeout(timer);
    timer = setTimeout(read, 100);
  };
  for (const name of CART_EVENTS) document.addEventListener(name, changed);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (CART_WRITE.test(entry.name) && !(entry.startTime >= ownFrom && entry.startTime <= ownTo)) changed();
    }
  }).observe({ type: "resource" });

  const cart: Cart = {
    chosen: false,
    choose: (tier, quoteId) =>
      (queue = queue.then(async () => {
        const variantId = tier?.variantId;
        ownFrom = performance.now();
        ownTo = Infinity;
        try {
          if (line && line != variantId) {
            await call("cart/change.js", { id: +line, quantity: 0 });
            line = undefined;
          }
          if (variantId && !line) {
            await call("cart/add.js", { items: [{ id: +variantId, quantity: 1 }] });
            line = variantId;
          }
          await call("cart/update.js", {
            attributes: { [CHOICE_ATTRIBUTE]: variantId ? ACCEPTED : DECLINED, [QUOTE_ATTRIBUTE]: quoteId },
          });
          cart.chosen = !!variantId;
          return true;
        } catch {
          return false;
        } finally {
          ownTo = performance.now();
        }
      })),
  };
  read();
  return cart;
}
