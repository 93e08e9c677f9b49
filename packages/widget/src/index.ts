import { bridgeFrames } from "./frame-host.ts";
import { runFrame } from "./frame.ts";
import { serviceWidgetClass } from "./element.ts";

// Entry point of service-widget.js. Works whether the script runs before or after the elements exist. Never throws:
// a widget that cannot start renders nothing and the page carries on.
try {
  const script = document.currentScript as HTMLScriptElement | null;
  const scriptUrl = script?.src || location.href;
  if (script?.hasAttribute("data-frame")) runFrame(scriptUrl);
  else if (!window.customElements) bridgeFrames(scriptUrl);
  else if (!customElements.get("service-widget"))
    customElements.define("service-widget", serviceWidgetClass(scriptUrl));
} catch {
  // fail closed: nothing rendered, nothing thrown
}
