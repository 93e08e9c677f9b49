// What an order shows of the buyer's choice of protection when its pieces disagree: the choice attribute (written by
// the widget or the checkout block when the buyer ticks the offer), the checkout block's choice metafield copied from
// the cart, and the protection line (docs/shopify.md "When the opt-in and the protection line disagree"). A plan is
// made only on evidence of the buyer's own act, never on what a merchant put on the order; a protection unit no plan
// stands behind is refunded.
import { ACCEPTED, DECLINED } from "@purchase-protection/contract";
import type { ConsentEvidence } from "../../server/index.ts";

/**
 * Where Shopify says an order came from when the merchant, not the buyer, composed it: a draft order (staff in the
 * admin, a B2B order submitted for review) or the point of sale. Its lines and attributes are the merchant's.
 */
const MERCHANT_COMPOSED_SOURCES: readonly string[] = ["shopify_draft_order", "pos"];

export interface OrderChoiceFacts {
  /** The order's choice attribute, if any. */
  attribute: string | undefined;
  /** Units of the protection product on the order, over all its lines. */
  protectionUnits: number;
  /** The order's source_name. */
  sourceName: string | null | undefined;
}

export type OrderConsent =
  | { protect: true; evidence: ConsentEvidence[] }
  /** No plan; `refundUnits`: whether protection units are on the order and must be refunded. */
  | { protect: false; refundUnits: boolean };

/**
 * The order's consent. `checkoutChoice` reads the checkout block's metafield from the order (an Admin API call): asked
 * only when the attribute cannot settle it.
 */
export async function orderConsent(
  facts: OrderChoiceFacts,
  checkoutChoice: () => Promise<string | undefined>,
): Promise<OrderConsent> {
  const accepted = acceptedByAttribute(facts);
  if (accepted) return { protect: true, evidence: accepted };
  const line = facts.protectionUnits > 0;
  const none: OrderConsent = { protect: false, refundUnits: line };
  if (MERCHANT_COMPOSED_SOURCES.includes(facts.sourceName ?? "")) {
    // Only the checkout block's metafield is the buyer's: no merchant or other app can write the app's namespace.
    if (!line && facts.attribute === undefined) return none;
    return (await checkoutChoice()) === ACCEPTED
      ? { protect: true, evidence: withLine(facts, ["checkout_metafield"]) }
      : none;
  }
  if (facts.attribute === DECLINED || !line) return none;
  // A line without the attribute (an accelerated checkout dropped it): the buyer put the priced line in the cart
  // through the widget or the checkout block; the checkout block's metafield, when there, says what they last chose.
  const choice = await checkoutChoice();
  if (choice === DECLINED) return none;
  return {
    protect: true,
    evidence: choice === ACCEPTED ? ["checkout_metafield", "protection_line"] : ["protection_line"],
  };
}

/**
 * The evidence when the order's choice attribute accepted the offer on an order the buyer composed: the attribute is
 * the surfaces' last word (the checkout block rewrites the cart's), so it settles the choice with no Admin API call.
 * Undefined when it does not.
 */
export function acceptedByAttribute(facts: OrderChoiceFacts): ConsentEvidence[] | undefined {
  if (facts.attribute !== ACCEPTED || MERCHANT_COMPOSED_SOURCES.includes(facts.sourceName ?? "")) return undefined;
  return withLine(facts, ["choice_attribute"]);
}

/** The evidence, with the protection line's when the order has one. */
function withLine(facts: OrderChoiceFacts, evidence: ConsentEvidence[]): ConsentEvidence[] {
  return facts.protectionUnits > 0 ? [...evidence, "protection_line"] : evidence;
}
