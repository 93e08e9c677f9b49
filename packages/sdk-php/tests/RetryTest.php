<?php

declare(strict_types=1);

namespace PurchaseProtection\Tests;

use PHPUnit\Framework\TestCase;
use PurchaseProtection\Client;
use PurchaseProtection\Exception\ServiceHttpException;
use PurchaseProtection\Exception\ServiceRateLimitException;
use PurchaseProtection\RetryPolicy;
use PurchaseProtection\Tests\Support\Servers;

/** The retry loop against the fault-injecting server: attempts, the delays asked of the sleeper, one key throughout. */
final class RetryTest extends TestCase
{
    private const float NOW_MS = 1795348800000.0; // 2026-11-22T12:00:00Z
    private const string UUID_V4 = '/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/D';

    /** @var list<int> */
    private array $sleeps = [];

    private function client(array $retry = ['jitter' => false], int $timeoutMs = Client::DEFAULT_TIMEOUT_MS): Client
    {
        return new Client(
            'mch_test_0123456789abcdefghijABCDEFGHIJ',
            baseUri: Servers::env('PP_FAULT_BASE_URI'),
            sleep: function (int $ms): void {
                $this->sleeps[] = $ms;
            },
            retry: $retry,
            timeoutMs: $timeoutMs,
            now: static fn () => self::NOW_MS,
        );
    }

    private function post(array $faults, ?Client $client = null): mixed
    {
        $this->sleeps = [];
        Servers::scriptFaults($faults);
        return ($client ?? $this->client())->post('/offers/decline', ['quoteId' => 'qt_1']);
    }

    /** @return ServiceHttpException */
    private function failure(array $faults, ?Client $client = null): ServiceHttpException
    {
        try {
            $this->post($faults, $client);
        } catch (ServiceHttpException $error) {
            return $error;
        }
        $this->fail('no exception');
    }

    private function assertOneKeyOnEveryAttempt(int $attempts): string
    {
        $keys = array_map(static fn (array $r) => $r['headers']['idempotency-key'] ?? null, Servers::faultRequests());
        $this->assertCount($attempts, $keys, 'attempts');
        $this->assertMatchesRegularExpression(self::UUID_V4, $keys[0]);
        $this->assertSame([$keys[0]], array_values(array_unique($keys)), 'the same key on every attempt');
        return $keys[0];
    }

    public function testRetries503TwiceWithExponentialBackoffAndReturnsTheThirdAnswer(): void
    {
        $this->assertSame(['declined' => true], $this->post([['status' => 503], ['status' => 503], ['status' => 200, 'body' => ['declined' => true]]]));
        $this->assertSame([250, 500], $this->sleeps);
        $this->assertOneKeyOnEveryAttempt(3);
        $this->assertSame(array_fill(0, 3, '{"quoteId":"qt_1"}'), array_column(Servers::faultRequests(), 'body'));
    }

    public function testThrowsServiceHttpExceptionWithTheLastAnswersFieldsWhenAttemptsRunOut(): void
    {
        $error = $this->failure([['status' => 503], ['status' => 503], ['status' => 503]]);
        $this->assertNotInstanceOf(ServiceRateLimitException::class, $error);
        $this->assertInstanceOf(\RuntimeException::class, $error);
        $this->assertSame(503, $error->httpStatus);
        $this->assertSame('code_503', $error->errorCode);
        $this->assertSame('api_error', $error->errorType);
        $this->assertSame('fault 503', $error->getMessage());
        $this->assertSame('req_attempt3', $error->requestId);
        $this->assertNull($error->getPrevious());
        $this->assertSame([250, 500], $this->sleeps);
        $this->assertSame($this->assertOneKeyOnEveryAttempt(3), $error->idempotencyKey);
    }

    public function testRetriesEachRetryableStatus(): void
    {
        foreach ([408, 429, 500, 502, 504] as $status) {
            $this->assertSame(['ok' => true], $this->post([['status' => $status], ['status' => 200]]), (string) $status);
            $this->assertOneKeyOnEveryAttempt(2);
        }
    }

