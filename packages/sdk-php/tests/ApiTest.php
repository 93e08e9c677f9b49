<?php

declare(strict_types=1);

namespace PurchaseProtection\Tests;

use PHPUnit\Framework\TestCase;
use PurchaseProtection\CanonicalJson;
use PurchaseProtection\Client;
use PurchaseProtection\Exception\ServiceHttpException;
use PurchaseProtection\Http\CurlClient;
use PurchaseProtection\Http\Factories;
use PurchaseProtection\Tests\Support\RecordingClient;
use PurchaseProtection\Tests\Support\Servers;

/** Every resource against the real API on loopback (a fresh SQLite database, one seeded test merchant). */
final class ApiTest extends TestCase
{
    private const string REFERENCE_NUMBER = '/^CLM-[0-9]{4}-[0-9A-HJKMNP-TV-Z]{8}$/D';

    private RecordingClient $http;
    private Client $secret;
    private Client $widget;

    protected function setUp(): void
    {
        $factory = Factories::discover();
        $this->http = new RecordingClient(new CurlClient($factory, $factory));
        $options = ['baseUri' => Servers::env('PP_API_BASE_URI'), 'http' => $this->http, 'sleep' => static function (int $ms): void {
        }];
        $this->secret = new Client(Servers::env('PP_SECRET_KEY'), ...$options);
        $this->widget = new Client(Servers::env('PP_PUBLISHABLE_KEY'), ...$options);
    }

    private static function orderId(string $name): string
    {
        return $name . '-' . bin2hex(random_bytes(8));
    }

    /** Quote (camelCase input) and confirm (camelCase order context) with the widget key. */
    private function protect(?string $orderId = null): array
    {
        $orderId ??= self::orderId('order');
        $quote = $this->widget->offers->quote(['orderAmountCents' => 12999, 'orderId' => $orderId, 'protectionProgramId' => Servers::env('PP_PROGRAM_ID')]);
        // The quote was made at expiresAt less its lifetime; the order was placed a minute later.
        $purchasedAt = (new \DateTimeImmutable($quote['expiresAt']))
            ->modify('-' . ((int) Servers::env('PP_QUOTE_LIFETIME_MS') - 60000) . ' milliseconds');
        $confirmation = $this->widget->offers->confirm([
            'quoteId' => $quote['quoteId'],
            'quoteToken' => $quote['quoteToken'],
            'orderContext' => [
                'schemaVersion' => '2026-01-01',
                'order' => ['id' => $orderId, 'purchasedAt' => $purchasedAt->format('Y-m-d\TH:i:s.v\Z'), 'currency' => 'USD', 'coveredAmountCents' => 12999],
                'participants' => ['mode' => 'unnamed'],
            ],
            'customerEmail' => 'ada@example.com',
            'shippingAddress' => ['countryCode' => 'GB', 'postalCode' => 'SW1A 1AA', 'line1' => '10 Downing Street'],
        ]);
        return [$quote, $confirmation];
    }

    public function testQuotesWithTheTokenFromTheHeaderAndConfirmsIntoAPlan(): void
    {
        [$quote, $confirmation] = $this->protect();
        $this->assertStringStartsWith('qt_', $quote['quoteId']);
        $this->assertSame(390, $quote['feeCents']);
        $this->assertGreaterThanOrEqual(40, strlen($quote['quoteToken']));
        $this->assertMatchesRegularExpression(self::REFERENCE_NUMBER, $confirmation['referenceNumber']);
        $this->assertSame('confirmed', $confirmation['status']);
        $this->assertSame($quote['orderId'], $confirmation['orderId']);
        $this->assertSame('ada@example.com', json_decode($this->http->lastBody(), true)['customer_email'], 'customerEmail goes snake_case');
        $this->assertStringContainsString('"order_context":{"schema_version":"2026-01-01"', $this->http->lastBody());
        $this->assertSame(
            ['country_code' => 'GB', 'postal_code' => 'SW1A 1AA', 'line1' => '10 Downing Street'],
            json_decode($this->http->lastBody(), true)['shipping_address'],
            'the address goes snake_case at every depth',
        );
    }

