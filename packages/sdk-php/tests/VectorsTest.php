<?php

declare(strict_types=1);

namespace PurchaseProtection\Tests;

use PHPUnit\Framework\TestCase;
use PurchaseProtection\CanonicalJson;
use PurchaseProtection\Exception\ServiceValidationException;
use PurchaseProtection\Webhooks;

/** The shared vectors of test/vectors/ (the TypeScript SDK and the server run the same files). */
final class VectorsTest extends TestCase
{
    private static function load(string $name): object
    {
        return json_decode(file_get_contents(__DIR__ . "/../../../test/vectors/{$name}"), false, 512, JSON_THROW_ON_ERROR);
    }

    private static function double(string $hex): float
    {
        return unpack('E', hex2bin($hex))[1]; // big-endian IEEE 754
    }

    public function testCanonicalJsonCasesExactBytes(): void
    {
        $cases = self::load('canonical-json.json')->cases;
        $this->assertGreaterThanOrEqual(15, count($cases));
        foreach ($cases as $case) {
            // json_decode to stdClass keeps {} and [] apart, as the vectors' platforms do.
            $output = CanonicalJson::encode(json_decode($case->input_json, false, 512, JSON_THROW_ON_ERROR));
            $this->assertSame($case->expected, $output, $case->name);
            $this->assertSame($case->expected_utf8_hex, bin2hex($output), $case->name);
        }
    }

    public function testCanonicalJsonNumbersInEcmaScriptForm(): void
    {
        $vectors = self::load('canonical-json.json');
        $this->assertGreaterThanOrEqual(20, count($vectors->numbers));
        foreach ($vectors->numbers as $number) {
            $this->assertSame($number->expected, CanonicalJson::encode(self::double($number->ieee754_hex)), $number->ieee754_hex);
        }
        foreach ($vectors->invalid_numbers as $number) {
            try {
                CanonicalJson::encode([self::double($number->ieee754_hex)]);
                $this->fail("{$number->name} was accepted");
            } catch (ServiceValidationException $refused) {
                $this->assertStringContainsString('canonical JSON', $refused->getMessage());
            }
        }
    }

    public function testCanonicalJsonRefusesWhatOtherPartiesCannotReadBack(): void
    {
        $this->assertSame('[9007199254740992,-9007199254740992]', CanonicalJson::encode([2 ** 53, -(2 ** 53)]));
        foreach ([[2 ** 53 + 1], [PHP_INT_MIN], ["\xC3\x28"], ['bad' => fopen('php://memory', 'r')], [new \DateTimeImmutable()]] as $value) {
            try {
                CanonicalJson::encode($value);
                $this->fail('accepted ' . get_debug_type($value[array_key_first($value)]));
            } catch (ServiceValidationException) {
                $this->addToAssertionCount(1);
            }
        }
        $this->assertSame('{"1":true,"a":[]}', CanonicalJson::encode(['a' => [], '1' => true]), 'integer-like keys are strings');
        $this->assertSame('{}', CanonicalJson::encode(new \stdClass()));
    }

    public function testReferenceNumberPattern(): void
    {
        $vectors = self::load('reference-numbers.json');
        $pattern = '/' . $vectors->pattern . '/D'; // D: `$` must not match before a trailing newline
        foreach ($vectors->valid as $value) {
            $this->assertMatchesRegularExpression($pattern, $value);
        }
        foreach ($vectors->invalid as $invalid) {
            $this->assertDoesNotMatchRegularExpression($pattern, $invalid->value, $invalid->why);
        }
    }

    public function testWebhookSignatureVerifyCases(): void
    {
        $vectors = self::load('webhook-signatures.json');
        $this->assertGreaterThanOrEqual(20, count($vectors->verify));
        foreach ($vectors->verify as $case) {
            $this->assertSame(bin2hex($case->raw_body), $case->raw_body_utf8_hex, $case->name);
            $tolerance = $case->tolerance_seconds ?? $vectors->tolerance_seconds;
            $this->assertSame($case->valid, Webhooks::verify($case->raw_body, $case->header, $case->secret, $tolerance, $case->now), $case->name);
            $client = new \PurchaseProtection\Client('mch_test_vectors', now: static fn () => $case->now * 1000);
            $this->assertSame($case->valid, $client->webhooks->verifyWebhook($case->raw_body, $case->header, $case->secret, $tolerance), "{$case->name} (client clock)");
        }
    }

    public function testWebhookSigningVectorsVerifyUnderEachSecret(): void
    {
        $vectors = self::load('webhook-signatures.json');
        foreach ($vectors->signing as $case) {
            foreach ($case->secrets as $secret) {
                $this->assertTrue(Webhooks::verify($case->raw_body, $case->header, $secret, $vectors->tolerance_seconds, $case->timestamp), "{$case->name} / {$secret}");
            }
            // The header a signer produces: t, then one v1 per secret, current first.
            $signatures = array_map(static fn (string $secret) => 'v1=' . hash_hmac('sha256', "{$case->timestamp}.{$case->raw_body}", $secret), $case->secrets);
            $this->assertSame($case->header, "t={$case->timestamp}," . implode(',', $signatures), $case->name);
        }
        $this->assertFalse(Webhooks::verify('{}', null, 'whsec_x'), 'no header');
        $this->assertFalse(Webhooks::verify('{}', 't=1,v1=' . str_repeat('0', 64), ''), 'empty secret');
    }
}
