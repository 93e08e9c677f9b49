<?php

declare(strict_types=1);

namespace PurchaseProtection\Exception;

/** A bad argument caught before any request was sent (empty apiKey, malformed idempotency key). Message only. */
final class ServiceValidationException extends \InvalidArgumentException implements ServiceException
{
    public function __construct(string $message)
    {
        parent::__construct($message);
    }
}