    public function testNeverRetriesOtherClientErrors(): void
    {
        foreach ([400, 401, 403, 404, 409, 413, 422] as $status) {
            $error = $this->failure([['status' => $status, 'headers' => ['Retry-After' => '1']], ['status' => 200]]);
            $this->assertSame($status, $error->httpStatus);
            $this->assertSame("code_{$status}", $error->errorCode);
            $this->assertCount(1, Servers::faultRequests(), (string) $status);
            $this->assertSame([], $this->sleeps);
        }
    }

    public function testWaitsRetryAfterSecondsInsteadOfTheBackoff(): void
    {
        $this->post([['status' => 429, 'headers' => ['Retry-After' => '2']], ['status' => 429, 'headers' => ['Retry-After' => '0']], ['status' => 200]]);
        $this->assertSame([2000, 0], $this->sleeps);
        $this->assertOneKeyOnEveryAttempt(3);
    }

    public function testReadsARetryAfterHttpDateAgainstTheInjectedClock(): void
    {
        $date = gmdate('D, d M Y H:i:s \G\M\T', (int) (self::NOW_MS / 1000) + 7);
        $this->post([['status' => 429, 'headers' => ['Retry-After' => $date]], ['status' => 200]]);
        $this->assertSame([7000], $this->sleeps);
    }

    public function testHonoursRetryAfterOn503AndCutsItToTheCeiling(): void
    {
        $this->post([['status' => 503, 'headers' => ['Retry-After' => '3600']], ['status' => 503, 'headers' => ['Retry-After' => '3600']], ['status' => 200]]);
        $this->assertSame([600000, 600000], $this->sleeps);
        $this->post([['status' => 429, 'headers' => ['Retry-After' => '30']], ['status' => 200]], $this->client(['jitter' => false, 'retryAfterCeilingSeconds' => 10]));
        $this->assertSame([10000], $this->sleeps);
    }

    public function testThrowsServiceRateLimitExceptionWithRetryAfterWhen429sRunOut(): void
    {
        $error = $this->failure(array_fill(0, 3, ['status' => 429, 'headers' => ['Retry-After' => '5']]));
        $this->assertInstanceOf(ServiceRateLimitException::class, $error);
        $this->assertSame(429, $error->httpStatus);
        $this->assertSame(5, $error->retryAfter);
        $this->assertSame('code_429', $error->errorCode);
        $this->assertSame('rate_limit_error', $error->errorType);
        $this->assertSame(['5'], $error->headers['retry-after']);
        $this->assertSame([5000, 5000], $this->sleeps);
        $this->assertSame($this->assertOneKeyOnEveryAttempt(3), $error->idempotencyKey);
    }

    public function testRetriesConnectionResetsAndReportsATransportFailureWhenTheyPersist(): void
    {
        $this->assertSame(['ok' => true], $this->post([['reset' => true], ['reset' => true], ['status' => 200]]));
        $this->assertOneKeyOnEveryAttempt(3);
        $this->assertSame([250, 500], $this->sleeps);

        $error = $this->failure([['reset' => true], ['reset' => true], ['reset' => true]]);
        $this->assertNull($error->httpStatus);
        $this->assertNull($error->errorCode);
        $this->assertNull($error->requestId);
        $this->assertInstanceOf(\Psr\Http\Client\NetworkExceptionInterface::class, $error->getPrevious());
        $this->assertStringStartsWith('The request failed', $error->getMessage());
        $this->assertSame($this->assertOneKeyOnEveryAttempt(3), $error->idempotencyKey);
    }

    public function testAbortsAttemptsSlowerThanTheTimeoutAndRetriesThem(): void
    {
        $client = $this->client(['jitter' => false], 400);
        $this->assertSame(['fast' => true], $this->post([['delayMs' => 5000], ['status' => 200, 'body' => ['fast' => true]]], $client));
        $this->assertOneKeyOnEveryAttempt(2);

        $started = microtime(true);
        $error = $this->failure([['delayMs' => 5000], ['delayMs' => 5000], ['delayMs' => 5000]], $client);
        $this->assertLessThan(4.5, microtime(true) - $started, 'three 400 ms timeouts, not three 5 s answers');
        $this->assertNull($error->httpStatus);
        $this->assertSame([250, 500], $this->sleeps);
        $this->assertOneKeyOnEveryAttempt(3);
    }

