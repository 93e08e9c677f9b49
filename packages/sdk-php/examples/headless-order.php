<?php

// The README's plain PHP example, runnable: PROTECTION_SECRET_KEY, PROTECTION_PROGRAM_ID and PROTECTION_API_BASE
// name a merchant on a running API (`npm run api`, `npm run seed:demo`), then
//   npm run php -- packages/sdk-php/examples/headless-order.php
// (Composer installs require vendor/autoload.php instead; `npm run php` prepends the SDK's autoload.php.)

declare(strict_types=1);

require_once __DIR__ . '/../autoload.php';

use PurchaseProtection\Client;
use PurchaseProtection\Exception\ServiceHttpException;

$client = new Client(
    apiKey: (string) getenv('PROTECTION_SECRET_KEY'),
    baseUri: getenv('PROTECTION_API_BASE') ?: null,
);
$orderId = 'order-' . bin2hex(random_bytes(4));

// The server path: headless quote, then confirm, keyed by the quote id. Keys in snake_case or camelCase.
$quote = $client->headless->quote([
    'order_amount_cents' => 12999,
    'order_id' => $orderId,
    'protection_program_id' => (string) getenv('PROTECTION_PROGRAM_ID'),
    'customer_email' => 'buyer@example.com',
]);
if ($quote['disclosure_text'] !== $client->headless::DISCLOSURE_PHRASE) {
    throw new UnexpectedValueException('unexpected disclosure text');
}
$plan = $client->headless->confirm(['quoteId' => $quote['quote_id']]);
echo "protected {$orderId}: {$plan['reference_number']}\n";

try {
    $refund = $client->refunds->create($orderId);
    echo "refund reported: {$refund['status']}\n";
} catch (ServiceHttpException $e) {
    error_log("{$e->httpStatus} {$e->errorCode} {$e->requestId}: {$e->getMessage()}");
    exit(1);
}

foreach ($client->purchases->all(['orderId' => $orderId]) as $purchase) {
    echo "{$purchase['referenceNumber']} {$purchase['status']}\n";
}
