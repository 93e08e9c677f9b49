<?php

declare(strict_types=1);

namespace PurchaseProtection\Tests\Support;

/**
 * The SDK's public surface, one line per symbol: classes and interfaces, public constants, properties and methods
 * with their parameter names (PHP callers may pass arguments by name, so a renamed parameter breaks them too).
 * PurchaseProtection\Internal and members marked @internal are left out.
 */
final class PublicSurface
{
    /** @return list<string> sorted */
    public static function current(): array
    {
        $root = dirname(__DIR__, 2) . '/src';
        $lines = [];
        $files = new \RecursiveIteratorIterator(new \RecursiveDirectoryIterator($root, \FilesystemIterator::SKIP_DOTS));
        foreach ($files as $file) {
            $class = 'PurchaseProtection\\' . str_replace('/', '\\', substr($file->getPathname(), strlen($root) + 1, -4));
            if (str_starts_with($class, 'PurchaseProtection\\Internal\\')) {
                continue;
            }
            $reflection = new \ReflectionClass($class);
            $kind = $reflection->isInterface() ? 'interface' : ($reflection->isFinal() ? 'final class' : 'class');
            $parent = $reflection->getParentClass();
            $lines[] = "{$kind} {$class}" . ($parent ? " extends {$parent->getName()}" : '');
            foreach ($reflection->getReflectionConstants(\ReflectionClassConstant::IS_PUBLIC) as $constant) {
                if ($constant->getDeclaringClass()->getName() === $class) {
                    $lines[] = "{$class}::{$constant->getName()} = " . json_encode($constant->getValue(), JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
                }
            }
            foreach ($reflection->getProperties(\ReflectionProperty::IS_PUBLIC) as $property) {
                if ($property->getDeclaringClass()->getName() === $class) {
                    $lines[] = "{$class}::\${$property->getName()}: {$property->getType()}" . ($property->isReadOnly() ? ' readonly' : '');
                }
            }
            foreach ($reflection->getMethods(\ReflectionMethod::IS_PUBLIC) as $method) {
                if ($method->getDeclaringClass()->getName() !== $class || str_contains((string) $method->getDocComment(), '@internal')) {
                    continue;
                }
                $parameters = array_map(
                    static fn (\ReflectionParameter $p) => ($p->getType() ? "{$p->getType()} " : '') . ($p->isVariadic() ? '...' : '') . "\${$p->getName()}" . ($p->isOptional() && !$p->isVariadic() ? ' = …' : ''),
                    $method->getParameters(),
                );
                $lines[] = "{$class}::{$method->getName()}(" . implode(', ', $parameters) . ')' . ($method->hasReturnType() ? ": {$method->getReturnType()}" : '');
            }
        }
        sort($lines);
        return $lines;
    }
}
