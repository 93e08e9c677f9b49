import type { OfferTexts } from "@purchase-protection/contract";

// The offer's markup, built with DOM calls only (no innerHTML: works under Trusted Types and never parses API text
// as HTML). Light theme. A real checkbox with a visible label; what it covers and the disclosure are its description.

export interface OfferContent {
  /** The price shown, or "" for a merchant-paid program's notice: its label alone, no box (docs/api.md "Who pays"). */
  price: string;
  texts: OfferTexts;
  /** The rulebook's URL (the quote's termsUrl), linked only when http(s): never a script URL. */
  terms: string;
  canDecline?: boolean;
}

export interface OfferView {
  box: HTMLInputElement;
  onDecline?: () => void;
  /** Disables the controls and announces `message` in the live region. */
  busy(on: boolean, message: string): void;
  /** `message` announced and "No thanks" gone; the box stays usable when `open` (the choice is not final). */
  done(message: string, open?: boolean): void;
}

const CSS =
  ".w{color-scheme:light;margin:8px 0;padding:12px 14px;border:1px solid #ccc;border-radius:8px;background:#fff;color:#222;font:14px/1.45 system-ui,sans-serif;text-align:left}" +
  "label{display:flex;gap:10px;align-items:flex-start;font-weight:600;cursor:pointer}" +
  "input{flex:none;width:18px;height:18px;margin:1px 0 0;accent-color:#0b6b3a}" +
  "p{margin:6px 0 0 28px;color:#444}" +
  "a,button{padding:0;border:0;background:0;color:#0b57d0;font:inherit;text-decoration:underline;cursor:pointer}" +
  ":focus-visible{outline:2px solid #0b57d0;outline-offset:2px}" +
  "[role=status]:empty{display:none}";

type Child = Node | string;
function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Record<string, string> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const name in props) element.setAttribute(name, props[name]);
  element.append(...children);
  return element;
}

export function render(root: ShadowRoot | HTMLElement, content: OfferContent): OfferView {
  const box = h("input", { type: "checkbox", "aria-describedby": "sw-c sw-d" });
  const status = h("p", { role: "status" });
  const texts = content.texts;
  const decline = content.canDecline ? h("button", { type: "button" }, texts.decline) : "";
  root.replaceChildren(
    h("style", {}, CSS),
    h(
      "div",
      { class: "w", role: "group", "aria-label": texts.groupLabel, lang: texts.locale },
      h("label", {}, content.price && box, h("span", {}, texts.label.replace("{price}", content.price))),
      // What it covers in one line, then the rulebook (the quote's termsUrl: the portal's public /terms page).
      h(
        "p",
        { id: "sw-c" },
        texts.covers + " ",
        /^https?:/.test(content.terms)
          ? h("a", { href: content.terms, target: "_blank", rel: "noopener" }, texts.termsLink)
          : "",
      ),
      h("p", { id: "sw-d" }, texts.disclosure),
      decline && h("p", {}, decline),
      status,
    ),
  );
  const view: OfferView = {
    box,
    busy(on, message) {
      box.disabled = on;
      if (decline) decline.disabled = on;
      status.textContent = message;
    },
    done(message, open) {
      view.busy(!open, message);
      if (decline) decline.parentElement!.remove();
    },
  };
  if (decline) decline.onclick = () => view.onDecline?.();
  return view;
}
