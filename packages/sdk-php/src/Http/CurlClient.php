<?php

declare(strict_types=1);

namespace PurchaseProtection\Http;

use Psr\Http\Client\ClientInterface;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseFactoryInterface;
use Psr\Http\Message\ResponseInterface;
use Psr\Http\Message\StreamFactoryInterface;

/**
 * The default PSR-18 client when the Client is given none and neither Guzzle nor Symfony HttpClient is installed:
 * ext-curl sends the request, the PSR-17 factories (an installed PSR-7 library's) build the response. It exists for
 * hosts without an HTTP library (a shop plugin installed without Composer). One request per call, no redirects
 * followed, a whole-request timeout.
 */
final class CurlClient implements ClientInterface
{
    public function __construct(
        private readonly ResponseFactoryInterface $responseFactory,
        private readonly StreamFactoryInterface $streamFactory,
        private readonly int $timeoutMs = 30_000,
    ) {
        if (!extension_loaded('curl')) {
            throw new \PurchaseProtection\Exception\ServiceValidationException(
                'The default transport needs ext-curl: install it or pass a PSR-18 client as `http`',
            );
        }
    }

    public function sendRequest(RequestInterface $request): ResponseInterface
    {
        $headerLines = [];
        foreach ($request->getHeaders() as $name => $values) {
            foreach ($values as $value) {
                $headerLines[] = "{$name}: {$value}";
            }
        }
        $headerLines[] = 'Expect:'; // no 100-continue round trip for larger bodies
        $responseHeaders = [];
        $handle = curl_init();
        curl_setopt_array($handle, [
            CURLOPT_URL => (string) $request->getUri(),
            CURLOPT_CUSTOMREQUEST => $request->getMethod(),
            CURLOPT_HTTPHEADER => $headerLines,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_FOLLOWLOCATION => false,
            CURLOPT_TIMEOUT_MS => $this->timeoutMs,
            CURLOPT_NOSIGNAL => true, // sub-second timeouts: no SIGALRM around name resolution
            CURLOPT_HEADERFUNCTION => static function ($handle, string $line) use (&$responseHeaders): int {
                if (str_starts_with($line, 'HTTP/')) {
                    $responseHeaders = []; // a new status line (after 1xx): only the final response's headers count
                } elseif (str_contains($line, ':')) {
                    [$name, $value] = explode(':', $line, 2);
                    $responseHeaders[] = [trim($name), trim($value)];
                }
                return strlen($line);
            },
        ]);
        $body = (string) $request->getBody();
        if ($body !== '' || !in_array($request->getMethod(), ['GET', 'HEAD'], true)) {
            curl_setopt($handle, CURLOPT_POSTFIELDS, $body);
        }
        $responseBody = curl_exec($handle);
        if ($responseBody === false) {
            throw new NetworkException($request, curl_error($handle), curl_errno($handle));
        }
        $response = $this->responseFactory
            ->createResponse(curl_getinfo($handle, CURLINFO_RESPONSE_CODE))
            ->withBody($this->streamFactory->createStream($responseBody));
        foreach ($responseHeaders as [$name, $value]) {
            $response = $response->withAddedHeader($name, $value);
        }
        return $response;
    }
}
