<?php

declare(strict_types=1);

namespace PurchaseProtection\Tests;

use PHPUnit\Framework\TestCase;
use PurchaseProtection\Client;
use PurchaseProtection\Exception\ServiceException;
use PurchaseProtection\Exception\ServiceHttpException;
use PurchaseProtection\Exception\ServiceValidationException;
use PurchaseProtection\Http\CurlClient;
use PurchaseProtection\Http\NetworkException;
use PurchaseProtection\Resource\Headless;
use PurchaseProtection\RetryPolicy;
use PurchaseProtection\Tests\Support\Servers;

/** Construction, argument checks before any request, and the wire spelling of each resource (on the fault server). */
final class ClientTest extends TestCase
{
    private static function client(array $retry = ['jitter' => false]): Client
    {
        return new Client('mch_test_0123456789abcdefghij', baseUri: Servers::env('PP_FAULT_BASE_URI'), sleep: static function (int $ms): void {
        }, retry: $retry);
    }

    public function testTheSpecSurface(): void
    {
        $client = self::client();
        $this->assertSame(RetryPolicy::DEFAULTS, ['baseDelayMs' => 250, 'jitter' => true, 'maxAttempts' => 3, 'multiplier' => 2.0, 'retryAfterCeilingSeconds' => 600]);
        $this->assertSame($client->offers, $client->quotes);
        $this->assertSame('This is not insurance', Headless::DISCLOSURE_PHRASE);
        $this->assertSame('This is not insurance', $client->headless::DISCLOSURE_PHRASE);
        $properties = new \ReflectionClass(Client::class);
        foreach (['offers', 'quotes', 'claims', 'refunds', 'purchases', 'headless', 'webhooks', 'settlements', 'events', 'webhookEndpoints', 'merchants'] as $name) {
            $this->assertTrue($properties->getProperty($name)->isReadOnly(), $name);
            $this->assertTrue($properties->getProperty($name)->isPublic(), $name);
        }
        $this->expectException(\Error::class);
        $client->offers = $client->offers; // readonly
    }

    public function testEmptyApiKeyAndBadOptionsAreValidationExceptions(): void
    {
        foreach ([
            static fn () => new Client(''),
            static fn () => new Client('   '),
            static fn () => new Client('k', retry: ['maxAttempts' => 0]),
            static fn () => new Client('k', retry: ['maxAttempts' => 2.5]),
            static fn () => new Client('k', retry: ['multiplier' => 0.5]),
            static fn () => new Client('k', retry: ['jitter' => 'yes']),
            static fn () => new Client('k', retry: ['baseDelay' => 1]),
            static fn () => new Client('k', timeoutMs: 0),
        ] as $index => $construct) {
            try {
                $construct();
                $this->fail("case {$index} constructed");
            } catch (ServiceValidationException $error) {
                $this->assertInstanceOf(\InvalidArgumentException::class, $error);
                $this->assertInstanceOf(ServiceException::class, $error);
            }
        }
        $this->assertInstanceOf(Client::class, new Client('k', retry: ['base_delay_ms' => 10, 'max_attempts' => 5]), 'snake_case retry keys');
    }

    public function testMalformedIdempotencyKeysAreRefusedBeforeAnyRequest(): void
    {
        Servers::scriptFaults([]);
        $client = self::client();
        foreach (['short', 'has spaces in the key!', str_repeat('x', 256), 'ünïcödé-key-1234567', "valid-looking-key-0001\n"] as $bad) {
            foreach ([
                static fn () => $client->post('/offers/decline', [], $bad),
                static fn () => $client->postRaw('/headless/quote', '{}', $bad),
                static fn () => $client->offers->quote(['order_amount_cents' => 1, 'order_id' => 'o', 'protection_program_id' => 'p'], $bad),
                static fn () => $client->headless->confirm(['quote_id' => 'qt_1'], $bad),
                static fn () => $client->refunds->create('order-1', [], $bad),
            ] as $call) {
                try {
                    $call();
                    $this->fail('accepted ' . json_encode($bad));
                } catch (ServiceValidationException $error) {
                    $this->assertStringContainsString('idempotencyKey', $error->getMessage());
                }
            }
        }
        foreach ([static fn () => $client->refunds->create(''), static fn () => $client->purchases->retrieve('')] as $call) {
            try {
                $call();
                $this->fail('an empty id was accepted');
            } catch (ServiceValidationException) {
                $this->addToAssertionCount(1);
            }
        }
        $this->assertSame([], Servers::faultRequests(), 'nothing was sent');
    }

