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

    /**
     * GET /merchants/{merchantId}/metrics.csv: the analytics' series as CSV text (a header row, then one row per
     * currency and day, week or month; CRLF line ends), for the same query as `metrics`.
     *
     * @param array{from?: string|\DateTimeInterface, to?: string|\DateTimeInterface, interval?: 'day'|'week'|'month'} $query
     */
    public function metricsCsv(string $merchantId, array $query = []): string
    {
        return $this->transport->text('/merchants/' . Transport::pathSegment('merchantId', $merchantId) . '/metrics.csv', $query, 'text/csv');
    }
}
