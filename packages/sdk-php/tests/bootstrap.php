<?php

declare(strict_types=1);

// The SDK (and, where installed that way, the PSR packages) without Composer; `npm run test:php` prepends the same file.
require_once __DIR__ . '/../autoload.php';

spl_autoload_register(static function (string $class): void {
    $prefix = 'PurchaseProtection\\Tests\\';
    if (str_starts_with($class, $prefix)) {
        require __DIR__ . '/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
    }
});
