// The lifecycle events, frozen: `service-widget:<name>` on the <service-widget> element, bubbling and composed.
//   ready        {}                                    the element is booted and about to ask for a quote
//   offer        {quoteId, feeCents, currency}         an offer is on screen; feeCents: what the buyer pays (a split's buyer part)
//   accepted     {quoteId, referenceNumber?}           the buyer opted in (mode="cart"), or the plan is confirmed (mode="order")
//   declined     {quoteId}                             the buyer said no (or unticked, mode="cart"); mode="order": ticking again offers a fresh quote (offer, choice)
//   choice       {quoteId, accepted, feeCents}         mode="order": the box was ticked or unticked (not confirmed yet)
//   unavailable  {reason}                              nothing is shown: config, network, timeout, invalid_response, an API error code (e.g. customer_email_required) or http_<status>
// The quote token is never part of a detail.
export type EventName = "ready" | "offer" | "choice" | "accepted" | "declined" | "unavailable";
export type Emit = (name: EventName, detail: Record<string, unknown>) => void;

/** The element's tag name (one string in the bundle however often it is used). */
export const TAG = "service-widget";
export const EVENT_PREFIX = "service-widget:";

/** Dispatches one lifecycle event on the element (frozen detail, so listeners cannot change what others see). */
export function dispatch(element: Element, name: EventName, detail: Record<string, unknown>): void {
  element.dispatchEvent(
    new CustomEvent(EVENT_PREFIX + name, { detail: Object.freeze(detail), bubbles: true, composed: true }),
  );
}