    public function testReplaysACallMadeTwiceWithTheSameIdempotencyKey(): void
    {
        $fields = ['order_amount_cents' => 5000, 'order_id' => self::orderId('replay'), 'protection_program_id' => Servers::env('PP_PROGRAM_ID')];
        $key = 'php-replay-' . bin2hex(random_bytes(8));
        $first = $this->secret->quotes->create($fields, $key);
        $second = $this->secret->quotes->create($fields, $key);
        $this->assertSame($first['quoteId'], $second['quoteId']);
        $this->assertSame($first['quoteToken'], $second['quoteToken']);
    }

    public function testDeclinesAQuoteAndVoidsAPlan(): void
    {
        $quote = $this->widget->offers->quote(['order_amount_cents' => 2000, 'order_id' => self::orderId('decline'), 'protection_program_id' => Servers::env('PP_PROGRAM_ID')]);
        $this->assertSame('declined', $this->widget->offers->decline(['quote_id' => $quote['quoteId'], 'reason' => 'not today'])['status']);

        [, $confirmation] = $this->protect();
        $voided = $this->secret->offers->void(['reference_number' => $confirmation['referenceNumber'], 'reason' => 'order cancelled']);
        $this->assertSame('voided', $voided['status']);
    }

    public function testReportsAShipmentAndItsScansAndReadsTheOrdersDelivery(): void
    {
        [$quote] = $this->protect();
        $shipment = $this->secret->shipments->create($quote['orderId'], ['carrier' => 'UPS', 'tracking_number' => '1Z999AA10123456784', 'promised_delivery_date' => '2026-11-25']);
        $this->assertSame('{"carrier":"UPS","trackingNumber":"1Z999AA10123456784","promisedDeliveryDate":"2026-11-25"}', $this->http->lastBody());
        $this->assertStringStartsWith('shp_', $shipment['id']);
        $this->assertSame('pending', $shipment['state']);

        // Before the test API's clock (test/support/api-server.ts TestClock: 2026-11-22 12:00 UTC): a scan in its past.
        $occurredAt = '2026-11-22T11:00:00.000Z';
        $scanned = $this->secret->shipments->createEvent($shipment['id'], ['status' => 'delivered', 'occurredAt' => $occurredAt]);
        $this->assertSame('delivered', $scanned['state']);
        $this->assertSame($occurredAt, $scanned['deliveredAt']);
        $again = $this->secret->shipments->create($quote['orderId'], ['carrier' => 'UPS', 'trackingNumber' => '1Z999AA10123456784']);
        $this->assertSame($shipment['id'], $again['id'], 'the same tracking number is the same shipment');

        $delivery = $this->secret->shipments->orderDelivery($quote['orderId']);
        $this->assertSame('order_delivery', $delivery['object']);
        $this->assertSame('delivered', $delivery['state']);
        $this->assertSame([$scanned], $delivery['shipments']);
    }

    public function testConnectsAftershipWithoutTheSecretComingBack(): void
    {
        $connection = $this->secret->shipments->connectAftership('aftership-php-secret');
        $this->assertSame('{"secret":"aftership-php-secret"}', $this->http->lastBody());
        $this->assertSame('tracking_connection', $connection['object']);
        $this->assertSame('/api/v1/tracking/aftership/' . Servers::env('PP_MERCHANT_ID') . '/test', $connection['callbackPath']);
        $this->assertStringNotContainsString('aftership-php-secret', json_encode($connection, JSON_THROW_ON_ERROR));
    }

