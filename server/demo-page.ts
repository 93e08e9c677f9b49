// /demo: a sample storefront checkout with <service-widget> on it (test mode, the demo merchant's keys and program),
// served with a strict Content-Security-Policy, as a merchant's page could be. The widget runs in mode="order" inside
// the checkout form: ticking only records the buyer's choice (its `choice` event) and the page adds the fee to its
// total; submitting the form ("Place order") makes the widget confirm the plan first — for the address in the form's
// e-mail field, which the widget reads — then the page posts the order (POST /demo), whose server side finds the
// widget's plan by order id (GET /api/v1/purchases) — or, when the widget's confirm failed open, confirms the quote
// itself with the secret key (POST /api/v1/headless/confirm) — and the thank-you view shows the reference number, links
// to the buyer's coverage page in the portal and says the e-mail is on its way. Ids and the event log sit behind a
// closed "Developer" toggle.
import { randomBytes, randomInt, randomUUID } from "node:crypto";
import { digitsOf, formatMoney } from "@purchase-protection/contract";
import { WIDGET_SCRIPT_PATH } from "./widget-assets.ts";
import { API_BASE_PATH } from "./http/app.ts";
import { ensureDemoMerchant } from "./demo-merchant.ts";
import type { Runtime } from "./runtime.ts";

export const DEMO_PATH = "/demo";

export interface DemoKeys {
  publishableKey: string;
  programId: string;
  /** Used only by the server, to confirm the quote when the order is placed; never written into the page. */
  secretKey: string;
  /** The buyer portal (the API's PORTAL_URL), where the thank-you view links. */
  portalUrl: string;
}

/** The protection API's handler, called in process to confirm or decline the buyer's quote. */
export interface DemoApi {
  fetch(request: Request): Response | Promise<Response>;
}

const CURRENCY = "USD";
const LOCALE = "en-US";
/** The demo buyer: the contact address the checkout form is filled in with. */
const BUYER = { name: "Alex", email: "alex.morgan@example.com" };
const CART = [
  { name: "Trail running shoes", options: "Size 9 · Slate", quantity: 1, unitCents: 12_999, tint: "#dbe7f3" },
  { name: "Merino running socks", options: "Crew · Charcoal", quantity: 2, unitCents: 1_200, tint: "#efe3d3" },
];
const SUBTOTAL_CENTS = CART.reduce((sum, line) => sum + line.quantity * line.unitCents, 0);
const money = (minor: number) => formatMoney(minor, CURRENCY, LOCALE);

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** JSON inside an inline script: no "</script>" can end it early. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

