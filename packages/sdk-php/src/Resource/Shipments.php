<?php

declare(strict_types=1);

namespace PurchaseProtection\Resource;

use PurchaseProtection\Internal\Casing;
use PurchaseProtection\Internal\Transport;

/**
 * Delivery facts of protected orders (docs/api.md "Delivery facts"): report a shipment and its carriers' scans (secret
 * key), read an order's shipments with their derived states (secret or restricted key).
 */
final class Shipments
{
    /** @internal */
    public function __construct(private readonly Transport $transport)
    {
    }

    /**
     * POST /orders/{orderId}/shipments: carrier, tracking_number, promised_delivery_date (YYYY-MM-DD, optional), in
     * either spelling. The same tracking number again is the same shipment.
     *
     * @param array<string, mixed> $payload
     * @return array<string, mixed>
     */
    public function create(string $orderId, array $payload, ?string $idempotencyKey = null): array
    {
        $path = '/orders/' . Transport::pathSegment('orderId', $orderId) . '/shipments';
        return $this->transport->body('POST', $path, body: Transport::json(Casing::camelCaseKeys($payload)), idempotencyKey: $idempotencyKey);
    }

    /**
     * POST /shipments/{shipmentId}/events: a carrier's scan (status, occurred_at in ISO 8601 UTC, location and message
     * optional). The same status at the same time again changes nothing.
     *
     * @param array<string, mixed> $payload
     * @return array<string, mixed>
     */
    public function createEvent(string $shipmentId, array $payload, ?string $idempotencyKey = null): array
    {
        $path = '/shipments/' . Transport::pathSegment('shipmentId', $shipmentId) . '/events';
        return $this->transport->body('POST', $path, body: Transport::json(Casing::camelCaseKeys($payload)), idempotencyKey: $idempotencyKey);
    }

    /**
     * GET /orders/{orderId}/delivery: the order's shipments with their scans and states, and the order's state.
     *
     * @return array<string, mixed>
     */
    public function orderDelivery(string $orderId): array
    {
        return $this->transport->body('GET', '/orders/' . Transport::pathSegment('orderId', $orderId) . '/delivery');
    }
}
