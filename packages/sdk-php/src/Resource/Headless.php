<?php

declare(strict_types=1);

namespace PurchaseProtection\Resource;

use PurchaseProtection\CanonicalJson;
use PurchaseProtection\Internal\Casing;
use PurchaseProtection\Internal\Transport;

/**
 * POST /headless/*: the server path (secret key). Bodies go out snake_case as RFC 8785 canonical JSON bytes, the
 * same bytes the TypeScript SDK sends for the same payload. Responses are snake_case.
 */
final class Headless
{
    /** The byte-string headless quote returns in disclosure_text: for equality checks only, never as visible copy. */
    public const string DISCLOSURE_PHRASE = 'This is not insurance';

    /** @internal */
    public function __construct(private readonly Transport $transport)
    {
    }

    /**
     * @param array<string, mixed>|\stdClass $payload order_amount_cents, order_id, protection_program_id, currency?, customer_email?, order_name?, product_category?, cart_id?
     * @return array<string, mixed>
     */
    public function quote(array|\stdClass $payload, ?string $idempotencyKey = null): array
    {
        return $this->post('/headless/quote', $payload, $idempotencyKey);
    }

    /**
     * @param array<string, mixed>|\stdClass $payload quote_id, customer_email? (required unless the quote has one),
     *     shipping_address? (country_code, postal_code?, line1: kept only as a keyed hash), customer_locale? and
     *     customer_time_zone? (the buyer's BCP 47 language and IANA time zone: the plan's e-mails are written in them)
     * @return array<string, mixed>
     */
    public function confirm(array|\stdClass $payload, ?string $idempotencyKey = null): array
    {
        return $this->post('/headless/confirm', $payload, $idempotencyKey);
    }

    /**
     * @param array<string, mixed>|\stdClass $payload quote_id, reason?
     * @return array<string, mixed>
     */
    public function decline(array|\stdClass $payload, ?string $idempotencyKey = null): array
    {
        return $this->post('/headless/decline', $payload, $idempotencyKey);
    }

    /**
     * @param array<string, mixed>|\stdClass $payload
     * @return array<string, mixed>
     */
    private function post(string $path, array|\stdClass $payload, ?string $idempotencyKey): array
    {
        // An empty payload is the object {} (as in JavaScript), not the list [].
        $body = $payload === [] ? '{}' : CanonicalJson::encode(Casing::snakeCaseKeys($payload));
        return $this->transport->body('POST', $path, body: $body, idempotencyKey: $idempotencyKey);
    }
}
