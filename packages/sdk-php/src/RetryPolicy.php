<?php

declare(strict_types=1);

namespace PurchaseProtection;

use PurchaseProtection\Exception\ServiceValidationException;
use PurchaseProtection\Internal\Casing;

/**
 * Which outcomes are retried and how long to wait: pure, the request loop owns the waiting. The defaults are the
 * spec's: 250 ms base delay, multiplier 2.0, jitter on, 3 attempts, Retry-After honoured up to 600 s.
 */
final class RetryPolicy
{
    public const array DEFAULTS = [
        'baseDelayMs' => 250,
        'jitter' => true,
        'maxAttempts' => 3,
        'multiplier' => 2.0,
        'retryAfterCeilingSeconds' => 600,
    ];

    private const array RETRYABLE_STATUSES = [408, 429, 500, 502, 503, 504];

    public function __construct(
        public readonly int|float $baseDelayMs = 250,
        public readonly bool $jitter = true,
        public readonly int $maxAttempts = 3,
        public readonly int|float $multiplier = 2.0,
        public readonly int|float $retryAfterCeilingSeconds = 600,
    ) {
        $check = static function (bool $ok, string $message): void {
            if (!$ok) {
                throw new ServiceValidationException("retry.{$message}");
            }
        };
        $check($maxAttempts >= 1, 'maxAttempts must be an integer ≥ 1');
        $check($baseDelayMs >= 0, 'baseDelayMs must be ≥ 0');
        $check($multiplier >= 1, 'multiplier must be ≥ 1');
        $check($retryAfterCeilingSeconds >= 0, 'retryAfterCeilingSeconds must be ≥ 0');
    }

    /**
     * The constructor's `retry` map: any subset of DEFAULTS, camelCase or snake_case keys.
     *
     * @param array<string, mixed> $options
     */
    public static function fromArray(array $options): self
    {
        $known = [];
        foreach ($options as $name => $value) {
            $name = Casing::toCamelCase((string) $name);
            if (!array_key_exists($name, self::DEFAULTS)) {
                throw new ServiceValidationException("retry.{$name} is not an option (" . implode(', ', array_keys(self::DEFAULTS)) . ')');
            }
            $default = self::DEFAULTS[$name];
            $valid = is_bool($default) ? is_bool($value) : (is_int($value) || (is_float($value) && is_finite($value)));
            if ($name === 'maxAttempts') {
                $valid = is_int($value);
            }
            if (!$valid) {
                throw new ServiceValidationException("retry.{$name} must be " . (is_bool($default) ? 'a boolean' : ($name === 'maxAttempts' ? 'an integer ≥ 1' : 'a number')));
            }
            $known[$name] = $value;
        }
        return new self(...[...self::DEFAULTS, ...$known]);
    }

    /** Whether another attempt follows attempt `$attempt` (1-based); `$status` null: no response at all. Never 409 or another 4xx. */
    public function shouldRetry(?int $status, int $attempt): bool
    {
        if ($attempt >= $this->maxAttempts) {
            return false;
        }
        return $status === null || in_array($status, self::RETRYABLE_STATUSES, true);
    }

    /**
     * Milliseconds to wait before attempt `$attempt + 1`. A Retry-After is used as given, cut to the ceiling;
     * otherwise base × multiplier^(attempt − 1), cut to the ceiling, with jitter drawn from `$random` (0..1) within
     * [delay / 2, delay].
     *
     * @param callable(): float $random
     */
    public function delayMs(int $attempt, ?int $retryAfterSeconds, callable $random): int
    {
        $ceilingMs = $this->retryAfterCeilingSeconds * 1000;
        if ($retryAfterSeconds !== null) {
            return (int) min($retryAfterSeconds * 1000, $ceilingMs);
        }
        $backoff = min($this->baseDelayMs * $this->multiplier ** ($attempt - 1), $ceilingMs);
        return (int) round($this->jitter ? $backoff / 2 + $random() * $backoff / 2 : $backoff);
    }

    /**
     * A Retry-After header in seconds: delta-seconds, or an HTTP-date measured against `$nowMs` (past dates are 0).
     * Null when absent or unreadable.
     */
    public static function parseRetryAfter(?string $header, int|float $nowMs): ?int
    {
        if ($header === null) {
            return null;
        }
        $value = trim($header);
        if (preg_match('/^\d+$/D', $value) === 1) {
            return (int) $value;
        }
        // An HTTP-date starts with its weekday (`Sun, 22 Nov 2026 12:00:30 GMT`, or the obsolete forms); strtotime alone would take "-5".
        $date = preg_match('/^[A-Za-z]{3}/', $value) === 1 ? strtotime($value) : false;
        if ($date === false) {
            return null;
        }
        return (int) max(0, ceil(($date * 1000 - $nowMs) / 1000));
    }
}
