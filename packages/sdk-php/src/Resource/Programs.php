<?php

declare(strict_types=1);

namespace PurchaseProtection\Resource;

use PurchaseProtection\Internal\Transport;

/**
 * GET /programs: the merchant's protection programs in the key's mode, newest first (secret or restricted key): the
 * ids quotes name as protection_program_id, with their terms.
 */
final class Programs extends Pages
{
    /** @internal */
    public function __construct(Transport $transport)
    {
        parent::__construct($transport, '/programs');
    }

    /**
     * One program and its terms.
     *
     * @return array<string, mixed>
     */
    public function retrieve(string $programId): array
    {
        return $this->transport->body('GET', '/programs/' . Transport::pathSegment('programId', $programId));
    }
}
