<?php

declare(strict_types=1);

namespace PurchaseProtection\Resource;

use PurchaseProtection\Internal\Transport;

/** /merchants/{merchantId}/…: the key's own merchant (any other id is 404). */
final class Merchants
{
    /** @internal */
    public function __construct(private readonly Transport $transport)
    {
    }

    /**
     * Quote, plan, claim and fee figures, optionally within [from, to) (strings or DateTimeInterface).
     *
     * @param array{from?: string|\DateTimeInterface, to?: string|\DateTimeInterface} $query
     * @return array<string, mixed>
     */
    public function metrics(string $merchantId, array $query = []): array
    {
        return $this->transport->body('GET', '/merchants/' . Transport::pathSegment('merchantId', $merchantId) . '/metrics', $query);
    }
}
