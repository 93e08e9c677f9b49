<?php

declare(strict_types=1);

namespace PurchaseProtection\Tests\Fixtures;

use PurchaseProtection\Internal\Deprecation;

/**
 * A resource with a deprecated method and a deprecated option, written the way src/Internal/Deprecation.php says:
 * what a real deprecation in the SDK looks like (none is deprecated today). Used by DeprecationTest.
 */
final class Widgets
{
    public readonly int $timeoutMs;

    /**
     * @param int|null $timeout deprecated: Since 2026-11-25; works until 2027-02-23. Use `timeoutMs`.
     */
    public function __construct(?int $timeoutMs = null, ?int $timeout = null)
    {
        if ($timeout !== null) {
            Deprecation::warn('PP_SDK_DEP_TEST2', 'new Widgets(timeout: …)', '2026-11-25', 'timeoutMs');
        }
        $this->timeoutMs = $timeoutMs ?? $timeout ?? 30_000;
    }

    /** @return list<string> */
    public function list(): array
    {
        return ['a', 'b'];
    }

    /**
     * @deprecated Since 2026-11-25; works until 2027-02-23. Use list().
     * @return list<string>
     */
    public function fetchAll(): array
    {
        Deprecation::warn('PP_SDK_DEP_TEST1', '$widgets->fetchAll()', '2026-11-25', '$widgets->list()');
        return $this->list();
    }
}