    public function testEachResourceSendsTheWireSpelling(): void
    {
        Servers::scriptFaults([['status' => 200, 'headers' => ['X-Service-Quote-Token' => 'tok_1'], 'body' => ['quoteId' => 'qt_1']]]);
        $client = self::client();
        $quote = $client->offers->quote(['orderAmountCents' => 12999, 'orderId' => 'order-1', 'protectionProgramId' => 'prog_1', 'customer_email' => 'a@b.c']);
        $this->assertSame(['quoteId' => 'qt_1', 'quoteToken' => 'tok_1'], $quote);
        $client->offers->confirm(['quote_id' => 'qt_1', 'quoteToken' => 'tok_1', 'orderContext' => ['schemaVersion' => '2026-01-01', 'order' => ['id' => 'order-1', 'coveredAmountCents' => 12999], 'participants' => ['mode' => 'unnamed']], 'customerEmail' => 'a@b.c', 'customerLocale' => 'fr-FR']);
        $client->offers->decline(['quote_id' => 'qt_1', 'reason' => 'no']);
        $client->offers->void(['reference_number' => 'CLM-2026-7KQ3M9XW']);
        $client->refunds->create('order 1/2');
        $client->claims->list(['createdGte' => new \DateTimeImmutable('2026-11-01T00:00:00+01:00'), 'limit' => 5, 'status' => null]);
        $client->claims->resolve('clm_1', ['kind' => 'refund', 'reference' => 're_1', 'amount_cents' => 4999]);
        $client->headless->quote(['orderId' => 'order-1', 'orderAmountCents' => 100, 'protectionProgramId' => 'prog_1']);
        $client->post('/anything', ['keep_Spelling' => ['x' => 1.5]]);
        $client->patch('/webhooks/endpoints/we_1', ['events' => []]);
        $client->delete('/webhooks/endpoints/we_1');
        $client->get('/purchases', ['flag' => true, 'n' => 3]);

        $sent = array_map(static fn (array $r) => [$r['method'], $r['url'], $r['body']], Servers::faultRequests());
        $this->assertSame([
            ['POST', '/api/v1/offers/quote', '{"order_amount_cents":12999,"order_id":"order-1","protection_program_id":"prog_1","customer_email":"a@b.c"}'],
            ['POST', '/api/v1/offers/confirm', '{"quoteId":"qt_1","quoteToken":"tok_1","order_context":{"schema_version":"2026-01-01","order":{"id":"order-1","covered_amount_cents":12999},"participants":{"mode":"unnamed"}},"customer_email":"a@b.c","customer_locale":"fr-FR"}'],
            ['POST', '/api/v1/offers/decline', '{"quoteId":"qt_1","reason":"no"}'],
            ['POST', '/api/v1/offers/void', '{"referenceNumber":"CLM-2026-7KQ3M9XW"}'],
            ['POST', '/api/v1/orders/order%201%2F2/refund', '{}'],
            ['GET', '/api/v1/merchant/claims?created_gte=2026-10-31T23%3A00%3A00.000Z&limit=5', ''],
            ['POST', '/api/v1/merchant/claims/clm_1/resolution', '{"kind":"refund","reference":"re_1","amountCents":4999}'],
            ['POST', '/api/v1/headless/quote', '{"order_amount_cents":100,"order_id":"order-1","protection_program_id":"prog_1"}'],
            ['POST', '/api/v1/anything', '{"keep_Spelling":{"x":1.5}}'],
            ['PATCH', '/api/v1/webhooks/endpoints/we_1', '{"events":[]}'],
            ['DELETE', '/api/v1/webhooks/endpoints/we_1', ''],
            ['GET', '/api/v1/purchases?flag=true&n=3', ''],
        ], $sent);

        $headers = Servers::faultRequests()[0]['headers'];
        $this->assertSame('Bearer mch_test_0123456789abcdefghij', $headers['authorization']);
        $this->assertSame('application/json', $headers['content-type']);
        $this->assertSame('purchase-protection-sdk-php/' . Client::SDK_VERSION, $headers['user-agent']);
        $this->assertArrayNotHasKey('idempotency-key', Servers::faultRequests()[5]['headers'], 'no key on GET');
    }

    public function testAQuoteWithoutItsTokenHeaderIsAnHttpException(): void
    {
        Servers::scriptFaults([['status' => 200, 'body' => ['quoteId' => 'qt_1']]]);
        try {
            self::client()->offers->quote(['order_amount_cents' => 1, 'order_id' => 'o', 'protection_program_id' => 'p']);
            $this->fail('no exception');
        } catch (ServiceHttpException $error) {
            $this->assertSame(200, $error->httpStatus);
            $this->assertSame('req_attempt1', $error->requestId);
            $this->assertStringContainsString('X-Service-Quote-Token', $error->getMessage());
        }
    }

    public function testTheDefaultTransportReportsARefusedConnection(): void
    {
        // A port nothing listens on. (PHP compiled to WebAssembly reports another errno than native PHP: the
        // exception is asserted, not the errno.)
        $client = new Client('k', baseUri: Servers::env('PP_CLOSED_BASE_URI'), sleep: static function (int $ms): void {
        }, retry: ['maxAttempts' => 2]);
        try {
            $client->headless->quote(['order_id' => 'o']);
            $this->fail('no exception');
        } catch (ServiceHttpException $error) {
            $this->assertNull($error->httpStatus);
            $this->assertNull($error->requestId);
            $this->assertMatchesRegularExpression('/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/D', $error->idempotencyKey);
            $this->assertInstanceOf(NetworkException::class, $error->getPrevious());
            $this->assertInstanceOf(\Psr\Http\Client\NetworkExceptionInterface::class, $error->getPrevious());
            $this->assertStringStartsWith('The request failed: ', $error->getMessage());
        }
        $this->assertInstanceOf(CurlClient::class, (new \ReflectionProperty(\PurchaseProtection\Internal\Transport::class, 'http'))->getValue((new \ReflectionProperty(Client::class, 'transport'))->getValue($client)));
    }
}