// The widget's box is reserved (service-widget's min-height: the offer's height at this page's widths), so that the
// offer appearing after its quote moves nothing below it: a layout shift (bench:storefront, packages/widget/README.md "Widget").
// The head's render-blocking <link rel="expect"> holds the first paint until the parser reaches the footer, the checkout
// parsed whole: a slow machine would otherwise paint a half-parsed line (a lock icon alone, then moved by its text).
const CSS = `
*,*::before,*::after{box-sizing:border-box}
[hidden]{display:none!important}
body{margin:0;background:#f4f5f7;color:#1b1f24;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
h1,h2,h3{margin:0;line-height:1.25}
h1{font-size:24px}
h2{font-size:17px}
.wrap{max-width:1040px;margin:0 auto;padding:0 20px}
.bar{background:#fff;border-bottom:1px solid #dfe3e8}
.bar-in{display:flex;align-items:center;justify-content:space-between;gap:12px;min-height:64px}
.brand{font-size:20px;font-weight:700;letter-spacing:-.01em}
.secure{display:flex;align-items:center;gap:6px;color:#3d444d;font-size:14px}
.secure svg{flex:none}
.test{margin:0;padding:8px 20px;background:#fff4d6;color:#5c4400;font-size:13px;text-align:center}
.grid{display:grid;gap:20px;padding-top:24px;padding-bottom:32px}
@media (min-width:900px){.grid{grid-template-columns:minmax(0,1fr) minmax(0,420px);align-items:start;gap:32px;padding-top:32px}}
.panel{background:#fff;border:1px solid #dfe3e8;border-radius:12px;padding:20px}
.panel>h1,.panel>h2{margin-bottom:12px}
.facts{margin:0}
.facts>div{display:grid;gap:2px;padding:12px 0;border-top:1px solid #eceff2}
@media (min-width:520px){.facts>div{grid-template-columns:120px minmax(0,1fr);gap:12px}}
.facts dt{color:#4b535d}
.facts dd{margin:0}
.items{list-style:none;margin:0;padding:0}
.item{display:flex;align-items:center;gap:12px;padding:8px 0}
.thumb{position:relative;flex:none;width:56px;height:56px;border:1px solid #dfe3e8;border-radius:10px}
.qty{position:absolute;top:-8px;right:-8px;min-width:22px;height:22px;padding:0 6px;border-radius:11px;background:#4b535d;color:#fff;font-size:12px;font-weight:600;line-height:22px;text-align:center}
.item-text{flex:1;min-width:0}
.item-name{display:block;font-weight:600}
.muted{color:#4b535d;font-size:13px}
.amount{flex:none;font-variant-numeric:tabular-nums}
.totals{margin:12px 0 0;border-top:1px solid #eceff2;padding-top:8px}
.row{display:flex;justify-content:space-between;align-items:baseline;gap:12px;padding:4px 0}
.row dt{margin:0}
.row dd{margin:0;font-variant-numeric:tabular-nums;text-align:right}
.row.total{margin-top:6px;padding-top:12px;border-top:1px solid #eceff2;font-size:18px;font-weight:700}
.code{margin-right:6px;color:#4b535d;font-size:12px;font-weight:400}
service-widget{display:block;min-height:190px;margin:16px 0 4px}
@media (min-width:600px) and (max-width:899px){service-widget{min-height:150px}}
@media (max-width:399px){service-widget{min-height:230px}}
@media (max-width:379px){service-widget{min-height:250px}}
@media (max-width:340px){service-widget{min-height:270px}}
.pay{display:block;width:100%;min-height:50px;margin-top:12px;border:0;border-radius:10px;background:#0b6b3a;color:#fff;font:inherit;font-size:16px;font-weight:600;cursor:pointer}
.pay:hover{background:#09592f}
.pay:focus-visible{outline:3px solid #0b57d0;outline-offset:2px}
.pay:disabled{background:#4b535d;cursor:progress}
.error{margin:10px 0 0;color:#a4262c}
.field{width:100%;max-width:340px;min-height:40px;padding:8px 10px;border:1px solid #8c959f;border-radius:8px;background:#fff;color:inherit;font:inherit}
.field:focus-visible{outline:2px solid #0b57d0;outline-offset:1px}
.error:empty{display:none}
.fine{margin:12px 0 0;color:#4b535d;font-size:13px;text-align:center}
.done-mark{display:flex;align-items:center;gap:12px;margin-bottom:12px}
.done-mark h1:focus{outline:none}
.note{margin:12px 0 0;padding:12px 14px;border-radius:8px;background:#eef6f1;border:1px solid #c5e0cf}
.ref{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-weight:700;letter-spacing:.02em;white-space:nowrap}
.note p{margin:0}
.note p+p{margin-top:8px}
.note a{color:#0b57d0;font-weight:600}
footer{padding-bottom:40px}
.dev{border:1px solid #dfe3e8;border-radius:12px;background:#fff}
.dev summary{padding:12px 16px;cursor:pointer;color:#3d444d;font-size:14px;font-weight:600}
.dev summary:focus-visible{outline:2px solid #0b57d0;outline-offset:2px}
.dev-body{padding:0 16px 16px;font-size:13px}
.dev-body p{margin:0 0 10px}
.ids{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:4px 12px;margin:0 0 12px}
.ids dt{color:#4b535d}
.ids dd{margin:0;overflow-wrap:anywhere}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12px}
pre{margin:0;min-height:3em;background:#f6f8fa;border:1px solid #eceff2;padding:10px;border-radius:8px;white-space:pre-wrap;overflow-wrap:anywhere}
`;

const lock = (size: number) =>
  `<svg width="${size}" height="${size}" viewBox="0 0 16 16" aria-hidden="true" focusable="false"><path fill="currentColor" d="M4 7V5a4 4 0 1 1 8 0v2h.5c.8 0 1.5.7 1.5 1.5v5c0 .8-.7 1.5-1.5 1.5h-9C2.7 15 2 14.3 2 13.5v-5C2 7.7 2.7 7 3.5 7H4Zm2 0h4V5a2 2 0 1 0-4 0v2Z"/></svg>`;
const CHECK = `<svg width="36" height="36" viewBox="0 0 36 36" aria-hidden="true" focusable="false"><circle cx="18" cy="18" r="17" fill="none" stroke="#0b6b3a" stroke-width="2"/><path d="m11 18.5 5 5 9-10" fill="none" stroke="#0b6b3a" stroke-width="2.5" stroke-linecap="round" stroke-linejoin="round"/></svg>`;