    public function testReportsAMerchantRefundOnceAndTheSecondIsA409NotRetried(): void
    {
        [$quote] = $this->protect();
        $refund = $this->secret->refunds->create($quote['orderId']);
        $this->assertSame('merchant_refunded', $refund['status']);
        $this->assertFalse($refund['consumerRefundIssued']);
        $this->assertSame('voided', $refund['purchase']['status']);
        $this->assertSame('{}', $this->http->lastBody());

        $before = count($this->http->requests);
        try {
            $this->secret->refunds->create($quote['orderId']);
            $this->fail('refunded twice');
        } catch (ServiceHttpException $error) {
            $this->assertSame(409, $error->httpStatus);
            $this->assertSame('order_already_refunded', $error->errorCode);
            $this->assertSame('invalid_request_error', $error->errorType);
            $this->assertStringStartsWith('req_', $error->requestId);
            $this->assertMatchesRegularExpression('/^[0-9a-f-]{36}$/D', $error->idempotencyKey);
        }
        $this->assertCount($before + 1, $this->http->requests, 'one attempt');
    }

    public function testListsPurchasesPageByPageAndEveryPurchaseAcrossThePages(): void
    {
        $mine = [$this->protect(), $this->protect(), $this->protect()];
        $first = $this->secret->purchases->list(['limit' => 2]);
        $this->assertSame('list', $first['object']);
        $this->assertCount(2, $first['data']);
        $this->assertTrue($first['has_more']);

        // The generators are run by a foreach in the test method itself: PHP compiled to WebAssembly with asyncify
        // (how the suite runs PHP 8.4) crashes when iterator_to_array() or another function resumes a generator
        // that waits on the network. Native PHP has no such limit.
        $pages = [];
        foreach ($this->secret->purchases->pages(['limit' => 2]) as $page) {
            $pages[] = $page;
        }
        $this->assertGreaterThanOrEqual(2, count($pages));
        $this->assertFalse(end($pages)['has_more']);
        $all = [];
        foreach ($this->secret->purchases->all(['limit' => 2]) as $purchase) {
            $all[] = $purchase;
        }
        $this->assertSame(array_merge(...array_column($pages, 'data')), $all);
        $ids = array_column($all, 'id');
        $this->assertSame($ids, array_values(array_unique($ids)), 'no purchase twice');
        $references = array_column($all, 'referenceNumber');
        foreach ($mine as [, $confirmation]) {
            $this->assertContains($confirmation['referenceNumber'], $references);
        }
        $this->assertStringContainsString('starting_after=', (string) end($this->http->requests)->getUri(), 'the cursor is followed');

        $one = $this->secret->purchases->list(['orderId' => $mine[0][1]['orderId']])['data'];
        $this->assertCount(1, $one);
        $this->assertSame(390, $this->secret->purchases->retrieve($one[0]['id'])['consent']['feeCents']);
        $corrected = $this->secret->purchases->setCustomerEmail($one[0]['id'], ['customerEmail' => 'ada.b@example.com']);
        $this->assertSame($one[0]['id'], $corrected['id']);
        $this->assertSame('{"customer_email":"ada.b@example.com"}', $this->http->lastBody());
    }

