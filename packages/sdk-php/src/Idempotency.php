<?php

declare(strict_types=1);

namespace PurchaseProtection;

use PurchaseProtection\Exception\ServiceValidationException;

/** Idempotency keys: 16 to 255 characters of A-Z, a-z, 0-9, underscore, hyphen; a UUIDv4 when the caller gives none. */
final class Idempotency
{
    /** `D`: without it `$` would also match before a trailing newline. */
    public const string KEY_PATTERN = '/^[A-Za-z0-9_-]{16,255}$/D';

    /** The key for one logical call: the caller's (validated — a key the caller gives always wins) or a new UUIDv4. */
    public static function keyFor(?string $supplied): string
    {
        if ($supplied === null) {
            return self::uuid4();
        }
        if (preg_match(self::KEY_PATTERN, $supplied) !== 1) {
            throw new ServiceValidationException("idempotencyKey must be 16 to 255 characters of A-Z, a-z, 0-9, '_' or '-'");
        }
        return $supplied;
    }

    public static function uuid4(): string
    {
        $bytes = random_bytes(16);
        $bytes[6] = chr(ord($bytes[6]) & 0x0F | 0x40); // version 4
        $bytes[8] = chr(ord($bytes[8]) & 0x3F | 0x80); // RFC 4122 variant
        return vsprintf('%s%s-%s-%s-%s-%s%s%s', str_split(bin2hex($bytes), 4));
    }
}
