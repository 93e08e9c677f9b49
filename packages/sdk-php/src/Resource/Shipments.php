<?php

declare(strict_types=1);

namespace PurchaseProtection\Resource;

use PurchaseProtection\Internal\Casing;
use PurchaseProtection\Internal\Transport;

/**
 * Delivery facts of protected orders (docs/api.md "Delivery facts"): report a shipment and its carriers' scans (secret
 * key), or connect AfterShip to report the scans (docs/api.md "Tracking callbacks"), read an order's shipments with
 * their derived states (secret or restricted key).
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
     * POST /tracking/aftership: connect your AfterShip account for the key's mode (secret key) with its webhook secret,
     * kept sealed and never shown again. Give AfterShip the answer's callbackPath on the API's host as its webhook URL:
     * its tracking updates of the shipments you reported become their scans (docs/api.md "Tracking callbacks").
     *
     * @return array<string, mixed>
     */
    public function connectAftership(string $secret, ?string $idempotencyKey = null): array
    {
        return $this->transport->body('POST', '/tracking/aftership', body: Transport::json(['secret' => $secret]), idempotencyKey: $idempotencyKey);
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