    public function testListsClaimsAndReachesOtherRoutesThroughTheGenericGet(): void
    {
        $claims = $this->secret->claims->list(['limit' => 10]);
        $this->assertSame(['object' => 'list', 'data' => []], ['object' => $claims['object'], 'data' => $claims['data']]);
        foreach ($this->secret->claims->all() as $claim) {
            $this->fail('a claim: ' . json_encode($claim));
        }
        $this->assertSame('merchant_metrics', $this->secret->get('/merchants/' . Servers::env('PP_MERCHANT_ID') . '/metrics')['object']);
        $this->assertSame('merchant_metrics', $this->secret->merchants->metrics(Servers::env('PP_MERCHANT_ID'), ['from' => new \DateTimeImmutable('@0')])['object']);
        $this->assertSame('week', $this->secret->merchants->metrics(Servers::env('PP_MERCHANT_ID'), ['interval' => 'week'])['analytics']['interval']);
        // The CSV: the route's text, unparsed, asked for as text/csv with the same query; a header row first.
        $csv = $this->secret->merchants->metricsCsv(Servers::env('PP_MERCHANT_ID'), ['from' => '2026-11-01', 'to' => '2026-11-30', 'interval' => 'week']);
        $sent = end($this->http->requests);
        $this->assertSame('text/csv', $sent->getHeaderLine('Accept'));
        $this->assertStringEndsWith('/metrics.csv?from=2026-11-01&to=2026-11-30&interval=week', (string) $sent->getUri());
        $this->assertStringStartsWith("period_start,currency,offers_shown,confirmed,", $csv);
        $this->assertStringEndsWith("\r\n", $csv);
        try {
            $this->secret->merchants->metricsCsv('mer_someone_else');
            $this->fail('read');
        } catch (ServiceHttpException $error) {
            $this->assertSame(404, $error->httpStatus);
        }
        $this->assertSame('list', $this->secret->settlements->list()['object']);
        $balances = $this->secret->settlements->balance();
        $this->assertSame('list', $balances['object']);
        $this->assertSame(['USD'], array_map(static fn (array $balance): string => $balance['currency'], $balances['data']));
        $this->assertSame('settlement_balance', $balances['data'][0]['object']);
        try {
            $this->secret->claims->retrieve('clm_does_not_exist');
            $this->fail('found');
        } catch (ServiceHttpException $error) {
            $this->assertSame(404, $error->httpStatus);
        }
    }

    public function testListsAndReadsTheMerchantsPrograms(): void
    {
        $programId = Servers::env('PP_PROGRAM_ID');
        $listed = $this->secret->programs->list();
        $this->assertSame([$programId], array_column($listed['data'], 'id'));
        $program = $this->secret->programs->retrieve($programId);
        $this->assertSame($listed['data'][0], $program);
        $this->assertSame(['protection_program', 300], [$program['object'], $program['rateBps']]);
        // Each currency's limits in its own minor units: ¥150, KWD 0.300.
        $this->assertSame(['minFeeCents' => 150, 'maxCoveredCents' => 750000], $program['currencyLimits']['JPY']);
        $this->assertSame(['minFeeCents' => 300, 'maxCoveredCents' => 1500000], $program['currencyLimits']['KWD']);
        try {
            $this->widget->programs->list();
            $this->fail('a publishable key read the programs');
        } catch (ServiceHttpException $error) {
            $this->assertSame([403, 'secret_key_required'], [$error->httpStatus, $error->errorCode]);
        }
    }

    public function testRunsTheHeadlessPathWithCanonicalJsonBodies(): void
    {
        $orderId = self::orderId('headless');
        $quote = $this->secret->headless->quote(['orderAmountCents' => 10000, 'orderId' => $orderId, 'protectionProgramId' => Servers::env('PP_PROGRAM_ID'), 'currency' => 'usd']);
        $this->assertSame($this->secret->headless::DISCLOSURE_PHRASE, $quote['disclosure_text']);
        $this->assertSame('USD', $quote['currency']);
        $this->assertSame(
            CanonicalJson::encode(['currency' => 'usd', 'order_amount_cents' => 10000, 'order_id' => $orderId, 'protection_program_id' => Servers::env('PP_PROGRAM_ID')]),
            $this->http->lastBody(),
        );
        $confirmation = $this->secret->headless->confirm(['quoteId' => $quote['quote_id'], 'customerEmail' => 'bo@example.com']);
        $this->assertMatchesRegularExpression(self::REFERENCE_NUMBER, $confirmation['reference_number']);
        $this->assertSame('{"customer_email":"bo@example.com","quote_id":"' . $quote['quote_id'] . '"}', $this->http->lastBody());

        $other = $this->secret->headless->quote(['order_amount_cents' => 3000, 'order_id' => self::orderId('headless'), 'protection_program_id' => Servers::env('PP_PROGRAM_ID')]);
        $this->assertSame('declined', $this->secret->headless->decline(['quote_id' => $other['quote_id'], 'reason' => 'buyer said no'])['status']);

        $raw = $this->secret->postRaw('/headless/quote', CanonicalJson::encode(['order_amount_cents' => 3000, 'order_id' => self::orderId('raw'), 'protection_program_id' => Servers::env('PP_PROGRAM_ID')]));
        $this->assertSame('This is not insurance', $raw['disclosure_text']);
    }

