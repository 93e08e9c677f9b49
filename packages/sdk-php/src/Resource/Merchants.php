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
     * Quote, plan, claim and fee figures, optionally within [from, to) (strings or DateTimeInterface; a string may be a
     * UTC day, YYYY-MM-DD, `to` being the last day counted), and `analytics`: per currency, the period's figures (the
     * last 30 days when neither end is given) against the previous period, with a series by `interval`.
     *
     * @param array{from?: string|\DateTimeInterface, to?: string|\DateTimeInterface, interval?: 'day'|'week'|'month'} $query
     * @return array<string, mixed>
     */
    public function metrics(string $merchantId, array $query = []): array
    {
        return $this->transport->body('GET', '/merchants/' . Transport::pathSegment('merchantId', $merchantId) . '/metrics', $query);
    }
}