    public function testJittersEachBackoffDelayWithinHalfToAll(): void
    {
        $this->post([['status' => 503], ['status' => 503], ['status' => 200]], $this->client([]));
        $this->assertCount(2, $this->sleeps);
        $this->assertTrue($this->sleeps[0] >= 125 && $this->sleeps[0] <= 250, (string) $this->sleeps[0]);
        $this->assertTrue($this->sleeps[1] >= 250 && $this->sleeps[1] <= 500, (string) $this->sleeps[1]);
    }

    public function testFollowsMaxAttemptsBaseDelayAndMultiplier(): void
    {
        $this->post([...array_fill(0, 4, ['status' => 500]), ['status' => 200]], $this->client(['jitter' => false, 'maxAttempts' => 5, 'baseDelayMs' => 100, 'multiplier' => 3]));
        $this->assertSame([100, 300, 900, 2700], $this->sleeps);
        $error = $this->failure([['status' => 500], ['status' => 200]], $this->client(['maxAttempts' => 1]));
        $this->assertSame(500, $error->httpStatus);
        $this->assertCount(1, Servers::faultRequests());
        $this->assertSame([], $this->sleeps);
    }

    public function testSendsACallersIdempotencyKeyOnEveryAttempt(): void
    {
        Servers::scriptFaults([['status' => 503], ['status' => 200]]);
        $this->client()->post('/offers/decline', ['quoteId' => 'qt_1'], 'order-1001-decline-0001');
        $this->assertSame(['order-1001-decline-0001', 'order-1001-decline-0001'], array_map(static fn (array $r) => $r['headers']['idempotency-key'], Servers::faultRequests()));
    }

    public function testMakesANewKeyForEachLogicalCall(): void
    {
        Servers::scriptFaults([]);
        $this->client()->post('/offers/decline');
        $this->client()->headless->decline(['quote_id' => 'qt_1']);
        [$first, $second] = array_map(static fn (array $r) => $r['headers']['idempotency-key'], Servers::faultRequests());
        $this->assertNotSame($first, $second);
    }

    public function testRetriesGetsWithoutAnIdempotencyKey(): void
    {
        Servers::scriptFaults([['status' => 502], ['status' => 200, 'body' => ['object' => 'list', 'data' => [], 'has_more' => false, 'next_cursor' => null]]]);
        $this->assertSame('list', $this->client()->claims->list(['limit' => 5])['object']);
        $requests = Servers::faultRequests();
        $this->assertSame(['/api/v1/merchant/claims?limit=5', '/api/v1/merchant/claims?limit=5'], array_column($requests, 'url'));
        $this->assertArrayNotHasKey('idempotency-key', $requests[0]['headers']);
    }

    public function testDescribesAnErrorAnswerThatIsNotJsonByItsStatus(): void
    {
        $error = $this->failure([['status' => 500, 'body' => '<html>oops</html>']], $this->client(['maxAttempts' => 1]));
        $this->assertSame('HTTP 500', $error->getMessage());
        $this->assertNull($error->errorCode);
        $this->assertSame('req_attempt1', $error->requestId);
    }

    public function testThePurePolicy(): void
    {
        $policy = new RetryPolicy();
        $this->assertTrue($policy->shouldRetry(null, 1));
        $this->assertFalse($policy->shouldRetry(503, 3));
        $this->assertFalse($policy->shouldRetry(409, 1));
        $this->assertSame(3, RetryPolicy::parseRetryAfter(' 3 ', 0));
        $this->assertNull(RetryPolicy::parseRetryAfter('-5', 0));
        $this->assertNull(RetryPolicy::parseRetryAfter('soon', 0));
        $this->assertSame(0, RetryPolicy::parseRetryAfter('Sun, 22 Nov 2026 11:00:00 GMT', self::NOW_MS), 'a past date');
        $this->assertSame(125, $policy->delayMs(1, null, static fn () => 0.0));
        $this->assertSame(250, $policy->delayMs(1, null, static fn () => 1.0));
    }
}
