<?php

declare(strict_types=1);

namespace PurchaseProtection\Tests\Support;

/**
 * The loopback servers the Node side started (test/sdk-php/servers.ts), by the environment it passed: the real API,
 * the fault server and its control API, the recorder.
 */
final class Servers
{
    public static function env(string $name): string
    {
        $value = getenv($name);
        if ($value === false || $value === '') {
            throw new \RuntimeException("{$name} is not set: run the suite with `npm run test:php`");
        }
        return $value;
    }

    /** Replace the fault server's script: the n-th request gets the n-th fault; past its end, 200 {"ok":true}. */
    public static function scriptFaults(array $faults): void
    {
        self::request('POST', self::env('PP_FAULT_CONTROL') . '/script', json_encode($faults, JSON_THROW_ON_ERROR));
    }

    /** @return list<array{method: string, url: string, headers: array<string, string>, body: string}> */
    public static function faultRequests(): array
    {
        return json_decode(self::request('GET', self::env('PP_FAULT_CONTROL') . '/requests'), true, 512, JSON_THROW_ON_ERROR);
    }

    /** @return list<array{method: string, url: string, headers: array<string, string>, body_base64: string}> */
    public static function recorded(): array
    {
        return json_decode(self::request('GET', self::env('PP_RECORDER') . '/__recorded'), true, 512, JSON_THROW_ON_ERROR);
    }

    private static function request(string $method, string $url, ?string $body = null): string
    {
        $handle = curl_init($url);
        curl_setopt_array($handle, [CURLOPT_CUSTOMREQUEST => $method, CURLOPT_RETURNTRANSFER => true, CURLOPT_TIMEOUT => 10]);
        if ($body !== null) {
            curl_setopt($handle, CURLOPT_POSTFIELDS, $body);
        }
        $response = curl_exec($handle);
        if ($response === false || curl_getinfo($handle, CURLINFO_RESPONSE_CODE) !== 200) {
            throw new \RuntimeException("{$method} {$url} failed: " . curl_error($handle));
        }
        return $response;
    }
}
