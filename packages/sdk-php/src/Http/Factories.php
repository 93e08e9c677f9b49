<?php

declare(strict_types=1);

namespace PurchaseProtection\Http;

use Psr\Http\Message\RequestFactoryInterface;
use Psr\Http\Message\ResponseFactoryInterface;
use Psr\Http\Message\StreamFactoryInterface;
use PurchaseProtection\Exception\ServiceValidationException;
use PurchaseProtection\Internal\DefaultHttp;

/**
 * The PSR-17 factories the SDK builds its messages with when none are given: the first installed of nyholm/psr7
 * and guzzlehttp/psr7 (the SDK consumes PSR-7; it does not implement it).
 */
final class Factories
{
    public static function discover(): RequestFactoryInterface&ResponseFactoryInterface&StreamFactoryInterface
    {
        return DefaultHttp::installed()->factories() ?? throw new ServiceValidationException(
            'No PSR-17 factory found: install nyholm/psr7 or guzzlehttp/psr7, or pass requestFactory and streamFactory',
        );
    }
}
