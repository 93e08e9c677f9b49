<?php

declare(strict_types=1);

namespace PurchaseProtection\Internal;

/**
 * The versioning covenant (docs/api.md "Versioning", CHANGELOG.md): a deprecated method or option keeps working for
 * OVERLAP_DAYS after the release that deprecated it, and says so once per process. To deprecate one: mark it
 * `@deprecated Since <date>; works until <date + 90 days>. Use <replacement>.`, call Deprecation::warn() where it is
 * used, list it in CHANGELOG.md and the README with that date. The same codes and wording as the TypeScript SDK's
 * src/deprecation.ts. Not PHP 8.4's #[\Deprecated]: it warns on every call, and cannot mark an option.
 *
 * @internal
 */
final class Deprecation
{
    /** How long a deprecated method or option keeps working after the release that deprecated it. */
    public const int OVERLAP_DAYS = 90;

    /** @var array<string, true> the codes warned about in this process */
    private static array $warned = [];

    /** The last day (YYYY-MM-DD, UTC) a deprecation is sure to keep working: `since` plus the overlap. */
    public static function worksUntil(string $since): string
    {
        $start = \DateTimeImmutable::createFromFormat('!Y-m-d', $since, new \DateTimeZone('UTC'));
        if (!preg_match('/^\d{4}-\d{2}-\d{2}$/D', $since) || $start === false || $start->format('Y-m-d') !== $since) {
            throw new \InvalidArgumentException("since must be YYYY-MM-DD: {$since}");
        }
        return $start->modify('+' . self::OVERLAP_DAYS . ' days')->format('Y-m-d');
    }

    /**
     * Warns that a deprecated method or option was used — an E_USER_DEPRECATED, once per process and code — and
     * returns, so that it keeps working.
     *
     * @param string $code names it in warnings, one warning per code: `PP_SDK_DEP001`, …
     * @param string $what what is deprecated, as a caller writes it: `$client->offers->create()`, `new Client(timeout: …)`
     * @param string $since the release date that deprecated it, YYYY-MM-DD (UTC)
     * @param string $instead what to use instead
     */
    public static function warn(string $code, string $what, string $since, string $instead): void
    {
        if (isset(self::$warned[$code])) {
            return;
        }
        self::$warned[$code] = true;
        $until = self::worksUntil($since);
        trigger_error("[{$code}] {$what} is deprecated since {$since} and keeps working until {$until}; use {$instead}.", E_USER_DEPRECATED);
    }
}
