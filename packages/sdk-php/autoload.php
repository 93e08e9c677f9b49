<?php

// For installs without Composer (Composer users: vendor/autoload.php covers everything). Registers the SDK's
// classes, then the PSR interfaces and nyholm/psr7 from the include path where they are installed that way
// (Debian's php-psr-http-client, php-psr-http-message, php-psr-http-factory and php-nyholm-psr7 put PEAR-style
// autoloaders under /usr/share/php).

declare(strict_types=1);

spl_autoload_register(static function (string $class): void {
    $prefix = 'PurchaseProtection\\';
    if (str_starts_with($class, $prefix)) {
        $file = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
        if (is_file($file)) {
            require $file;
        }
    }
});

foreach ([
    'Psr/Http/Client/autoload.php' => \Psr\Http\Client\ClientInterface::class,
    'Psr/Http/Message/autoload.php' => \Psr\Http\Message\RequestInterface::class,
    'Psr/Http/Message/factory-autoload.php' => \Psr\Http\Message\RequestFactoryInterface::class,
    'Nyholm/Psr7/autoload.php' => \Nyholm\Psr7\Factory\Psr17Factory::class,
] as $autoloader => $class) {
    if (!interface_exists($class) && !class_exists($class) && ($path = stream_resolve_include_path($autoloader)) !== false) {
        require_once $path;
    }
}
