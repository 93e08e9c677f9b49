<?php

declare(strict_types=1);

namespace PurchaseProtection\Resource;

use PurchaseProtection\Internal\Casing;
use PurchaseProtection\Internal\Transport;

/** GET /merchant/claims: refund requests (claims) of the key's merchant. */
final class Claims extends Pages
{
    /** @internal */
    public function __construct(Transport $transport)
    {
        parent::__construct($transport, '/merchant/claims');
    }

    /**
     * GET /merchant/claims/{claimId}: one claim with its decision and resolution.
     *
     * @return array<string, mixed>
     */
    public function retrieve(string $claimId): array
    {
        return $this->transport->body('GET', '/merchant/claims/' . Transport::pathSegment('claimId', $claimId));
    }

    /**
     * POST /merchant/claims/{claimId}/resolution: confirm that you paid an approved claim (other carts; a Shopify
     * shop's claims are paid by the app) — `kind` (refund or replacement), your `reference`, optionally
     * `amountCents` and `note`. A second confirmation returns the paid claim unchanged.
     *
     * @param array<string, mixed> $payload
     * @return array<string, mixed>
     */
    public function resolve(string $claimId, array $payload, ?string $idempotencyKey = null): array
    {
        $path = '/merchant/claims/' . Transport::pathSegment('claimId', $claimId) . '/resolution';
        return $this->transport->body('POST', $path, body: Transport::json(Casing::camelCaseKeys($payload)), idempotencyKey: $idempotencyKey);
    }
}
