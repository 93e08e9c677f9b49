<?php

declare(strict_types=1);

namespace PurchaseProtection;

use PurchaseProtection\Exception\ServiceValidationException;

/**
 * RFC 8785 (JCS) canonical JSON: keys sorted by UTF-16 code units, no whitespace, ECMAScript number formatting,
 * minimal string escapes. The same value gives the same bytes here, in the TypeScript SDK and on the server
 * (test/vectors/canonical-json.json).
 *
 * PHP values map to JSON as json_encode maps them, with one choice made explicit: a list array is a JSON array and
 * any other array (the empty one aside, which is `[]`) a JSON object; a stdClass is always an object (`{}` when
 * empty), so `json_decode($text)` output keeps its shape. JsonSerializable objects are serialised by their
 * jsonSerialize(). Integers beyond ±2^53 are refused: a double, which every other party parses them into, cannot
 * hold them.
 */
final class CanonicalJson
{
    private const MAX_SAFE_INTEGER = 9007199254740992;

    public static function encode(mixed $value): string
    {
        return self::value($value, 0);
    }

    private static function value(mixed $value, int $depth): string
    {
        if ($depth > 512) {
            throw self::refuse('it is nested more than 512 levels deep');
        }
        return match (true) {
            $value === null => 'null',
            $value === true => 'true',
            $value === false => 'false',
            is_int($value) => self::integer($value),
            is_float($value) => self::number($value),
            is_string($value) => self::string($value),
            is_array($value) => array_is_list($value)
                ? self::list($value, $depth)
                : self::object($value, $depth),
            $value instanceof \JsonSerializable => self::value($value->jsonSerialize(), $depth + 1),
            $value instanceof \stdClass => self::object(get_object_vars($value), $depth),
            default => throw self::refuse('a ' . get_debug_type($value) . ' has no JSON form'),
        };
    }

    /** @param list<mixed> $items */
    private static function list(array $items, int $depth): string
    {
        return '[' . implode(',', array_map(static fn (mixed $item) => self::value($item, $depth + 1), $items)) . ']';
    }

    /** @param array<int|string, mixed> $members */
    private static function object(array $members, int $depth): string
    {
        $sortKeys = [];
        foreach ($members as $name => $member) {
            $name = (string) $name; // PHP turns the key "1" into the integer 1
            $sortKeys[$name] = self::utf16SortKey(self::validUtf8($name));
        }
        uksort($members, static fn (int|string $a, int|string $b) => strcmp($sortKeys[(string) $a], $sortKeys[(string) $b]));
        $parts = [];
        foreach ($members as $name => $member) {
            $parts[] = self::string((string) $name) . ':' . self::value($member, $depth + 1);
        }
        return '{' . implode(',', $parts) . '}';
    }

    /**
     * UTF-8 bytes sort by code point; UTF-16 code units differ only in putting the characters beyond U+FFFF (their
     * surrogates D800–DBFF) before U+E000–U+FFFF. Prefixing each 4-byte sequence with "\xED" (the lead byte of
     * U+D000–U+DFFF, then a byte no 3-byte sequence has) gives byte strings that sort as their UTF-16 code units.
     */
    private static function utf16SortKey(string $utf8): string
    {
        return preg_replace('/[\x{10000}-\x{10FFFF}]/u', "\xED\$0", $utf8);
    }

    private static function string(string $value): string
    {
        $escaped = preg_replace_callback(
            '/[\x00-\x1F"\\\\]/',
            static fn (array $match) => match ($match[0]) {
                '"' => '\\"',
                '\\' => '\\\\',
                "\x08" => '\\b',
                "\t" => '\\t',
                "\n" => '\\n',
                "\x0C" => '\\f',
                "\r" => '\\r',
                default => sprintf('\\u%04x', ord($match[0])),
            },
            self::validUtf8($value),
        );
        return '"' . $escaped . '"';
    }

    private static function validUtf8(string $value): string
    {
        if (preg_match('//u', $value) !== 1) {
            throw self::refuse('a string is not valid UTF-8');
        }
        return $value;
    }

    private static function integer(int $value): string
    {
        if ($value > self::MAX_SAFE_INTEGER || $value < -self::MAX_SAFE_INTEGER) {
            throw self::refuse("the integer {$value} is beyond ±2^53, which a double cannot hold exactly");
        }
        return (string) $value;
    }

    /** ECMAScript Number::toString of a double: the shortest digits that read back as it, placed as JS places them. */
    private static function number(float $value): string
    {
        if (!is_finite($value)) {
            throw self::refuse('NaN and Infinity have no JSON form');
        }
        if ($value == 0.0) {
            return '0'; // -0 too
        }
        [$digits, $point] = self::shortestDigits(abs($value));
        $sign = $value < 0 ? '-' : '';
        $count = strlen($digits);
        if ($count <= $point && $point <= 21) {
            return $sign . $digits . str_repeat('0', $point - $count);
        }
        if (0 < $point && $point <= 21) {
            return $sign . substr($digits, 0, $point) . '.' . substr($digits, $point);
        }
        if (-6 < $point && $point <= 0) {
            return $sign . '0.' . str_repeat('0', -$point) . $digits;
        }
        $exponent = $point - 1;
        $mantissa = $count === 1 ? $digits : $digits[0] . '.' . substr($digits, 1);
        return $sign . $mantissa . 'e' . ($exponent < 0 ? '-' : '+') . abs($exponent);
    }

    /**
     * The shortest round-trip decimal digits of a positive double and the position of the decimal point
     * (value = 0.DIGITS × 10^point). PHP's serialize_precision -1 asks its dtoa for exactly these (mode 0);
     * whatever layout it prints them in, only the digits and the exponent are read back.
     *
     * @return array{string, int}
     */
    private static function shortestDigits(float $value): array
    {
        $precision = ini_get('serialize_precision');
        ini_set('serialize_precision', '-1');
        try {
            $text = var_export($value, true);
        } finally {
            ini_set('serialize_precision', (string) $precision);
        }
        if (preg_match('/^(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/D', $text, $parts) !== 1) {
            throw new \LogicException("unexpected float text {$text}");
        }
        $integer = $parts[1];
        $fraction = $parts[2] ?? '';
        $exponent = (int) ($parts[3] ?? 0);
        $all = $integer . $fraction;
        $leading = strlen($all) - strlen(ltrim($all, '0'));
        $digits = rtrim(ltrim($all, '0'), '0');
        return [$digits, strlen($integer) - $leading + $exponent];
    }

    private static function refuse(string $why): ServiceValidationException
    {
        return new ServiceValidationException("The payload cannot be sent as canonical JSON: {$why}");
    }
}
