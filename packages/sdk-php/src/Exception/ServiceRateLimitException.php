<?php

declare(strict_types=1);

namespace PurchaseProtection\Exception;

/** HTTP 429 after the retries ran out. `retryAfter` is the server's Retry-After in seconds (null if absent). */
final class ServiceRateLimitException extends ServiceHttpException
{
    /**
     * @param array<string, list<string>> $headers
     */
    public function __construct(
        string $message,
        ?int $httpStatus = 429,
        ?string $requestId = null,
        ?string $idempotencyKey = null,
        ?\Throwable $previous = null,
        ?string $errorCode = null,
        ?string $errorType = null,
        ?string $param = null,
        array $headers = [],
        public readonly ?int $retryAfter = null,
    ) {
        parent::__construct($message, $httpStatus, $requestId, $idempotencyKey, $previous, $errorCode, $errorType, $param, $headers);
    }
}
