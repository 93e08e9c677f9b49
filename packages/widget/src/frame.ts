import { mountOffer, REQUOTE_DELAY_MS, type Mount } from "./offer.ts";

// Inside /widget/v1/frame.html: the embedding page's origin comes in the URL fragment; configuration is accepted
// only from the parent window at exactly that origin, and events and height go only to that origin.

export function runFrame(scriptUrl: string): void {
  const parentOrigin = decodeURIComponent(location.hash.slice(1));
  if (parent === window || !/^https?:\/\/[^/]+$/.test(parentOrigin)) return;
  const root = document.body;
  const tell = (message: object) => parent.postMessage(message, parentOrigin);
  let mount: Mount | undefined;
  addEventListener("message", (event) => {
    if (event.source !== parent || event.origin !== parentOrigin || !event.data?.sw) return;
    const first = !mount;
    mount ??= mountOffer(root, scriptUrl, (name, detail) => tell({ event: name, detail }));
    if (first) tell({ event: "ready", detail: {} });
    mount.update(event.data.sw, first ? 0 : REQUOTE_DELAY_MS);
  });
  new ResizeObserver(() => tell({ height: root.scrollHeight })).observe(root);
}
