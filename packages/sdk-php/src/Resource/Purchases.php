<?php

declare(strict_types=1);

namespace PurchaseProtection\Resource;

use PurchaseProtection\Internal\Casing;
use PurchaseProtection\Internal\Transport;

/** GET /purchases: protected purchases. */
final class Purchases extends Pages
{
    /** @internal */
    public function __construct(Transport $transport)
    {
        parent::__construct($transport, '/purchases');
    }

    /**
     * GET /purchases/{purchaseId}: one purchase with its consent record (what the buyer saw and agreed to).
     *
     * @return array<string, mixed>
     */
    public function retrieve(string $purchaseId): array
    {
        return $this->transport->body('GET', '/purchases/' . Transport::pathSegment('purchaseId', $purchaseId));
    }

    /**
     * POST /purchases/{purchaseId}/fee-refund: confirm that you refunded the fee of a plan the buyer cancelled in
     * its 48-hour free look (other carts). `['reference' => …]` optional. A second confirmation returns the same.
     *
     * @param array<string, mixed> $payload
     * @return array<string, mixed>
     */
    public function confirmFeeRefund(string $purchaseId, array $payload = [], ?string $idempotencyKey = null): array
    {
        $path = '/purchases/' . Transport::pathSegment('purchaseId', $purchaseId) . '/fee-refund';
        return $this->transport->body('POST', $path, body: Transport::json($payload), idempotencyKey: $idempotencyKey);
    }

    /**
     * POST /purchases/{purchaseId}/customer-email: set or correct the buyer's address (secret or restricted key);
     * the welcome e-mail goes to it. `['customer_email' => …]` (or `customerEmail`). The address the plan already
     * holds changes nothing.
     *
     * @param array<string, mixed> $payload
     * @return array<string, mixed>
     */
    public function setCustomerEmail(string $purchaseId, array $payload, ?string $idempotencyKey = null): array
    {
        $path = '/purchases/' . Transport::pathSegment('purchaseId', $purchaseId) . '/customer-email';
        return $this->transport->body(
            'POST',
            $path,
            body: Transport::json(Casing::snakeCaseKeys($payload)),
            idempotencyKey: $idempotencyKey,
        );
    }
}
