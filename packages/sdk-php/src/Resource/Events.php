<?php

declare(strict_types=1);

namespace PurchaseProtection\Resource;

use PurchaseProtection\Internal\Casing;
use PurchaseProtection\Internal\Transport;

/** GET /events: the event log behind webhooks (secret key). */
final class Events extends Pages
{
    /** @internal */
    public function __construct(Transport $transport)
    {
        parent::__construct($transport, '/events');
    }

    /** @return array<string, mixed> */
    public function retrieve(string $eventId): array
    {
        return $this->transport->body('GET', '/events/' . Transport::pathSegment('eventId', $eventId));
    }

    /**
     * Queue the event again for every subscribed endpoint that is not disabled, or for `endpointId` alone.
     *
     * @param array<string, mixed> $payload
     * @return array<string, mixed>
     */
    public function redeliver(string $eventId, array $payload = [], ?string $idempotencyKey = null): array
    {
        $path = '/events/' . Transport::pathSegment('eventId', $eventId) . '/redeliver';
        return $this->transport->body('POST', $path, body: Transport::json(Casing::snakeCaseKeys($payload)), idempotencyKey: $idempotencyKey);
    }
}
