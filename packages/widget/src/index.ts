import { bridgeFrames } from "./frame-host.ts";
import { serviceWidgetClass } from "./element.ts";
import { TAG } from "./events.ts";

// Entry point of service-widget.js (the hosted frame page runs frame-entry.ts, built to frame.js). Works whether the script runs before or after the elements exist. Never throws:
// a widget that cannot start renders nothing and the page carries on.
try {
  const script = document.currentScript as HTMLScriptElement | null;
  const scriptUrl = script?.src || location.href;
  if (!window.customElements) bridgeFrames(scriptUrl);
  else if (!customElements.get(TAG)) customElements.define(TAG, serviceWidgetClass(scriptUrl));
} catch {
  // fail closed: nothing rendered, nothing thrown
}
