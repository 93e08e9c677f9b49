<?php

declare(strict_types=1);

namespace PurchaseProtection\Tests\Support;

use Psr\Http\Client\ClientInterface;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;

/** Stands in for GuzzleHttp\Client (not installed here): keeps its constructor's configuration. */
final class FakeGuzzleClient implements ClientInterface
{
    /** @param array<string, mixed> $config */
    public function __construct(public readonly array $config = [])
    {
    }

    public function sendRequest(RequestInterface $request): ResponseInterface
    {
        throw new \LogicException('a stand-in sends nothing');
    }
}
