<?php

declare(strict_types=1);

namespace PurchaseProtection\Http;

use Psr\Http\Message\RequestFactoryInterface;
use Psr\Http\Message\ResponseFactoryInterface;
use Psr\Http\Message\StreamFactoryInterface;
use PurchaseProtection\Exception\ServiceValidationException;

/**
 * The PSR-17 factories the SDK builds its messages with when none are given: the first installed of nyholm/psr7
 * and guzzlehttp/psr7 (the SDK consumes PSR-7; it does not implement it).
 */
final class Factories
{
    private const array KNOWN = [
        \Nyholm\Psr7\Factory\Psr17Factory::class,
        \GuzzleHttp\Psr7\HttpFactory::class,
    ];

    public static function discover(): RequestFactoryInterface&ResponseFactoryInterface&StreamFactoryInterface
    {
        foreach (self::KNOWN as $class) {
            if (class_exists($class)) {
                return new $class();
            }
        }
        throw new ServiceValidationException(
            'No PSR-17 factory found: install nyholm/psr7 or guzzlehttp/psr7, or pass requestFactory and streamFactory',
        );
    }
}
