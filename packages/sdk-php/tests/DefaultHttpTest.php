<?php

declare(strict_types=1);

namespace PurchaseProtection\Tests;

use Nyholm\Psr7\Factory\Psr17Factory;
use PHPUnit\Framework\TestCase;
use PurchaseProtection\Client;
use PurchaseProtection\Exception\ServiceValidationException;
use PurchaseProtection\Http\CurlClient;
use PurchaseProtection\Http\Factories;
use PurchaseProtection\Internal\DefaultHttp;
use PurchaseProtection\Tests\Support\FakeGuzzleClient;
use PurchaseProtection\Tests\Support\FakeSymfonyHttpClient;
use PurchaseProtection\Tests\Support\FakeSymfonyPsr18Client;
use PurchaseProtection\Tests\Support\RecordingClient;

/**
 * The default transport: Guzzle 7, else Symfony HttpClient, else the SDK's CurlClient; the PSR-17 factories
 * nyholm/psr7, else guzzlehttp/psr7, else the client's own. Neither Guzzle nor Symfony HttpClient is installed here,
 * so stand-ins take their class names through the resolver seam.
 */
final class DefaultHttpTest extends TestCase
{
    private const array GUZZLE = [DefaultHttp::GUZZLE => FakeGuzzleClient::class];
    private const array SYMFONY = [
        DefaultHttp::SYMFONY => FakeSymfonyPsr18Client::class,
        DefaultHttp::SYMFONY_HTTP_CLIENT => FakeSymfonyHttpClient::class,
    ];
    private const array NYHOLM = ['Nyholm\Psr7\Factory\Psr17Factory' => Psr17Factory::class];
    // guzzlehttp/psr7 is not installed either: nyholm's factory stands in under its name.
    private const array GUZZLE_PSR7 = ['GuzzleHttp\Psr7\HttpFactory' => Psr17Factory::class];

    /** @var list<string> the library classes asked for, in order */
    private array $asked = [];

    /** @param array<string, class-string> $installed library class => the class that stands in for it */
    private function defaults(array $installed): DefaultHttp
    {
        return new DefaultHttp(function (string $class) use ($installed): ?string {
            $this->asked[] = $class;
            return $installed[$class] ?? null;
        });
    }

    public function testGuzzleComesFirstWithTheTimeoutAndNyholmsFactories(): void
    {
        [$http, $requestFactory, $streamFactory] = $this->defaults(self::GUZZLE + self::SYMFONY + self::NYHOLM + self::GUZZLE_PSR7)
            ->complete(null, null, null, 1500);
        $this->assertInstanceOf(FakeGuzzleClient::class, $http);
        $this->assertSame(['timeout' => 1.5], $http->config);
        $this->assertInstanceOf(Psr17Factory::class, $requestFactory);
        $this->assertSame($requestFactory, $streamFactory);
        $this->assertSame(['Nyholm\Psr7\Factory\Psr17Factory', DefaultHttp::GUZZLE], $this->asked);
    }

    public function testSymfonyHttpClientWhenGuzzleIsMissingWithGuzzlesPsr7Factories(): void
    {
        [$http, $requestFactory] = $this->defaults(self::SYMFONY + self::GUZZLE_PSR7)->complete(null, null, null, 2000);
        $this->assertInstanceOf(FakeSymfonyPsr18Client::class, $http);
        $this->assertSame(['timeout' => 2.0, 'max_duration' => 2.0, 'max_redirects' => 0], $http->client->options);
        $this->assertSame($requestFactory, $http->responseFactory, 'our factories passed to Symfony');
        $this->assertSame($requestFactory, $http->streamFactory);
        $this->assertSame(['Nyholm\Psr7\Factory\Psr17Factory', 'GuzzleHttp\Psr7\HttpFactory', DefaultHttp::GUZZLE, DefaultHttp::SYMFONY, DefaultHttp::SYMFONY_HTTP_CLIENT], $this->asked);
    }

    public function testWithoutAPsr7LibrarySymfonysClientIsItsOwnFactory(): void
    {
        [$http, $requestFactory, $streamFactory] = $this->defaults(self::SYMFONY)->complete(null, null, null, 1000);
        $this->assertInstanceOf(FakeSymfonyPsr18Client::class, $http);
        $this->assertNull($http->responseFactory, 'Symfony finds its own');
        $this->assertSame($http, $requestFactory);
        $this->assertSame($http, $streamFactory);
    }

    public function testTheCurlClientOnlyWhenNoHttpLibraryIsInstalled(): void
    {
        [$http, $requestFactory] = $this->defaults(self::NYHOLM)->complete(null, null, null, 1000);
        $this->assertInstanceOf(CurlClient::class, $http);
        $this->assertInstanceOf(Psr17Factory::class, $requestFactory);

        // This machine: nyholm/psr7 from Debian, no Guzzle, no Symfony HttpClient.
        [$http, $requestFactory] = DefaultHttp::installed()->complete(null, null, null, 1000);
        $this->assertInstanceOf(CurlClient::class, $http);
        $this->assertInstanceOf(Psr17Factory::class, $requestFactory);
        $this->assertInstanceOf(Psr17Factory::class, Factories::discover());
    }

    public function testAGivenClientIsKeptAndOnlyTheMissingFactoriesAreFilledIn(): void
    {
        $given = new RecordingClient(new FakeGuzzleClient());
        $ours = new Psr17Factory();
        [$http, $requestFactory, $streamFactory] = $this->defaults(self::GUZZLE + self::GUZZLE_PSR7)->complete($given, null, $ours, 1000);
        $this->assertSame($given, $http);
        $this->assertInstanceOf(Psr17Factory::class, $requestFactory);
        $this->assertSame($ours, $streamFactory);
        $this->assertNotContains(DefaultHttp::GUZZLE, $this->asked, 'no default client looked for');

        $symfony = new FakeSymfonyPsr18Client(FakeSymfonyHttpClient::create());
        $this->assertSame([$symfony, $symfony, $symfony], $this->defaults([])->complete($symfony, null, null, 1000), "a given client's own factories");
    }

    public function testWithoutAnyPsr17FactoryTheClientIsRefused(): void
    {
        foreach ([[], self::GUZZLE] as $installed) {
            try {
                $this->defaults($installed)->complete(null, null, null, 1000);
                $this->fail('constructed without factories');
            } catch (ServiceValidationException $error) {
                $this->assertStringContainsString('No PSR-17 factory found', $error->getMessage());
            }
        }
    }

    public function testTheClientUsesTheDefaultTransport(): void
    {
        $transport = (new \ReflectionProperty(Client::class, 'transport'))->getValue(new Client('k'));
        $this->assertInstanceOf(CurlClient::class, (new \ReflectionProperty(\PurchaseProtection\Internal\Transport::class, 'http'))->getValue($transport));
    }
}
