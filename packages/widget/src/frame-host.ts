import { apiBaseOf, ATTRIBUTES, attributesOf } from "./config.ts";
import { dispatch, TAG, type EventName } from "./events.ts";
import { pageLocale } from "./host.ts";

// Fallback for pages without customElements: each <service-widget> gets an iframe of the hosted frame page
// (/widget/v1/frame.html on the API's host), which runs the same widget. The snippet is unchanged. Messages are
// accepted only from that iframe's window and the exact frame origin; config is posted only to that origin.

export const FRAME_PATH = "/widget/v1/frame.html";

export function bridgeFrames(scriptUrl: string): void {
  const bridged = new WeakSet<Element>();
  const scan = () => {
    for (const element of document.querySelectorAll(TAG)) {
      if (!bridged.has(element)) {
        bridged.add(element);
        bridge(element, scriptUrl);
      }
    }
  };
  scan();
  new MutationObserver(scan).observe(document.documentElement, { childList: true, subtree: true });
}

function bridge(element: Element, scriptUrl: string) {
  const attributes = attributesOf(element);
  const url = new URL(FRAME_PATH, apiBaseOf(attributes, scriptUrl));
  const origin = url.origin;
  const frame = document.createElement("iframe");
  frame.title = "Purchase protection";
  frame.src = `${url.href}#${encodeURIComponent(location.origin)}`;
  frame.style.cssText = "display:block;width:100%;height:0;border:0";
  // The frame's own page has no language: the storefront's goes along (an element's `locale` still wins).
  const send = () =>
    frame.contentWindow?.postMessage({ sw: { locale: pageLocale(), ...attributesOf(element) } }, origin);
  frame.onload = send;
  new MutationObserver(send).observe(element, { attributes: true, attributeFilter: ATTRIBUTES });
  addEventListener("message", (event) => {
    const data = event.data;
    if (event.source != frame.contentWindow || event.origin != origin || !data || typeof data != "object") return;
    if (typeof data.height == "number") frame.style.height = `${data.height}px`;
    if (typeof data.event == "string") dispatch(element, data.event as EventName, { ...data.detail });
  });
  element.append(frame);
}
