<?php

declare(strict_types=1);

namespace PurchaseProtection\Resource;

use PurchaseProtection\Internal\Casing;
use PurchaseProtection\Internal\Transport;

/**
 * A list route, newest first: one page, every page, or every item. Query keys may be camelCase or snake_case;
 * they go out snake_case. A page is `['object' => 'list', 'data' => [...], 'has_more' => bool, 'next_cursor' => ?string]`.
 */
class Pages
{
    /** @internal */
    public function __construct(protected readonly Transport $transport, private readonly string $path)
    {
    }

    /**
     * @param array<string, mixed> $query
     * @return array<string, mixed>
     */
    public function list(array $query = []): array
    {
        return $this->transport->body('GET', $this->path, Casing::snakeCaseKeys($query));
    }

    /**
     * Every page from the first, following `next_cursor`.
     *
     * @param array<string, mixed> $query
     * @return \Generator<int, array<string, mixed>>
     */
    public function pages(array $query = []): \Generator
    {
        $page = $this->list($query);
        yield $page;
        while (($next = self::nextQuery($query, $page)) !== null) {
            $page = $this->list($next);
            yield $page;
        }
    }

    /**
     * Every item on every page: `foreach ($client->purchases->all() as $purchase) …`
     *
     * @param array<string, mixed> $query
     * @return \Generator<int, array<string, mixed>>
     */
    public function all(array $query = []): \Generator
    {
        // One generator rather than one over pages(): PHP compiled to WebAssembly with asyncify (how this repository
        // runs PHP 8.4) cannot resume every arrangement of generators that wait on the network; native PHP can.
        $page = $this->list($query);
        yield from $page['data'];
        while (($next = self::nextQuery($query, $page)) !== null) {
            $page = $this->list($next);
            yield from $page['data'];
        }
    }

    /**
     * The query of the page after `$page`, or null when it was the last.
     *
     * @param array<string, mixed> $query
     * @param array<string, mixed> $page
     * @return array<string, mixed>|null
     */
    private static function nextQuery(array $query, array $page): ?array
    {
        $cursor = ($page['has_more'] ?? false) ? ($page['next_cursor'] ?? null) : null;
        return $cursor === null ? null : [...$query, 'starting_after' => $cursor];
    }
}
