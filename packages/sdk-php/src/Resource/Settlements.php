<?php

declare(strict_types=1);

namespace PurchaseProtection\Resource;

use PurchaseProtection\Internal\Transport;

/** GET /settlements: the merchant's closed settlement statements, newest period first (secret key). */
final class Settlements extends Pages
{
    /** @internal */
    public function __construct(Transport $transport)
    {
        parent::__construct($transport, '/settlements');
    }

    /**
     * GET /settlements/balance: the open period's running balance per currency (data: one per currency; balanceCents
     * positive: we owe the merchant; closesAt: when its statement closes).
     *
     * @return array<string, mixed>
     */
    public function balance(): array
    {
        return $this->transport->body('GET', '/settlements/balance');
    }

    /**
     * One statement with its ledger entries, oldest first.
     *
     * @return array<string, mixed>
     */
    public function retrieve(string $statementId): array
    {
        return $this->transport->body('GET', '/settlements/' . Transport::pathSegment('statementId', $statementId));
    }
}
