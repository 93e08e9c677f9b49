<?php

declare(strict_types=1);

namespace PurchaseProtection\Resource;

use PurchaseProtection\Internal\Casing;
use PurchaseProtection\Exception\ServiceHttpException;
use PurchaseProtection\Internal\Transport;

/**
 * POST /offers/*, wire-spelt as the spec says: quote snake_case, the others camelCase with a snake_case
 * order_context. Input keys may be either.
 */
final class Offers
{
    /** @internal */
    public function __construct(private readonly Transport $transport)
    {
    }

    /**
     * Quote an offer; the result carries the single-use `quoteToken` from the X-Service-Quote-Token header.
     *
     * @param array<string, mixed> $payload order_amount_cents, order_id, protection_program_id, currency?, customer_email?, order_name?, cart_id?
     * @return array<string, mixed>
     */
    public function quote(array $payload, ?string $idempotencyKey = null): array
    {
        $response = $this->transport->send('POST', '/offers/quote', body: Transport::json(Casing::snakeCaseKeys($payload)), idempotencyKey: $idempotencyKey);
        $quoteToken = $response['headers']['x-service-quote-token'][0] ?? null;
        if ($quoteToken === null) {
            throw new ServiceHttpException(
                'The quote response carried no X-Service-Quote-Token header',
                $response['status'],
                $response['headers']['x-request-id'][0] ?? null,
                $response['idempotencyKey'],
                headers: $response['headers'],
            );
        }
        return [...$response['body'], 'quoteToken' => $quoteToken];
    }

    /**
     * Alias of `quote`.
     *
     * @param array<string, mixed> $payload
     * @return array<string, mixed>
     */
    public function create(array $payload, ?string $idempotencyKey = null): array
    {
        return $this->quote($payload, $idempotencyKey);
    }

    /**
     * @param array<string, mixed> $payload quoteId, quoteToken, order_context (or orderContext; nested keys either way),
     *     customer_email (or customerEmail): the buyer's address, required unless the quote has one,
     *     customer_locale, customer_time_zone (or customerLocale, customerTimeZone): optional, the buyer's language (BCP 47)
     *     and IANA time zone, which the plan's e-mails are written in,
     *     shipping_address (or shippingAddress; nested keys either way): optional, kept only as a keyed hash
     * @return array<string, mixed>
     */
    public function confirm(array $payload, ?string $idempotencyKey = null): array
    {
        $body = Casing::camelCaseKeys($payload);
        foreach (['orderContext' => 'order_context', 'shippingAddress' => 'shipping_address'] as $camel => $snake) {
            if (array_key_exists($camel, $body)) {
                $body[$snake] = Casing::snakeCaseKeys($body[$camel]);
                unset($body[$camel]);
            }
        }
        // The buyer's address, language and time zone go snake_case, as the quote's address does.
        foreach (['customerEmail' => 'customer_email', 'customerLocale' => 'customer_locale', 'customerTimeZone' => 'customer_time_zone'] as $camel => $snake) {
            if (array_key_exists($camel, $body)) {
                $body[$snake] = $body[$camel];
                unset($body[$camel]);
            }
        }
        return $this->post('/offers/confirm', $body, $idempotencyKey);
    }

    /**
     * @param array<string, mixed> $payload quoteId, reason?
     * @return array<string, mixed>
     */
    public function decline(array $payload, ?string $idempotencyKey = null): array
    {
        return $this->post('/offers/decline', Casing::camelCaseKeys($payload), $idempotencyKey);
    }

    /**
     * Void an active plan (secret key): exactly one of planId, referenceNumber, orderId; reason optional. The
     * result is the voided purchase.
     *
     * @param array<string, mixed> $payload
     * @return array<string, mixed>
     */
    public function void(array $payload, ?string $idempotencyKey = null): array
    {
        return $this->post('/offers/void', Casing::camelCaseKeys($payload), $idempotencyKey);
    }

    /**
     * @param array<string, mixed> $body
     * @return array<string, mixed>
     */
    private function post(string $path, array $body, ?string $idempotencyKey): array
    {
        return $this->transport->body('POST', $path, body: Transport::json($body), idempotencyKey: $idempotencyKey);
    }
}
