<?php

declare(strict_types=1);

namespace PurchaseProtection\Internal;

/**
 * Key spelling. Callers may write camelCase or snake_case; each resource sends the spelling its route expects.
 *
 * @internal
 */
final class Casing
{
    public static function toSnakeCase(string $key): string
    {
        return preg_replace_callback('/[A-Z]/', static fn (array $m) => '_' . strtolower($m[0]), $key);
    }

    public static function toCamelCase(string $key): string
    {
        return preg_replace_callback('/_([a-z0-9])/', static fn (array $m) => strtoupper($m[1]), $key);
    }

    /** snake_case keys at every depth (headless bodies, order_context, list queries); a stdClass stays an object. */
    public static function snakeCaseKeys(mixed $value): mixed
    {
        if ($value instanceof \stdClass) {
            return (object) self::snakeCaseKeys(get_object_vars($value));
        }
        if (!is_array($value)) {
            return $value;
        }
        if (array_is_list($value)) {
            return array_map(self::snakeCaseKeys(...), $value);
        }
        $result = [];
        foreach ($value as $key => $inner) {
            $result[is_string($key) ? self::toSnakeCase($key) : $key] = self::snakeCaseKeys($inner);
        }
        return $result;
    }

    /**
     * camelCase keys at the top level only (confirm, decline, void and claim resolution bodies).
     *
     * @param array<int|string, mixed> $value
     * @return array<int|string, mixed>
     */
    public static function camelCaseKeys(array $value): array
    {
        $result = [];
        foreach ($value as $key => $inner) {
            $result[is_string($key) ? self::toCamelCase($key) : $key] = $inner;
        }
        return $result;
    }
}
