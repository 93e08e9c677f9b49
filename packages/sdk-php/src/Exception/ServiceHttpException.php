<?php

declare(strict_types=1);

namespace PurchaseProtection\Exception;

/**
 * A non-2xx answer other than 429, or a transport failure (then `httpStatus` is null and `getPrevious()` the
 * PSR-18 client's exception). `errorCode` is the API's code (`order_already_refunded`, …): PHP's own
 * `getCode()` stays the integer exception code.
 */
class ServiceHttpException extends \RuntimeException implements ServiceException
{
    /**
     * @param array<string, list<string>> $headers the response headers, lower-case names ([] when none arrived)
     */
    public function __construct(
        string $message,
        public readonly ?int $httpStatus = null,
        public readonly ?string $requestId = null,
        public readonly ?string $idempotencyKey = null,
        ?\Throwable $previous = null,
        public readonly ?string $errorCode = null,
        public readonly ?string $errorType = null,
        public readonly ?string $param = null,
        public readonly array $headers = [],
    ) {
        parent::__construct($message, 0, $previous);
    }
}
