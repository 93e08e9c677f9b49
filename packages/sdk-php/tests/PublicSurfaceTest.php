<?php

declare(strict_types=1);

namespace PurchaseProtection\Tests;

use PHPUnit\Framework\TestCase;
use PurchaseProtection\Tests\Support\PublicSurface;

/**
 * The semantic-versioning covenant: a public symbol may not disappear or change its signature unnoticed.
 * public-surface.txt is the released surface. Removing or changing a line needs a deprecation first (the old symbol
 * keeps working for 90 days, marked @deprecated with its removal date, warned about once per process by
 * src/Internal/Deprecation.php, noted in CHANGELOG.md), then a major version;
 * adding a symbol is a minor version. Regenerate the file with `npm run test:php -- --filter PublicSurface` and
 * PP_WRITE_SURFACE=1 once the change is intended.
 */
final class PublicSurfaceTest extends TestCase
{
    private const string SNAPSHOT = __DIR__ . '/public-surface.txt';

    public function testThePublicSurfaceMatchesTheSnapshot(): void
    {
        $current = PublicSurface::current();
        if (getenv('PP_WRITE_SURFACE') === '1') {
            file_put_contents(self::SNAPSHOT, implode("\n", $current) . "\n");
        }
        $released = file(self::SNAPSHOT, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES);
        $this->assertSame([], array_values(array_diff($released, $current)), 'public symbols gone or changed without a deprecation (see the class comment)');
        $this->assertSame([], array_values(array_diff($current, $released)), 'new public symbols: add them to tests/public-surface.txt and CHANGELOG.md');
    }
}
