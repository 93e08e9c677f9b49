<?php

declare(strict_types=1);

namespace PurchaseProtection;

use Psr\Http\Client\ClientInterface;
use Psr\Http\Message\RequestFactoryInterface;
use Psr\Http\Message\StreamFactoryInterface;
use PurchaseProtection\Exception\ServiceValidationException;
use PurchaseProtection\Internal\DefaultHttp;
use PurchaseProtection\Internal\Transport;
use PurchaseProtection\Resource\Claims;
use PurchaseProtection\Resource\Events;
use PurchaseProtection\Resource\Headless;
use PurchaseProtection\Resource\Merchants;
use PurchaseProtection\Resource\Offers;
use PurchaseProtection\Resource\Purchases;
use PurchaseProtection\Resource\Refunds;
use PurchaseProtection\Resource\Shipments;
use PurchaseProtection\Resource\Programs;
use PurchaseProtection\Resource\Settlements;
use PurchaseProtection\Resource\WebhookEndpoints;

/**
 * The Purchase Protection API client. Every mutating call sends one idempotency key (a UUIDv4 or yours) on each of
 * its attempts; 408, 429, 500, 502, 503, 504 and transport failures are retried with exponential backoff and jitter,
 * Retry-After honoured up to the ceiling. Responses are decoded JSON arrays, spelt as the API sends them.
 */
final class Client
{
    public const string SDK_VERSION = '0.1.0';
    /** The standalone API started by `npm run api`; pass `baseUri` for your deployment. */
    public const string DEFAULT_BASE_URI = 'http://127.0.0.1:8787/api/v1';
    public const int DEFAULT_TIMEOUT_MS = 30_000;

    public readonly Offers $offers;
    /** Alias of `offers`. */
    public readonly Offers $quotes;
    public readonly Claims $claims;
    public readonly Refunds $refunds;
    /** Delivery facts: shipments of protected orders and their carriers' scans. */
    public readonly Shipments $shipments;
    public readonly Purchases $purchases;
    public readonly Headless $headless;
    /** Verifies the signatures of the webhooks you receive. */
    public readonly Webhooks $webhooks;
    public readonly Events $events;
    public readonly Settlements $settlements;
    /** The merchant's protection programs: their ids and terms. */
    public readonly Programs $programs;
    public readonly WebhookEndpoints $webhookEndpoints;
    public readonly Merchants $merchants;
    private readonly Transport $transport;

    /**
     * @param string $apiKey a merchant secret key (mch_…), a restricted key (rk_…: not void, refunds, claim
     *                       resolutions or fee refunds) or, for quote/confirm/decline only, a publishable key (wk_…)
     * @param ClientInterface|null $http any PSR-18 client; default Guzzle 7, else Symfony HttpClient, else the SDK's CurlClient
     * @param string|null $baseUri the API base including /api/v1; default DEFAULT_BASE_URI
     * @param callable(int): void|null $sleep waits the given milliseconds between attempts; default usleep
     * @param array<string, mixed> $retry any of baseDelayMs (250), jitter (true), maxAttempts (3), multiplier (2.0), retryAfterCeilingSeconds (600)
     * @param RequestFactoryInterface|null $requestFactory default: nyholm/psr7, else guzzlehttp/psr7, else the `http` client's own
     * @param StreamFactoryInterface|null $streamFactory likewise
     * @param int $timeoutMs per attempt, for the default client only (a PSR-18 client you pass has its own)
     * @param callable(): (int|float)|null $now the clock in epoch milliseconds (Retry-After dates, webhook tolerance)
     */
    public function __construct(
        string $apiKey,
        ?ClientInterface $http = null,
        ?string $baseUri = null,
        ?callable $sleep = null,
        array $retry = [],
        ?RequestFactoryInterface $requestFactory = null,
        ?StreamFactoryInterface $streamFactory = null,
        int $timeoutMs = self::DEFAULT_TIMEOUT_MS,
        ?callable $now = null,
    ) {
        if (trim($apiKey) === '') {
            throw new ServiceValidationException('apiKey must be a non-empty string');
        }
        if ($timeoutMs <= 0) {
            throw new ServiceValidationException('timeoutMs must be a positive number');
        }
        $retryPolicy = RetryPolicy::fromArray($retry);
        if ($requestFactory === null || $streamFactory === null || $http === null) {
            [$http, $requestFactory, $streamFactory] = DefaultHttp::installed()->complete($http, $requestFactory, $streamFactory, $timeoutMs);
        }
        $now ??= static fn (): float => microtime(true) * 1000;

        $this->transport = new Transport(
            apiKey: $apiKey,
            baseUri: rtrim($baseUri ?? self::DEFAULT_BASE_URI, '/'),
            http: $http,
            requestFactory: $requestFactory,
            streamFactory: $streamFactory,
            retry: $retryPolicy,
            sleep: $sleep ?? static function (int $ms): void {
                usleep($ms * 1000);
            },
            now: $now,
            userAgent: 'purchase-protection-sdk-php/' . self::SDK_VERSION,
        );
        $this->offers = new Offers($this->transport);
        $this->quotes = $this->offers;
        $this->claims = new Claims($this->transport);
        $this->refunds = new Refunds($this->transport);
        $this->shipments = new Shipments($this->transport);
        $this->purchases = new Purchases($this->transport);
        $this->headless = new Headless($this->transport);
        $this->webhooks = new Webhooks($now);
        $this->events = new Events($this->transport);
        $this->settlements = new Settlements($this->transport);
        $this->programs = new Programs($this->transport);
        $this->webhookEndpoints = new WebhookEndpoints($this->transport);
        $this->merchants = new Merchants($this->transport);
    }

    // The generic methods reach a route by its path, for example one newer than this SDK. Bodies are sent as given:
    // no key conversion.

    /**
     * POST any route with a JSON body.
     *
     * @param array<string, mixed>|object $payload
     */
    public function post(string $path, array|object $payload = [], ?string $idempotencyKey = null): mixed
    {
        return $this->transport->body('POST', $path, body: Transport::json($payload), idempotencyKey: $idempotencyKey);
    }

    /**
     * GET any route.
     *
     * @param array<string, string|int|float|bool|\DateTimeInterface|null> $query
     */
    public function get(string $path, array $query = []): mixed
    {
        return $this->transport->body('GET', $path, $query);
    }

    /** POST any route with the body bytes exactly as given (for example canonical JSON). */
    public function postRaw(string $path, string $rawJsonBody, ?string $idempotencyKey = null): mixed
    {
        return $this->transport->body('POST', $path, body: $rawJsonBody, idempotencyKey: $idempotencyKey);
    }

    /**
     * PATCH any route with a JSON body.
     *
     * @param array<string, mixed>|object $payload
     */
    public function patch(string $path, array|object $payload = [], ?string $idempotencyKey = null): mixed
    {
        return $this->transport->body('PATCH', $path, body: Transport::json($payload), idempotencyKey: $idempotencyKey);
    }

    /** DELETE any route. */
    public function delete(string $path, ?string $idempotencyKey = null): mixed
    {
        return $this->transport->body('DELETE', $path, idempotencyKey: $idempotencyKey);
    }
}
