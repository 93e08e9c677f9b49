<?php

declare(strict_types=1);

namespace PurchaseProtection\Tests;

use PHPUnit\Framework\TestCase;
use PurchaseProtection\Internal\Deprecation;
use PurchaseProtection\Tests\Fixtures\Widgets;

/**
 * The versioning covenant at run time: a deprecated method or option keeps working and triggers one
 * E_USER_DEPRECATED per process, naming the date until which it works (src/Internal/Deprecation.php; the same
 * wording as the TypeScript SDK's).
 */
final class DeprecationTest extends TestCase
{
    /**
     * Runs $code and returns the E_USER_DEPRECATED messages it triggered.
     *
     * @return list<string>
     */
    private static function deprecations(callable $code): array
    {
        $messages = [];
        set_error_handler(static function (int $level, string $message) use (&$messages): bool {
            $messages[] = $message;
            return true;
        }, E_USER_DEPRECATED);
        try {
            $code();
        } finally {
            restore_error_handler();
        }
        return $messages;
    }

    public function testADeprecatedMethodKeepsWorkingAndWarnsOncePerProcess(): void
    {
        $results = [];
        $messages = self::deprecations(static function () use (&$results): void {
            for ($i = 0; $i < 3; $i++) {
                $results[] = (new Widgets())->fetchAll();
            }
        });
        $this->assertSame([['a', 'b'], ['a', 'b'], ['a', 'b']], $results);
        $this->assertSame(['[PP_SDK_DEP_TEST1] $widgets->fetchAll() is deprecated since 2026-11-25 and keeps working until 2027-02-23; use $widgets->list().'], $messages);
        $this->assertSame([], self::deprecations(static fn () => (new Widgets())->fetchAll()), 'still once');
    }

    public function testADeprecatedOptionKeepsWorkingAndWarnsOnceTheCurrentOptionDoesNot(): void
    {
        $this->assertSame([], self::deprecations(fn () => $this->assertSame(5, (new Widgets(timeoutMs: 5))->timeoutMs)));
        $messages = self::deprecations(function (): void {
            $this->assertSame(7, (new Widgets(timeout: 7))->timeoutMs);
            $this->assertSame(8, (new Widgets(timeout: 8))->timeoutMs);
        });
        $this->assertSame(['[PP_SDK_DEP_TEST2] new Widgets(timeout: …) is deprecated since 2026-11-25 and keeps working until 2027-02-23; use timeoutMs.'], $messages);
    }

    public function testItIsAnEUserDeprecated(): void
    {
        $levels = [];
        set_error_handler(static function (int $level) use (&$levels): bool {
            $levels[] = $level;
            return true;
        });
        try {
            Deprecation::warn('PP_SDK_DEP_TEST3', 'x()', '2026-11-25', 'y()');
        } finally {
            restore_error_handler();
        }
        $this->assertSame([E_USER_DEPRECATED], $levels);
    }

    public function testADeprecationKeepsWorking90DaysAfterItsRelease(): void
    {
        $this->assertSame(90, Deprecation::OVERLAP_DAYS);
        $this->assertSame('2027-02-23', Deprecation::worksUntil('2026-11-25'));
        $this->assertSame('2027-04-01', Deprecation::worksUntil('2027-01-01'));
        foreach (['25/11/2026', '2026-02-30', '2026-11-25 '] as $bad) {
            try {
                Deprecation::worksUntil($bad);
                $this->fail("accepted {$bad}");
            } catch (\InvalidArgumentException $error) {
                $this->assertStringContainsString('YYYY-MM-DD', $error->getMessage());
            }
        }
    }
}
