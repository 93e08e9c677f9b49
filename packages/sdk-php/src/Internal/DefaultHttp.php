<?php

declare(strict_types=1);

namespace PurchaseProtection\Internal;

use Psr\Http\Client\ClientInterface;
use Psr\Http\Message\RequestFactoryInterface;
use Psr\Http\Message\ResponseFactoryInterface;
use Psr\Http\Message\StreamFactoryInterface;
use PurchaseProtection\Exception\ServiceValidationException;
use PurchaseProtection\Http\CurlClient;

/**
 * What the Client sends with when it is not given a PSR-18 client or PSR-17 factories: an installed library first,
 * in the order of CLIENTS and FACTORIES; the SDK's own CurlClient only when no HTTP library is installed.
 *
 * @internal
 */
final class DefaultHttp
{
    public const string GUZZLE = 'GuzzleHttp\Client';
    public const string SYMFONY = 'Symfony\Component\HttpClient\Psr18Client';
    public const string SYMFONY_HTTP_CLIENT = 'Symfony\Component\HttpClient\HttpClient';
    /** The PSR-18 clients tried, in order. */
    public const array CLIENTS = [self::GUZZLE, self::SYMFONY];
    /** The PSR-17 factories tried, in order (each makes requests, responses and streams). */
    public const array FACTORIES = ['Nyholm\Psr7\Factory\Psr17Factory', 'GuzzleHttp\Psr7\HttpFactory'];

    /**
     * @param \Closure(string): ?string $resolve the class to instantiate for a library class, null when that library
     *     is not installed (a seam: tests stand in for libraries this machine does not have)
     */
    public function __construct(private readonly \Closure $resolve)
    {
    }

    public static function installed(): self
    {
        return new self(static fn (string $class): ?string => class_exists($class) ? $class : null);
    }

    /** The first installed PSR-17 factory, or null. */
    public function factories(): (RequestFactoryInterface&ResponseFactoryInterface&StreamFactoryInterface)|null
    {
        foreach (self::FACTORIES as $class) {
            $resolved = ($this->resolve)($class);
            if ($resolved !== null) {
                return new $resolved();
            }
        }
        return null;
    }

    /**
     * Fills in what the caller left null. The factories: nyholm/psr7, guzzlehttp/psr7, else the PSR-18 client's own
     * (Symfony's Psr18Client makes requests and streams).
     *
     * @return array{ClientInterface, RequestFactoryInterface, StreamFactoryInterface}
     */
    public function complete(?ClientInterface $http, ?RequestFactoryInterface $requestFactory, ?StreamFactoryInterface $streamFactory, int $timeoutMs): array
    {
        $factories = $this->factories();
        $http ??= $this->client($factories, $timeoutMs);
        $own = $http instanceof RequestFactoryInterface && $http instanceof StreamFactoryInterface ? $http : null;
        $requestFactory ??= $factories ?? $own ?? throw self::noFactory();
        $streamFactory ??= $factories ?? $own ?? throw self::noFactory();
        return [$http, $requestFactory, $streamFactory];
    }

    /**
     * Guzzle 7 or Symfony HttpClient when installed, else CurlClient. Each with one whole-request timeout and no
     * redirects followed (Guzzle's sendRequest follows none).
     */
    private function client((ResponseFactoryInterface&StreamFactoryInterface)|null $factories, int $timeoutMs): ClientInterface
    {
        $seconds = $timeoutMs / 1000.0;
        if (($guzzle = ($this->resolve)(self::GUZZLE)) !== null) {
            return new $guzzle(['timeout' => $seconds]);
        }
        if (($psr18 = ($this->resolve)(self::SYMFONY)) !== null && ($symfony = ($this->resolve)(self::SYMFONY_HTTP_CLIENT)) !== null) {
            // timeout is Symfony's idle timeout, max_duration the whole request's.
            $client = $symfony::create(['timeout' => $seconds, 'max_duration' => $seconds, 'max_redirects' => 0]);
            try {
                // Without factories of ours Symfony looks for its own (php-http/discovery).
                return $factories === null ? new $psr18($client) : new $psr18($client, $factories, $factories);
            } catch (\LogicException $noFactories) {
                throw new ServiceValidationException($noFactories->getMessage());
            }
        }
        // The last resort, for hosts with no HTTP library installed (a shop plugin without Composer; Debian's PHP here
        // has neither Guzzle nor Symfony HttpClient): ext-curl for the transfer, an installed PSR-7 for the messages.
        return new CurlClient($factories ?? throw self::noFactory(), $factories, $timeoutMs);
    }

    private static function noFactory(): ServiceValidationException
    {
        return new ServiceValidationException(
            'No PSR-17 factory found: install nyholm/psr7 or guzzlehttp/psr7, or pass requestFactory and streamFactory',
        );
    }
}
