// Renders per second of the welcome e-mail (server/email/layout.ts), in this process: compiling the whole MJML
// document for each message (how every e-mail was rendered before issue 29) against filling the escaped texts into
// the skeleton compiled once. Run: node bench/email-render.ts [seconds per side, default 5]
import { MJML_OPTIONS, mjmlDocument, renderEmail, type EmailContext } from "../server/email/layout.ts";
import { mjml2html } from "../server/email/mjml.ts";
import { welcomeProtected } from "../server/email/welcome-protected.ts";

const seconds = Number(process.argv[2] ?? 5);
const NOW = Date.UTC(2026, 10, 27, 14, 5);

/** A welcome e-mail per order, as the Shopify bench sends them: each with its own order and reference. */
function contextFor(order: number): EmailContext {
  const referenceNumber = `CLM-2026-${String(order).padStart(8, "0")}`;
  return {
    plan: {
      referenceNumber,
      orderId: `gid://shopify/Order/${order}`,
      orderName: `#${1000 + order}`,
      status: "active",
      currency: "USD",
      payer: "buyer",
      buyerFeeCents: 370,
      coveredAmountCents: 12_999,
      purchasedAt: NOW,
      freeLookEndsAt: NOW + 48 * 3600_000,
      cancelledAt: null,
      hasBuyerEmail: true,
      merchantName: "Harbour Lane Ceramics & Co.",
      refundChannel: "shopify",
      feeRefundChannel: "shopify",
    },
    settings: { companyName: "Acme Guarantee Ltd.", portalUrl: "https://portal.example.test/portal" },
    coverageLink: `https://portal.example.test/portal/coverage/${referenceNumber}?token=1796000000.${"x".repeat(43)}`,
  };
}

async function rendersPerSecond(render: (context: EmailContext) => Promise<string>): Promise<number> {
  await render(contextFor(0)); // loads MJML, compiles the skeleton
  const started = performance.now();
  let renders = 0;
  while (performance.now() - started < seconds * 1000) await render(contextFor(++renders));
  return renders / ((performance.now() - started) / 1000);
}

const fullCompile = async (context: EmailContext) =>
  (
    await mjml2html(
      mjmlDocument(welcomeProtected(context)!, context, (escapedHtml) => escapedHtml),
      MJML_OPTIONS,
    )
  ).html;
const skeleton = async (context: EmailContext) => (await renderEmail(welcomeProtected(context)!, context)).html;

const before = await rendersPerSecond(fullCompile);
const after = await rendersPerSecond(skeleton);
console.log(
  `welcome e-mail, ${seconds} s each: full MJML compile ${before.toFixed(0)} renders/s; compiled skeleton ${after.toFixed(0)} renders/s (${(after / before).toFixed(1)}x)`,
);
