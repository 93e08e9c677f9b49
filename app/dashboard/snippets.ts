// The integration snippets the dashboard shows (the getting-started checklist, the Developers page), with the
// merchant's own ids filled in. Plain text builders: the server renders them and the browser copies the same text.
// A secret key is never in a snippet (it is shown once, when minted): the server snippets read it from the
// environment, PROTECTION_SECRET_KEY, as the SDK READMEs do.

export interface SnippetIds {
  /** The dashboard's origin: it serves the widget script and the API (`{origin}/api/v1`). */
  origin: string;
  /** A test publishable key (wk_test_…), or null when none in force has a value to show. */
  publishableKey: string | null;
  programId: string;
}

/** What stands in for a publishable key the page cannot show (minted before its value was kept). */
export const PUBLISHABLE_KEY_PLACEHOLDER = "wk_test_YOUR_PUBLISHABLE_KEY";

export const apiBaseOf = (origin: string) => `${origin}/api/v1`;

/**
 * The widget in a checkout form (`mode="order"`: the plan is confirmed when the form is submitted, for the form's
 * e-mail field). The script URL is absolute: the snippet goes on the merchant's own pages.
 */
export function widgetSnippet({ origin, publishableKey, programId }: SnippetIds): string {
  return [
    "<service-widget",
    `  publishable-key="${publishableKey ?? PUBLISHABLE_KEY_PLACEHOLDER}"`,
    `  program-id="${programId}"`,
    `  amount-cents="12999" currency="USD" order-id="order-1042" mode="order"></service-widget>`,
    `<script src="${origin}/widget/v1/service-widget.js" async></script>`,
  ].join("\n");
}

export function typescriptSnippet({ origin, programId }: SnippetIds): string {
  return `import { ProtectionClient } from "@purchase-protection/sdk";

const client = new ProtectionClient({
  apiKey: process.env.PROTECTION_SECRET_KEY!, // your mch_test_… key
  baseUrl: "${apiBaseOf(origin)}",
});
const quote = await client.headless.quote({
  order_amount_cents: 12999,
  order_id: "order-1042",
  protection_program_id: "${programId}",
  customer_email: "buyer@example.com",
});
// Show quote.disclosure_text and the fee; when the buyer accepts:
const plan = await client.headless.confirm({ quote_id: quote.quote_id });
console.log(plan.reference_number); // CLM-…: put it in the order e-mail`;
}

export function phpSnippet({ origin, programId }: SnippetIds): string {
  return `<?php
use PurchaseProtection\\Client;

$client = new Client(
    apiKey: (string) getenv('PROTECTION_SECRET_KEY'), // your mch_test_… key
    baseUri: '${apiBaseOf(origin)}',
);
$quote = $client->headless->quote([
    'order_amount_cents' => 12999,
    'order_id' => 'order-1042',
    'protection_program_id' => '${programId}',
    'customer_email' => 'buyer@example.com',
]);
// Show $quote['disclosure_text'] and the fee; when the buyer accepts:
$plan = $client->headless->confirm(['quote_id' => $quote['quote_id']]);
echo $plan['reference_number'], "\\n"; // CLM-…: put it in the order e-mail`;
}

export function curlSnippet({ origin, programId }: SnippetIds): string {
  return `curl ${apiBaseOf(origin)}/headless/quote \\
  -H "Authorization: Bearer $PROTECTION_SECRET_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"order_amount_cents": 12999, "order_id": "order-1042", "protection_program_id": "${programId}", "customer_email": "buyer@example.com"}'`;
}
