<?php

declare(strict_types=1);

namespace PurchaseProtection\Tests\Support;

use Nyholm\Psr7\Factory\Psr17Factory;
use Psr\Http\Client\ClientInterface;
use Psr\Http\Message\RequestFactoryInterface;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseFactoryInterface;
use Psr\Http\Message\ResponseInterface;
use Psr\Http\Message\StreamFactoryInterface;
use Psr\Http\Message\StreamInterface;

/**
 * Stands in for Symfony\Component\HttpClient\Psr18Client (not installed here): a PSR-18 client that is also a
 * request and stream factory, as Symfony's is; keeps its constructor's arguments.
 */
final class FakeSymfonyPsr18Client implements ClientInterface, RequestFactoryInterface, StreamFactoryInterface
{
    private readonly Psr17Factory $messages;

    public function __construct(
        public readonly FakeSymfonyHttpClient $client,
        public readonly ?ResponseFactoryInterface $responseFactory = null,
        public readonly ?StreamFactoryInterface $streamFactory = null,
    ) {
        $this->messages = new Psr17Factory();
    }

    public function sendRequest(RequestInterface $request): ResponseInterface
    {
        throw new \LogicException('a stand-in sends nothing');
    }

    public function createRequest(string $method, $uri): RequestInterface
    {
        return $this->messages->createRequest($method, $uri);
    }

    public function createStream(string $content = ''): StreamInterface
    {
        return $this->messages->createStream($content);
    }

    public function createStreamFromFile(string $filename, string $mode = 'r'): StreamInterface
    {
        return $this->messages->createStreamFromFile($filename, $mode);
    }

    public function createStreamFromResource($resource): StreamInterface
    {
        return $this->messages->createStreamFromResource($resource);
    }
}
