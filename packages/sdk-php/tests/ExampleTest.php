<?php

declare(strict_types=1);

namespace PurchaseProtection\Tests;

use PHPUnit\Framework\TestCase;
use PurchaseProtection\Tests\Support\Servers;

/** The README's plain PHP example (examples/headless-order.php) runs against the real API. */
final class ExampleTest extends TestCase
{
    public function testTheHeadlessOrderExampleRuns(): void
    {
        putenv('PROTECTION_SECRET_KEY=' . Servers::env('PP_SECRET_KEY'));
        putenv('PROTECTION_PROGRAM_ID=' . Servers::env('PP_PROGRAM_ID'));
        putenv('PROTECTION_API_BASE=' . Servers::env('PP_API_BASE_URI'));
        ob_start();
        try {
            (static fn () => require __DIR__ . '/../examples/headless-order.php')();
        } finally {
            $output = ob_get_clean();
        }
        $this->assertMatchesRegularExpression(
            '/^protected (order-[0-9a-f]{8}): (CLM-\d{4}-[0-9A-HJKMNP-TV-Z]{8})\nrefund reported: merchant_refunded\n\2 voided\n$/D',
            $output,
        );
    }
}
