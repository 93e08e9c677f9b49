<?php

declare(strict_types=1);

namespace PurchaseProtection\Resource;

use PurchaseProtection\Internal\Transport;

/** POST /orders/{orderId}/refund: report that the merchant refunded a protected order (secret key). */
final class Refunds
{
    /** @internal */
    public function __construct(private readonly Transport $transport)
    {
    }

    /**
     * `$payload` is reserved by the API (send nothing or []): the plan is voided, the fee share credited, and no
     * second consumer refund is issued.
     *
     * @param array<string, mixed> $payload
     * @return array<string, mixed>
     */
    public function create(string $orderId, array $payload = [], ?string $idempotencyKey = null): array
    {
        $path = '/orders/' . Transport::pathSegment('orderId', $orderId) . '/refund';
        return $this->transport->body('POST', $path, body: Transport::json($payload), idempotencyKey: $idempotencyKey);
    }
}
