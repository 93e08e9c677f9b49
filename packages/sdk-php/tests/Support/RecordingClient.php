<?php

declare(strict_types=1);

namespace PurchaseProtection\Tests\Support;

use Psr\Http\Client\ClientInterface;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;

/** A PSR-18 client that passes each request on and keeps it (the `http` option at work). */
final class RecordingClient implements ClientInterface
{
    /** @var list<RequestInterface> */
    public array $requests = [];

    public function __construct(private readonly ClientInterface $inner)
    {
    }

    public function sendRequest(RequestInterface $request): ResponseInterface
    {
        $this->requests[] = $request;
        return $this->inner->sendRequest($request);
    }

    public function lastBody(): string
    {
        return (string) end($this->requests)->getBody();
    }
}
