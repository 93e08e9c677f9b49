<?php

declare(strict_types=1);

namespace PurchaseProtection\Internal;

use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Client\ClientInterface;
use Psr\Http\Client\RequestExceptionInterface;
use Psr\Http\Message\RequestFactoryInterface;
use Psr\Http\Message\ResponseInterface;
use Psr\Http\Message\StreamFactoryInterface;
use PurchaseProtection\Exception\ServiceHttpException;
use PurchaseProtection\Exception\ServiceRateLimitException;
use PurchaseProtection\Exception\ServiceValidationException;
use PurchaseProtection\Idempotency;
use PurchaseProtection\RetryPolicy;

/**
 * The one request loop: every call of every resource goes through `send`. It builds the URL and headers, makes one
 * idempotency key per logical call (reused on every retry), sends each attempt through the PSR-18 client and asks
 * the pure retry policy whether and how long to wait.
 *
 * @internal
 */
final class Transport
{
    /**
     * @param callable(int): void $sleep milliseconds
     * @param callable(): (int|float) $now epoch milliseconds
     */
    public function __construct(
        private readonly string $apiKey,
        private readonly string $baseUri,
        private readonly ClientInterface $http,
        private readonly RequestFactoryInterface $requestFactory,
        private readonly StreamFactoryInterface $streamFactory,
        private readonly RetryPolicy $retry,
        private readonly mixed $sleep,
        private readonly mixed $now,
        private readonly string $userAgent,
    ) {
    }

    /**
     * @param array<string, mixed> $query
     * @param string|null $body the exact JSON text to send
     * @return array{status: int, headers: array<string, list<string>>, body: mixed, idempotencyKey: ?string}
     */
    public function send(string $method, string $path, array $query = [], ?string $body = null, ?string $idempotencyKey = null): array
    {
        [$response, $text, $idempotencyKey] = $this->exchange($method, $path, $query, $body, $idempotencyKey, 'application/json');
        return [
            'status' => $response->getStatusCode(),
            'headers' => self::headers($response),
            'body' => self::parseBody($response, $text, $idempotencyKey),
            'idempotencyKey' => $idempotencyKey,
        ];
    }

    /** `send` for the calls that need only the parsed body. */
    public function body(string $method, string $path, array $query = [], ?string $body = null, ?string $idempotencyKey = null): mixed
    {
        return $this->send($method, $path, $query, $body, $idempotencyKey)['body'];
    }

    /**
     * A GET of a file (`$accept` names its type, such as text/csv): its text, unparsed.
     *
     * @param array<string, mixed> $query
     */
    public function text(string $path, array $query, string $accept): string
    {
        return $this->exchange('GET', $path, $query, null, null, $accept)[1];
    }

    /**
     * The request with its retries: a 2xx response with its text and the idempotency key used, or the exception of
     * the last attempt.
     *
     * @param array<string, mixed> $query
     * @return array{0: ResponseInterface, 1: string, 2: ?string}
     */
    private function exchange(string $method, string $path, array $query, ?string $body, ?string $idempotencyKey, string $accept): array
    {
        $idempotencyKey = $method === 'GET' ? null : Idempotency::keyFor($idempotencyKey);
        $url = $this->url($path, $query);
        $headers = [
            'Accept' => $accept,
            'Authorization' => "Bearer {$this->apiKey}",
            'User-Agent' => $this->userAgent,
        ];
        if ($body !== null) {
            $headers['Content-Type'] = 'application/json';
        }
        if ($idempotencyKey !== null) {
            $headers['Idempotency-Key'] = $idempotencyKey;
        }

        for ($attempt = 1; ; $attempt++) {
            // A fresh request each attempt: a body stream read by the last attempt is not rewound by every client.
            $request = $this->requestFactory->createRequest($method, $url);
            foreach ($headers as $name => $value) {
                $request = $request->withHeader($name, $value);
            }
            if ($body !== null) {
                $request = $request->withBody($this->streamFactory->createStream($body));
            }
            try {
                $response = $this->http->sendRequest($request);
            } catch (RequestExceptionInterface $failure) {
                throw self::transportError($failure, $idempotencyKey); // the request itself is wrong: no retry mends it
            } catch (ClientExceptionInterface $failure) {
                if (!$this->retry->shouldRetry(null, $attempt)) {
                    throw self::transportError($failure, $idempotencyKey);
                }
                ($this->sleep)($this->retry->delayMs($attempt, null, self::random(...)));
                continue;
            }
            $status = $response->getStatusCode();
            $text = (string) $response->getBody();
            if ($status >= 200 && $status < 300) {
                return [$response, $text, $idempotencyKey];
            }
            $retryAfter = RetryPolicy::parseRetryAfter(
                $response->hasHeader('Retry-After') ? $response->getHeaderLine('Retry-After') : null,
                ($this->now)(),
            );
            if (!$this->retry->shouldRetry($status, $attempt)) {
                throw self::errorFromResponse($response, $text, $idempotencyKey, $retryAfter);
            }
            ($this->sleep)($this->retry->delayMs($attempt, $retryAfter, self::random(...)));
        }
    }

