<?php

declare(strict_types=1);

namespace PurchaseProtection;

/**
 * Webhook signature check. X-Service-Signature is `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`; other schemes (v2, v1n,
 * …) may appear and are ignored; any v1 that matches passes (during a secret rotation both secrets sign). The
 * signed string is `t + "." + rawBody`, HMAC-SHA256 under the endpoint's secret, hex; `t` must be within the
 * tolerance of now in either direction. Answers true or false, never throws.
 */
final class Webhooks
{
    public const int DEFAULT_TOLERANCE_SECONDS = 300;

    /** @param callable(): (int|float) $nowMs the client's clock, epoch milliseconds */
    public function __construct(private readonly mixed $nowMs)
    {
    }

    /** `$now`: Unix seconds or a DateTimeInterface; default the client's clock. */
    public function verifyWebhook(
        string $rawBody,
        ?string $header,
        string $secret,
        int|float $toleranceSeconds = self::DEFAULT_TOLERANCE_SECONDS,
        int|float|\DateTimeInterface|null $now = null,
    ): bool {
        return self::verify($rawBody, $header, $secret, $toleranceSeconds, $now ?? ($this->nowMs)() / 1000);
    }

    /** The same check without a client; `$now` defaults to the system clock. */
    public static function verify(
        string $rawBody,
        ?string $header,
        string $secret,
        int|float $toleranceSeconds = self::DEFAULT_TOLERANCE_SECONDS,
        int|float|\DateTimeInterface|null $now = null,
    ): bool {
        $parsed = self::parseSignatureHeader($header ?? '');
        if ($parsed === null || $secret === '') {
            return false;
        }
        $nowSeconds = match (true) {
            $now instanceof \DateTimeInterface => (float) $now->format('U.u'),
            $now === null => microtime(true),
            default => $now,
        };
        if (abs($nowSeconds - (int) $parsed['timestamp']) > $toleranceSeconds) {
            return false;
        }
        $expected = hash_hmac('sha256', "{$parsed['timestamp']}.{$rawBody}", $secret, true);
        $matched = false;
        foreach ($parsed['v1'] as $candidate) {
            $matched = hash_equals($expected, $candidate) || $matched; // checks them all, in constant time each
        }
        return $matched;
    }

    /**
     * `t=…,v1=…,…` → the timestamp digits and the v1 signatures (as bytes); null when there is not exactly one
     * numeric t or no v1.
     *
     * @return array{timestamp: string, v1: list<string>}|null
     */
    public static function parseSignatureHeader(string $header): ?array
    {
        $timestamps = [];
        $v1 = [];
        foreach (explode(',', $header) as $part) {
            if (!str_contains($part, '=')) {
                continue;
            }
            [$scheme, $value] = array_map(trim(...), explode('=', $part, 2));
            if ($scheme === 't') {
                $timestamps[] = $value;
            } elseif ($scheme === 'v1' && preg_match('/^[0-9a-fA-F]{64}$/D', $value) === 1) {
                $v1[] = hex2bin($value);
            }
        }
        if (count($timestamps) !== 1 || preg_match('/^\d{1,12}$/D', $timestamps[0]) !== 1 || $v1 === []) {
            return null;
        }
        return ['timestamp' => $timestamps[0], 'v1' => $v1];
    }
}
