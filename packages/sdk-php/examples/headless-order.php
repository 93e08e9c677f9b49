<?php
// packages/sdk-php/README.md's plain PHP example, with the SDK's own autoloader in place of Composer's (the rest is the
// README's, kept equal by test/demo/integrator-readme.test.ts). With PROTECTION_API_BASE, PROTECTION_SECRET_KEY and
// PROTECTION_PROGRAM_ID set (`npm run demo` prints them): npm run php -- packages/sdk-php/examples/headless-order.php
require __DIR__ . '/../autoload.php';

use PurchaseProtection\Client;
use PurchaseProtection\Exception\ServiceHttpException;

$client = new Client(
    apiKey: (string) getenv('PROTECTION_SECRET_KEY'),     // mch_test_… / mch_live_… (wk_… keys: quote, confirm, decline only)
    baseUri: getenv('PROTECTION_API_BASE') ?: null,       // default http://127.0.0.1:8787/api/v1 (`npm run api`)
);
$orderId = 'order-' . bin2hex(random_bytes(4));           // your order's id

// Headless quote, then confirm, keyed by the quote id. Keys in snake_case or camelCase.
$quote = $client->headless->quote([
    'order_amount_cents' => 12999,
    'order_id' => $orderId,
    'protection_program_id' => (string) getenv('PROTECTION_PROGRAM_ID'),
    'customer_email' => 'buyer@example.com',
]);
if ($quote['disclosure_text'] !== $client->headless::DISCLOSURE_PHRASE) {  // 'This is not insurance'
    throw new UnexpectedValueException('unexpected disclosure text');
}
$plan = $client->headless->confirm(['quoteId' => $quote['quote_id']]);
echo "protected {$orderId}: {$plan['reference_number']}\n"; // CLM-2026-7KQ3M9XW: put it in the order e-mail

try {
    $refund = $client->refunds->create($orderId);        // you refunded the order: plan voided, fee share credited
    echo "refund reported: {$refund['status']}\n";       // merchant_refunded
} catch (ServiceHttpException $e) {
    error_log("{$e->httpStatus} {$e->errorCode} {$e->requestId}: {$e->getMessage()}");
    exit(1);
}

foreach ($client->purchases->all(['orderId' => $orderId]) as $purchase) {   // every page, newest first
    echo "{$purchase['referenceNumber']} {$purchase['status']}\n";
}
