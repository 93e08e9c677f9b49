<?php

declare(strict_types=1);

namespace PurchaseProtection\Resource;

use PurchaseProtection\Internal\Transport;

/** /webhooks/endpoints (secret key). A signing secret (whsec_…) is revealed only by create and rotateSecret. */
final class WebhookEndpoints extends Pages
{
    /** @internal */
    public function __construct(Transport $transport)
    {
        parent::__construct($transport, '/webhooks/endpoints');
    }

    /**
     * @param array{url: string, events: list<string>} $payload
     * @return array<string, mixed>
     */
    public function create(array $payload, ?string $idempotencyKey = null): array
    {
        return $this->transport->body('POST', '/webhooks/endpoints', body: Transport::json($payload), idempotencyKey: $idempotencyKey);
    }

    /** @return array<string, mixed> */
    public function retrieve(string $endpointId): array
    {
        return $this->transport->body('GET', self::path($endpointId));
    }

    /**
     * Change the URL, the events and/or the status; never rotates the secret.
     *
     * @param array{url?: string, events?: list<string>, status?: string} $payload
     * @return array<string, mixed>
     */
    public function update(string $endpointId, array $payload, ?string $idempotencyKey = null): array
    {
        return $this->transport->body('PATCH', self::path($endpointId), body: Transport::json($payload), idempotencyKey: $idempotencyKey);
    }

    /**
     * Deliveries not yet made to the endpoint are dropped.
     *
     * @return array<string, mixed>
     */
    public function delete(string $endpointId, ?string $idempotencyKey = null): array
    {
        return $this->transport->body('DELETE', self::path($endpointId), idempotencyKey: $idempotencyKey);
    }

    /**
     * A new signing secret; the old one keeps signing beside it for 24 h.
     *
     * @return array<string, mixed>
     */
    public function rotateSecret(string $endpointId, ?string $idempotencyKey = null): array
    {
        return $this->transport->body('POST', self::path($endpointId) . '/secret/rotate', body: '{}', idempotencyKey: $idempotencyKey);
    }

    /** The endpoint's delivery attempts: `$client->webhookEndpoints->deliveries($id)->list()`, `->pages()`, `->all()`. */
    public function deliveries(string $endpointId): Pages
    {
        return new Pages($this->transport, self::path($endpointId) . '/deliveries');
    }

    private static function path(string $endpointId): string
    {
        return '/webhooks/endpoints/' . Transport::pathSegment('endpointId', $endpointId);
    }
}