function lineItem(line: (typeof CART)[number]): string {
  return `<li class="item"><span class="thumb" style="background:${line.tint}" aria-hidden="true"><span class="qty">${line.quantity}</span></span>
<span class="item-text"><span class="item-name">${escape(line.name)}</span><span class="muted">${escape(line.options)} · Qty ${line.quantity}</span></span>
<span class="amount">${money(line.quantity * line.unitCents)}</span></li>`;
}

// The page's script formats money with the contract's own formatMoney, as the widget does: its source inlined with
// what it calls (digitsOf, the one rule of a currency's decimals).
function pageScript(orderId: string): string {
  return `const digitsOf = ${String(digitsOf)};
const formatMoney = ${String(formatMoney)};
const [DEMO_PATH, CURRENCY, LOCALE, ORDER_ID] = ${scriptJson([DEMO_PATH, CURRENCY, LOCALE, orderId])};
const $ = (id) => document.getElementById(id);
const subtotal = Number($("subtotal").dataset.amount);
let offer; // the widget's current offer: {quoteId, feeCents}
let protect = false;
const log = (line) => ($("events").textContent += line + "\\n");
function setAmount(element, minor) {
  element.dataset.amount = String(minor);
  element.textContent = formatMoney(minor, CURRENCY, LOCALE);
}
function render() {
  const fee = protect && offer ? offer.feeCents : 0;
  $("protection-row").hidden = !(protect && offer);
  setAmount($("protection-fee"), fee);
  setAmount($("total"), subtotal + fee);
}
const on = {
  offer(detail) {
    offer = { quoteId: detail.quoteId, feeCents: detail.feeCents };
    $("dev-quote").textContent = detail.quoteId;
  },
  choice: (detail) => (protect = detail.accepted),
  declined: () => (protect = false),
  unavailable: () => ((offer = undefined), (protect = false)),
};
for (const name of ["ready", "offer", "choice", "accepted", "declined", "unavailable"]) {
  document.addEventListener("service-widget:" + name, (event) => {
    log(name + " " + JSON.stringify(event.detail));
    on[name]?.(event.detail);
    render();
  });
}
// The widget (bound to this form) has confirmed the plan before this submit reaches the page.
$("checkout-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const button = $("place-order");
  button.disabled = true;
  button.textContent = "Placing order…";
  $("order-error").textContent = "";
  const email = $("email").value.trim();
  const choice = offer ? { quoteId: offer.quoteId, protect, orderId: ORDER_ID, email } : {};
  let status = 0, answer = {};
  try {
    const response = await fetch(DEMO_PATH, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(choice) });
    status = response.status;
    answer = await response.json();
  } catch (error) {
    answer = { error: { message: String(error) } };
  }
  log("place order " + JSON.stringify(choice) + " → " + (status || "network") + " " + JSON.stringify(answer));
  if (status !== 200) {
    button.disabled = false;
    button.textContent = "Place order";
    $("order-error").textContent = answer.error?.code === "quote_expired"
      ? "The protection offer has expired. Reload the page to see a new one."
      : "Your order could not be placed. Please try again.";
    return;
  }
  document.querySelector("service-widget").remove();
  button.remove();
  $("fine-print").remove();
  $("checkout").hidden = true;
  $("confirmation").hidden = false;
  for (const element of document.querySelectorAll(".buyer-email")) element.textContent = email;
  if (answer.referenceNumber) {
    $("reference").textContent = answer.referenceNumber;
    $("dev-reference").textContent = answer.referenceNumber;
    $("coverage-link").href = answer.coverageUrl;
    $("protected-note").hidden = false;
  }
  $("confirmation-heading").focus();
});
`;
}