    /** An id as one path segment: a non-empty string, percent-encoded. */
    public static function pathSegment(string $name, string $id): string
    {
        if ($id === '') {
            throw new ServiceValidationException("{$name} must be a non-empty string");
        }
        return rawurlencode($id);
    }

    /**
     * JSON text of a body that is not canonical (sent as built): an empty array is `{}`, the object every route
     * expects.
     */
    public static function json(mixed $payload): string
    {
        if ($payload === []) {
            return '{}';
        }
        try {
            return json_encode($payload, JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
        } catch (\JsonException $error) {
            throw new ServiceValidationException("The payload cannot be sent as JSON: {$error->getMessage()}");
        }
    }

    /** @param array<string, mixed> $query */
    private function url(string $path, array $query): string
    {
        $url = $this->baseUri . (str_starts_with($path, '/') ? $path : "/{$path}");
        $pairs = [];
        foreach ($query as $name => $value) {
            if ($value === null) {
                continue;
            }
            $text = match (true) {
                $value instanceof \DateTimeInterface => \DateTimeImmutable::createFromInterface($value)
                    ->setTimezone(new \DateTimeZone('UTC'))->format('Y-m-d\TH:i:s.v\Z'),
                is_bool($value) => $value ? 'true' : 'false',
                is_scalar($value) => (string) $value,
                default => throw new ServiceValidationException("query.{$name} must be a string, number, boolean or date"),
            };
            $pairs[] = rawurlencode((string) $name) . '=' . rawurlencode($text);
        }
        return $pairs === [] ? $url : $url . (str_contains($url, '?') ? '&' : '?') . implode('&', $pairs);
    }

    private static function random(): float
    {
        return random_int(0, PHP_INT_MAX) / PHP_INT_MAX;
    }

    /** @return array<string, list<string>> lower-case names */
    private static function headers(ResponseInterface $response): array
    {
        return array_change_key_case(array_map(array_values(...), $response->getHeaders()), CASE_LOWER);
    }

    private static function requestId(ResponseInterface $response): ?string
    {
        return $response->hasHeader('X-Request-Id') ? $response->getHeaderLine('X-Request-Id') : null;
    }

    private static function parseBody(ResponseInterface $response, string $text, ?string $idempotencyKey): mixed
    {
        if ($text === '') {
            return null;
        }
        try {
            return json_decode($text, true, 512, JSON_THROW_ON_ERROR);
        } catch (\JsonException $error) {
            throw new ServiceHttpException(
                "HTTP {$response->getStatusCode()} with a body that is not JSON",
                $response->getStatusCode(),
                self::requestId($response),
                $idempotencyKey,
                $error,
                headers: self::headers($response),
            );
        }
    }

    /** The exception for a non-2xx response: from the status, headers and body text. */
    private static function errorFromResponse(ResponseInterface $response, string $text, ?string $idempotencyKey, ?int $retryAfter): ServiceHttpException
    {
        $decoded = json_decode($text, true);
        $error = is_array($decoded) && is_array($decoded['error'] ?? null) ? $decoded['error'] : [];
        $field = static fn (string $name): ?string => is_string($error[$name] ?? null) ? $error[$name] : null;
        $status = $response->getStatusCode();
        $arguments = [
            $field('message') ?? "HTTP {$status}",
            $status,
            self::requestId($response) ?? $field('request_id'),
            $idempotencyKey,
            null,
            $field('code'),
            $field('type'),
            $field('param'),
            self::headers($response),
        ];
        return $status === 429
            ? new ServiceRateLimitException(...$arguments, retryAfter: $retryAfter)
            : new ServiceHttpException(...$arguments);
    }

    /** The exception for a request that got no response at all. */
    private static function transportError(ClientExceptionInterface $failure, ?string $idempotencyKey): ServiceHttpException
    {
        return new ServiceHttpException("The request failed: {$failure->getMessage()}", null, null, $idempotencyKey, $failure);
    }
}
