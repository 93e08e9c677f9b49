import { runFrame } from "./frame.ts";

// Entry point of frame.js, the script of the hosted frame page /widget/v1/frame.html (the iframe fallback): built
// apart from service-widget.js, whose 10,000-byte budget only the page's side of the bridge has to share.
try {
  runFrame((document.currentScript as HTMLScriptElement).src);
} catch {
  // fail closed: nothing rendered, nothing thrown
}