function demoPageHtml(keys: DemoKeys, nonce: string, orderId = `demo-${randomUUID()}`): string {
  const orderName = `#${randomInt(1001, 10_000)}`;
  return `<!doctype html>
<html lang="${LOCALE}">
<head>
<meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Checkout · Demo Store</title><link rel="icon" href="data:,">
<link rel="expect" href="#page-footer" blocking="render">
<style>${CSS}</style>
</head>
<body>
<header class="bar">
<div class="wrap bar-in"><span class="brand">Demo Store</span><span class="secure">${lock(16)}Secure checkout</span></div>
<p class="test">Test mode: no payment is taken and nothing ships.</p>
</header>
<main class="wrap">
<form class="grid" id="checkout-form" method="post" action="${DEMO_PATH}">
<section class="panel" id="checkout" aria-labelledby="checkout-heading">
<h1 id="checkout-heading">Checkout</h1>
<dl class="facts">
<div><dt><label for="email">Contact e-mail</label></dt><dd><input class="field" id="email" name="email" type="email" autocomplete="email" required value="${BUYER.email}"></dd></div>
<div><dt>Ship to</dt><dd>Alex Morgan, 12 Harbor Street, Portland, OR 97204, United States</dd></div>
<div><dt>Delivery</dt><dd>Standard · 3–5 business days · Free</dd></div>
<div><dt>Payment</dt><dd>Test card ending in 4242</dd></div>
</dl>
</section>
<section class="panel" id="confirmation" aria-labelledby="confirmation-heading" hidden>
<div class="done-mark">${CHECK}<h1 id="confirmation-heading" tabindex="-1">Thank you, ${BUYER.name}!</h1></div>
<p>Your order <strong id="order-name">${orderName}</strong> is confirmed. We'll e-mail <span class="buyer-email"></span> when it ships.</p>
<div class="note" id="protected-note" hidden>
<p>Purchase protection is active. Your reference number is <span class="ref" id="reference"></span>.</p>
<p>An e-mail with your protection details is on its way to <span class="buyer-email"></span>.</p>
<p><a id="coverage-link" href="">View your protection</a>: what it covers, and where to ask for a refund if something goes wrong.</p>
</div>
</section>
<section class="panel" aria-labelledby="summary-heading">
<h2 id="summary-heading">Order summary</h2>
<ul class="items">
${CART.map(lineItem).join("\n")}
</ul>
<dl class="totals">
<div class="row"><dt>Subtotal</dt><dd id="subtotal" data-amount="${SUBTOTAL_CENTS}">${money(SUBTOTAL_CENTS)}</dd></div>
<div class="row"><dt>Shipping</dt><dd>Free</dd></div>
<div class="row" id="protection-row" hidden><dt>Purchase protection</dt><dd id="protection-fee" data-amount="0">${money(0)}</dd></div>
<div class="row total"><dt>Total</dt><dd><span class="code">${CURRENCY}</span><span id="total" data-amount="${SUBTOTAL_CENTS}" aria-live="polite">${money(SUBTOTAL_CENTS)}</span></dd></div>
</dl>
<service-widget publishable-key="${escape(keys.publishableKey)}" program-id="${escape(keys.programId)}"
  amount-cents="${SUBTOTAL_CENTS}" currency="${CURRENCY}" order-id="${escape(orderId)}" order-name="${orderName}"
  mode="order"></service-widget>
<button class="pay" id="place-order" type="submit">Place order</button>
<p class="error" id="order-error" role="alert"></p>
<p class="fine" id="fine-print">${lock(12)} Test mode: this demo charges nothing.</p>
</section>
</form>
</main>
<footer class="wrap" id="page-footer">
<details class="dev" id="developer">
<summary>Developer</summary>
<div class="dev-body">
<p><code>&lt;service-widget mode="order"&gt;</code> in the checkout form: ticking records the buyer's choice; submitting
the form confirms the plan from the widget, for the address in the form's e-mail field, then places the order. Without
protection the server declines the quote (<code>POST ${API_BASE_PATH}/headless/decline</code> with the demo merchant's
secret key).</p>
<dl class="ids">
<dt>Order id</dt><dd><code>${escape(orderId)}</code></dd>
<dt>Program</dt><dd><code>${escape(keys.programId)}</code></dd>
<dt>Quote</dt><dd><code id="dev-quote">–</code></dd>
<dt>Reference</dt><dd><code id="dev-reference">–</code></dd>
</dl>
<h2 class="muted">Widget events and API answers</h2>
<pre id="events" aria-live="polite"></pre>
</div>
</details>
</footer>
<script nonce="${nonce}">
${pageScript(orderId)}</script>
<script src="${WIDGET_SCRIPT_PATH}" async></script>
</body>
</html>
`;
}

const QUOTE_ID = /^[A-Za-z0-9_-]{1,128}$/;
const ORDER_ID = /^[A-Za-z0-9_-]{1,255}$/;
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
  });

/** The buyer's coverage page: the confirm's coverageUrl (server/domain/plans.ts), the look-up with the reference in. */
const coverageUrl = (keys: DemoKeys, referenceNumber: string) =>
  `${keys.portalUrl}/coverage/${encodeURIComponent(referenceNumber)}`;

/**
 * POST /demo, "Place order": `{quoteId, protect, orderId?, email?}`. Protected: the plan the widget confirmed for the
 * order id (found with the secret key), else — the widget's confirm failed open — the quote confirmed here for the
 * buyer's `email`. Not protected: the quote declined (a refused decline still places the order: `{declineRefused}`).
 * `{}` (no offer was shown) places the order without protection. Answers `{referenceNumber?, coverageUrl?}` or the
 * API's error.
 */
