<?php

declare(strict_types=1);

namespace PurchaseProtection\Tests\Support;

/** Stands in for Symfony\Component\HttpClient\HttpClient (not installed here): keeps the options it was created with. */
final class FakeSymfonyHttpClient
{
    /** @param array<string, mixed> $options */
    private function __construct(public readonly array $options)
    {
    }

    /** @param array<string, mixed> $options */
    public static function create(array $options = []): self
    {
        return new self($options);
    }
}
