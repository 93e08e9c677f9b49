<?php

declare(strict_types=1);

namespace PurchaseProtection\Tests;

use PHPUnit\Framework\TestCase;
use PurchaseProtection\Client;
use PurchaseProtection\Tests\Support\Servers;

/**
 * The same headless payloads sent by the TypeScript SDK (before this suite started) and by this SDK arrive at the
 * loopback recorder as identical bytes (test/sdk-php/fixtures/headless-payloads.json).
 */
final class HeadlessBytesTest extends TestCase
{
    public function testTheSameHeadlessPayloadArrivesAsTheSameBytesFromBothSdks(): void
    {
        $cases = json_decode(file_get_contents(Servers::env('PP_HEADLESS_PAYLOADS')), true, 512, JSON_THROW_ON_ERROR)['cases'];
        $client = new Client('mch_test_recorder', baseUri: Servers::env('PP_RECORDER') . '/php/api/v1');
        foreach ($cases as $case) {
            // Keys in another order than the TypeScript side's: the canonical form does not depend on it.
            $client->headless->{$case['operation']}(array_reverse($case['payload'], true), $case['idempotency_key']);
        }

        $bodies = [];
        foreach (Servers::recorded() as $request) {
            $bodies[strtok($request['url'], '/')][$request['headers']['idempotency-key']] = [$request['url'], base64_decode($request['body_base64'])];
        }
        $this->assertCount(count($cases), $bodies['ts'] ?? [], 'the TypeScript SDK sent every case');
        foreach ($cases as $case) {
            [$tsUrl, $tsBody] = $bodies['ts'][$case['idempotency_key']];
            [$phpUrl, $phpBody] = $bodies['php'][$case['idempotency_key']];
            $this->assertSame("/ts/api/v1/headless/{$case['operation']}", $tsUrl);
            $this->assertSame("/php/api/v1/headless/{$case['operation']}", $phpUrl);
            $this->assertSame(bin2hex($tsBody), bin2hex($phpBody), $case['name']);
        }
    }
}