async function placeOrder(request: Request, keys: DemoKeys, api: DemoApi): Promise<Response> {
  const choice = (await request.json().catch(() => undefined)) as
    { quoteId?: unknown; protect?: unknown; orderId?: unknown; email?: unknown } | undefined;
  if (!choice || typeof choice !== "object" || Array.isArray(choice))
    return json(400, { error: { message: "Expected a JSON object." } });
  if (choice.quoteId === undefined) return json(200, {});
  if (
    typeof choice.quoteId !== "string" ||
    !QUOTE_ID.test(choice.quoteId) ||
    typeof choice.protect !== "boolean" ||
    (choice.orderId !== undefined && (typeof choice.orderId !== "string" || !ORDER_ID.test(choice.orderId))) ||
    (choice.email !== undefined && typeof choice.email !== "string")
  )
    return json(400, {
      error: { message: "Expected {quoteId: string, protect: boolean, orderId?: string, email?: string}." },
    });
  if (choice.protect && choice.orderId) {
    const listed = await api.fetch(
      new Request(
        new URL(`${API_BASE_PATH}/purchases?order_id=${encodeURIComponent(choice.orderId)}&status=active`, request.url),
        { headers: { Authorization: `Bearer ${keys.secretKey}` } },
      ),
    );
    const page = (await listed.json().catch(() => ({}))) as { data?: { referenceNumber: string }[] };
    const confirmed = listed.status === 200 && page.data?.[0];
    if (confirmed)
      return json(200, {
        referenceNumber: confirmed.referenceNumber,
        coverageUrl: coverageUrl(keys, confirmed.referenceNumber),
      });
  }
  const action = choice.protect ? "confirm" : "decline";
  const answer = await api.fetch(
    new Request(new URL(`${API_BASE_PATH}/headless/${action}`, request.url), {
      method: "POST",
      headers: {
        Authorization: `Bearer ${keys.secretKey}`,
        "Content-Type": "application/json",
        // One key per quote and choice: placing the order again after a lost answer replays it.
        "Idempotency-Key": `demo-${action}-${choice.quoteId}`,
      },
      body: JSON.stringify({
        quote_id: choice.quoteId,
        ...(choice.protect && choice.email ? { customer_email: choice.email } : {}),
      }),
    }),
  );
  const body = (await answer.json().catch(() => ({}))) as { reference_number?: string; error?: unknown };
  const error = body.error ?? { message: `HTTP ${answer.status}` };
  // Protection never blocks a checkout: an order without it is placed even when the decline is refused — the widget's
  // "No thanks" already declined the quote (409 quote_declined), or it expired. The page's event log shows why.
  if (action === "decline") return json(200, answer.status === 200 ? {} : { declineRefused: error });
  if (answer.status !== 200) return json(answer.status, { error });
  return json(200, { referenceNumber: body.reference_number, coverageUrl: coverageUrl(keys, body.reference_number!) });
}

/** The /demo response (the page, or "Place order" on POST), or undefined for any other path or method. */
export async function demoPageResponse(
  request: Request,
  keys: () => Promise<DemoKeys>,
  api: DemoApi,
): Promise<Response | undefined> {
  if (new URL(request.url).pathname !== DEMO_PATH) return undefined;
  if (request.method === "POST") return placeOrder(request, await keys(), api);
  if (request.method !== "GET" && request.method !== "HEAD") return undefined;
  const nonce = randomBytes(16).toString("base64");
  const html = demoPageHtml(await keys(), nonce);
  return new Response(request.method === "HEAD" ? null : html, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy": `default-src 'none'; script-src 'self' 'nonce-${nonce}'; connect-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'self'`,
    },
  });
}

const seeded = new WeakMap<object, Promise<DemoKeys>>();

/** The demo merchant of this runtime's database, created on first use (test mode only; see server/demo-merchant.ts). */
export function demoKeysFor(runtime: Runtime): () => Promise<DemoKeys> {
  return () => {
    let keys = seeded.get(runtime);
    if (!keys) {
      keys = ensureDemoMerchant(
        runtime.db,
        runtime.services,
        runtime.config.DATA_DIR,
        runtime.config.DATABASE_URL,
      ).then((merchant) => ({ ...merchant, portalUrl: runtime.config.PORTAL_URL }));
      keys.catch(() => seeded.delete(runtime));
      seeded.set(runtime, keys);
    }
    return keys;
  };
}