    public function testManagesWebhookEndpointsThroughTheirResourceAndTheGenericMethods(): void
    {
        $created = $this->secret->post('/webhooks/endpoints', ['url' => 'https://merchant.example/hooks', 'events' => ['claim.created']]);
        $this->assertStringStartsWith('whsec_', $created['secret']);
        $this->assertSame(['*'], $this->secret->patch("/webhooks/endpoints/{$created['id']}", ['events' => ['*']])['events']);
        $rotated = $this->secret->webhookEndpoints->rotateSecret($created['id']);
        $this->assertNotSame($created['secret'], $rotated['secret']);
        $this->assertSame('https://merchant.example/hooks', $this->secret->webhookEndpoints->retrieve($created['id'])['url']);
        $ids = [];
        foreach ($this->secret->webhookEndpoints->all(['limit' => 1]) as $endpoint) {
            $ids[] = $endpoint['id'];
        }
        $this->assertContains($created['id'], $ids);
        $this->assertSame([], $this->secret->webhookEndpoints->deliveries($created['id'])->list()['data']);

        // The event log behind webhooks: find this plan's protection.confirmed, read it, queue it for the endpoint.
        [, $confirmation] = $this->protect();
        $event = null;
        foreach ($this->secret->events->all(['type' => 'protection.confirmed', 'limit' => 2]) as $listed) {
            if ($listed['data']['object']['referenceNumber'] === $confirmation['referenceNumber']) {
                $event = $listed;
            }
        }
        $this->assertNotNull($event);
        $this->assertSame($event, $this->secret->events->retrieve($event['id']));
        $redelivery = $this->secret->events->redeliver($event['id'], ['endpointId' => $created['id']]);
        $this->assertSame([$created['id']], array_column($redelivery['deliveries'], 'endpointId'));
        $this->assertSame('{"endpoint_id":"' . $created['id'] . '"}', $this->http->lastBody());
        $this->assertSame(['id' => $created['id'], 'object' => 'webhook_endpoint', 'deleted' => true], $this->secret->webhookEndpoints->delete($created['id']));
        try {
            $this->secret->get("/webhooks/endpoints/{$created['id']}");
            $this->fail('still there');
        } catch (ServiceHttpException $error) {
            $this->assertSame(404, $error->httpStatus);
        }
    }

    public function testSurfacesTheApisRefusals(): void
    {
        try {
            $this->widget->offers->void(['orderId' => 'anything']);
            $this->fail('a widget key voided');
        } catch (ServiceHttpException $error) {
            $this->assertSame([403, 'secret_key_required', 'permission_error'], [$error->httpStatus, $error->errorCode, $error->errorType]);
        }
        $quote = $this->widget->offers->quote(['order_amount_cents' => 2000, 'order_id' => self::orderId('invalid'), 'protection_program_id' => Servers::env('PP_PROGRAM_ID')]);
        try {
            $this->widget->offers->confirm(['quoteId' => $quote['quoteId'], 'quoteToken' => $quote['quoteToken'], 'order_context' => ['schema_version' => 'nope']]);
            $this->fail('confirmed without an order context');
        } catch (ServiceHttpException $error) {
            $this->assertSame([422, 'order_context_invalid'], [$error->httpStatus, $error->errorCode]);
        }
        try {
            (new Client('mch_test_notarealkey', baseUri: Servers::env('PP_API_BASE_URI')))->claims->list();
            $this->fail('an unknown key listed claims');
        } catch (ServiceHttpException $error) {
            $this->assertSame(401, $error->httpStatus);
        }
    }
}
